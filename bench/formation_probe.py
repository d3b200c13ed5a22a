#!/usr/bin/env python3
"""Blind end-to-end probe of formation and retrieval through HTTP (issues 11 and 12).

Replays the conversations of bench/corpora/probe_conversations.yaml as sessions and turns (fresh user
ids per run, one user per conversation), ends each session, waits until formation has written what it
will (polling the memories list, with a time limit), then asks each question back through
`POST /api/v1/context` (default budget) and through default search (`POST /api/v1/memories/search`,
top 10, default `min_score`). A conversation's later sessions ("I switched to D") are replayed only after
its earlier ones formed, as a user would come back another day.

Reported per language and per fact family:
- context: share of questions whose context (every block but the echoed user input) holds every
  expected substring; `context_by_facts` the same counting only non-episode items (what structured
  extraction served, not raw statement spans);
- search: the same for the top 10 results;
- must-not violations: a superseded value, another person's fact, a hypothetical or a joke served as a
  fact (scope `facts`: a non-episode item holds it), or a diet/allergy carried into a weather question
  (scope `any`);
- stale: a superseded employer or city still among the user's active facts after the change;
- negatives: negative-only conversations that left memories of a forbidden kind (fact/preference).

Every failure is listed in the JSON with the question, what was expected and what came back.

    .venv/bin/python bench/formation_probe.py --base-url http://127.0.0.1:8000 --api-key mh_... \\
        --json /tmp/formation_probe.json
    .venv/bin/python bench/formation_probe.py --smoke ...     # 2 conversations, the CI-sized run

HTTP only: no Django, nothing of the project. The corpus is YAML, read with PyYAML (the service's own
requirements install it); the rest is the standard library and bench/_client.py.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, ApiError, Client, percentile, resolve_api_key  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE / "corpora" / "probe_conversations.yaml"
SMOKE_IDS = ("en02", "zh08")  # a job change over two sessions; a dinner and a weather question
SEARCH_TOP_K = 10
POLL_SECONDS = 0.5
# Formation is taken as finished once every replayed session has at least one memory whose provenance
# names it and no user's memories changed for this long; sessions that never get one (all small talk)
# are reported after the time limit rather than waited on forever.
SETTLE_SECONDS = 5.0
FACT_FAMILIES_WITH_SUPERSESSION = ("job_change", "move")
# An old value served as the past ("User used to work at Figma", key user.former_employer, 以前在…) is what
# a supersession should leave; it is counted apart (past_mentions), not as a violation.
_PAST_MARKERS = re.compile(r"used to|former|previous|no longer|\bleft\b|\bquit\b|以前|曾经|之前|原来|前东家|离职|辞职",
                           re.IGNORECASE)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")


def load_corpus(path: Path) -> dict:
    try:
        import yaml
    except ImportError:  # pragma: no cover - the service's requirements install PyYAML
        raise SystemExit("reading the corpus needs PyYAML: run with the service's .venv/bin/python")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ matching

def _normalise(text: str) -> str:
    """Case-folded, with ISO dates and timestamps removed (an episode's "[2026-12-01]" prefix must not
    satisfy an expected "12" or "1")."""
    return _ISO_DATE.sub(" ", text or "").casefold()


def alternative_found(alternative: str, text: str) -> bool:
    needle = str(alternative).casefold()
    if needle.strip().isdigit():  # a number must stand alone: "9" is not found in "19" or "2019"
        return re.search(rf"(?<!\d){re.escape(needle.strip())}(?!\d)", text) is not None
    return needle in text


def groups_missing(expect: list, text: str) -> list:
    """The expected groups (each a string or a list of alternatives) none of whose forms is in text."""
    normalised = _normalise(text)
    missing = []
    for group in expect or []:
        alternatives = group if isinstance(group, list) else [group]
        if not any(alternative_found(alt, normalised) for alt in alternatives):
            missing.append(group)
    return missing


def context_texts(body: dict) -> tuple[str, str, list[dict]]:
    """(everything served but the echoed query, only the non-episode items, the items as returned)."""
    everything, facts, items = [], [], []
    for block in body.get("blocks", []):
        if block.get("name") == "user_input":
            continue
        if block.get("content"):
            everything.append(block["content"])
        for item in block.get("items") or []:
            kind = item.get("kind")
            items.append({"block": block.get("name"), "kind": kind, "text": item.get("text", ""),
                          "score": item.get("score"), "reason": item.get("reason"),
                          "memory_key": item.get("memory_key")})
            if kind and kind != "episode":
                facts.append(item)
    return "\n".join(everything), facts, items


def search_texts(body: dict) -> tuple[str, str, list[dict]]:
    results = body.get("results", [])
    items = [{"kind": r.get("kind"), "text": r.get("content", ""), "score": round(r.get("score") or 0, 3),
              "memory_key": r.get("memory_key")} for r in results]
    return "\n".join(i["text"] for i in items), [i for i in items if i["kind"] != "episode"], items


def as_past(item: dict) -> bool:
    return bool(_PAST_MARKERS.search(item.get("text") or "") or _PAST_MARKERS.search(item.get("memory_key") or ""))


# ------------------------------------------------------------------ replay and formation

class Patient:
    """The client, retrying a read that timed out and any call that answered 503 (a loaded 2-core box);
    every write the probe makes is idempotent (session ids, turn client ids, ending an ended session)."""

    def __init__(self, client: Client, attempts: int = 3):
        self.client, self.attempts = client, attempts

    def request(self, method: str, path: str, body: object | None = None):
        for attempt in range(self.attempts):
            try:
                return self.client.request(method, path, body)
            except (TimeoutError, ConnectionError) as exc:
                # A write that timed out may still be running and holding its session's row: sending it
                # again would only queue behind it, so only reads are retried.
                if method != "GET" or attempt == self.attempts - 1:
                    raise
                print(f"retrying {method} {path} after {exc!r}", file=sys.stderr)
            except ApiError as exc:
                if exc.status != 503 or attempt == self.attempts - 1:
                    raise
                print(f"retrying {method} {path} after 503", file=sys.stderr)
            self.client._connection(fresh=True)  # a timed-out connection may still carry the old answer

    def post(self, path: str, body: object):
        return self.request("POST", path, body)


class Probe:
    def __init__(self, client: Client, run_id: str, timeout: float):
        self.client, self.run_id, self.timeout = Patient(client), run_id, timeout
        self.users: dict[str, str] = {}
        self.broken: dict[str, str] = {}  # conversation id -> the call that never answered

    def user_id(self, conversation_id: str) -> str:
        return self.users.setdefault(conversation_id, f"probe-{self.run_id}-{conversation_id}")

    def replay_session(self, conversation: dict, number: int) -> str:
        user = self.user_id(conversation["id"])
        session_id = f"{user}-s{number + 1}"
        self.client.post("/api/v1/sessions", {"session_id": session_id, "user_id": user, "agent_id": "probe"})
        turns = []
        for index, turn in enumerate(conversation["sessions"][number]):
            (speaker, text), = turn.items()
            turns.append({"role": "user" if speaker == "u" else "assistant", "content": text,
                          "client_id": f"{session_id}-t{index}"})
        try:
            self.client.post(f"/api/v1/sessions/{session_id}/turns", {"turns": turns})
        except (TimeoutError, ConnectionError) as exc:
            # The service never answered: what was said is lost (reported), and the session is left
            # alone, since ending it would wait on the same row.
            self.broken[conversation["id"]] = f"POST /api/v1/sessions/{session_id}/turns: {exc!r}"
            return None
        self.client.post(f"/api/v1/sessions/{session_id}/end", {})
        return session_id

    def memories(self, user: str, statuses: str = "active,superseded") -> list[dict]:
        out, cursor = [], None
        while True:
            path = f"/api/v1/memories?user_id={user}&limit=200&status={statuses}"
            body, _ = self.client.request("GET", path + (f"&cursor={cursor}" if cursor else ""))
            out.extend(body["results"])
            cursor = body.get("next_cursor")
            if not cursor:
                return out

    def wait_for_formation(self, sessions: dict[str, str]) -> dict:
        """sessions: session id -> user. Polls each user's memories until every session has a memory whose
        provenance names it and nothing changed for SETTLE_SECONDS, or the time limit passes."""
        started = time.monotonic()
        deadline = started + self.timeout
        users = sorted(set(sessions.values()))
        snapshot, stable_since = None, time.monotonic()
        covered: set[str] = set()
        while True:
            state = {}
            for user in users:
                rows = self.memories(user)
                state[user] = sorted((m["id"], m["status"], m.get("updated_at")) for m in rows)
                covered |= {(m.get("provenance") or {}).get("source_session_id") for m in rows}
            now = time.monotonic()
            if state != snapshot:
                snapshot, stable_since = state, now
            pending = [s for s in sessions if s not in covered]
            if not pending and now - stable_since >= SETTLE_SECONDS:
                break
            # Sessions that give formation nothing to keep never get a memory: once everything else has
            # been quiet for long, stop waiting for them.
            if pending and now - stable_since >= max(6 * SETTLE_SECONDS, 30.0) and len(pending) < len(sessions):
                break
            if now >= deadline:
                break
            time.sleep(POLL_SECONDS)
        return {"seconds": round(time.monotonic() - started, 1),
                "sessions_without_memory": sorted(s for s in sessions if s not in covered),
                "timed_out": time.monotonic() >= deadline}

    def erase(self) -> int:
        """Erase the probe's users (admin scope); a user whose replay never answered is left, since its
        erasure would wait on the same locked session."""
        erased = 0
        for conversation, user in self.users.items():
            if conversation in self.broken:
                continue
            try:
                self.client.request("DELETE", f"/api/v1/users/{user}")
                erased += 1
            except ApiError as exc:
                if exc.status == 403:  # a key without admin scope: leave them
                    return erased
            except (TimeoutError, ConnectionError) as exc:
                print(f"could not erase {user}: {exc!r}", file=sys.stderr)
        return erased


def replay_all(probe: Probe, conversations: list[dict]) -> list[dict]:
    """Session 1 of every conversation, wait; session 2 of those that have one, wait; and so on."""
    rounds = []
    depth = max(len(c["sessions"]) for c in conversations)
    for number in range(depth):
        started = time.monotonic()
        sessions = {}
        for conversation in conversations:
            if number < len(conversation["sessions"]) and conversation["id"] not in probe.broken:
                session_id = probe.replay_session(conversation, number)
                if session_id:
                    sessions[session_id] = probe.user_id(conversation["id"])
        replayed = time.monotonic() - started
        waited = probe.wait_for_formation(sessions)
        rounds.append({"session_number": number + 1, "sessions": len(sessions),
                       "replay_seconds": round(replayed, 1), **waited})
    return rounds


# ------------------------------------------------------------------ asking back

def _share(passed: int, total: int) -> float | None:
    return round(passed / total, 3) if total else None


def ask(probe: Probe, conversation: dict, question: dict, latencies: dict) -> dict:
    user = probe.user_id(conversation["id"])
    context, context_ms = probe.client.post("/api/v1/context", {"user_id": user, "query": question["q"]})
    search, search_ms = probe.client.post("/api/v1/memories/search",
                                          {"user_id": user, "query": question["q"], "top_k": SEARCH_TOP_K})
    latencies["context"].append(context_ms)
    latencies["search"].append(search_ms)
    outcome = {"conversation": conversation["id"], "lang": conversation["lang"], "family": question["family"],
               "question": question["q"], "expect": question.get("expect") or [],
               "must_not": question.get("must_not") or [],
               "replay_failed": conversation["id"] in probe.broken}
    for where, (everything, facts, items) in (("context", context_texts(context)),
                                              ("search", search_texts(search))):
        missing = groups_missing(outcome["expect"], everything)
        violations, past_mentions = [], []
        # Only an old job or city may stand as the past; anywhere else the value must not be served at all.
        superseding = question["family"] in FACT_FAMILIES_WITH_SUPERSESSION
        current = "\n".join(i["text"] for i in facts if not (superseding and as_past(i)))
        for check in outcome["must_not"]:
            if check.get("scope", "facts") == "any":
                if not groups_missing([check["text"]], everything):
                    violations.append(check)
            elif not groups_missing([check["text"]], current):
                violations.append(check)
            elif not groups_missing([check["text"]], "\n".join(i["text"] for i in facts)):
                past_mentions.append(check)
        outcome[where] = {"found": not missing, "missing": missing,
                          "found_by_facts": not groups_missing(outcome["expect"], "\n".join(i["text"] for i in facts)),
                          "violations": violations, "past_mentions": past_mentions, "items": items}
    outcome["context"]["token_count"] = context.get("token_count")
    return outcome


def stale_facts(probe: Probe, conversation: dict, active: list[dict]) -> list[dict]:
    """A superseded value (the must-not of a job-change or move question) still held by an active
    non-episode memory after the change."""
    if len(conversation["sessions"]) < 2:
        return []
    out = []
    for question in conversation["questions"]:
        if question["family"] not in FACT_FAMILIES_WITH_SUPERSESSION:
            continue
        for check in question.get("must_not") or []:
            for memory in active:
                if (memory["kind"] != "episode" and not as_past({"text": memory["content"], "memory_key": memory.get("memory_key")})
                        and not groups_missing([check["text"]], memory["content"])):
                    out.append({"conversation": conversation["id"], "old_value": check["text"],
                                "memory": memory["content"], "memory_key": memory.get("memory_key"),
                                "kind": memory["kind"]})
    return out


def inventory(rows: list[dict]) -> dict:
    kinds: dict[str, int] = defaultdict(int)
    for row in rows:
        kinds[row["kind"]] += 1
    return {"kinds": dict(kinds),
            "structured": [{"kind": r["kind"], "key": r.get("memory_key"), "content": r["content"],
                            "status": r["status"], "attributes": {k: v for k, v in (r.get("attributes") or {}).items()
                                                                   if k not in ("turns", "session_id", "extractor",
                                                                                "extractor_version", "lang")}}
                           for r in rows if r["kind"] != "episode"]}


def summarise(outcomes: list[dict], key: str) -> dict:
    table: dict[str, dict] = {}
    groups: dict[str, list[dict]] = defaultdict(list)
    for outcome in outcomes:
        groups[outcome[key]].append(outcome)
    groups["all"] = outcomes
    for name, rows in sorted(groups.items()):
        asked = [r for r in rows if r["expect"]]
        checked = [r for r in rows if r["must_not"]]
        table[name] = {
            "questions": len(asked),
            "context": _share(sum(r["context"]["found"] for r in asked), len(asked)),
            "context_by_facts": _share(sum(r["context"]["found_by_facts"] for r in asked), len(asked)),
            "search_top10": _share(sum(r["search"]["found"] for r in asked), len(asked)),
            "search_by_facts": _share(sum(r["search"]["found_by_facts"] for r in asked), len(asked)),
            "must_not_checks": sum(len(r["must_not"]) for r in checked),
            "must_not_violations_context": sum(len(r["context"]["violations"]) for r in checked),
            "must_not_violations_search": sum(len(r["search"]["violations"]) for r in checked),
            "past_mentions_context": sum(len(r["context"]["past_mentions"]) for r in checked),
        }
    return table


def failures_of(outcomes: list[dict], said: dict[str, list[str]]) -> list[dict]:
    out = []
    for outcome in outcomes:
        for where in ("context", "search"):
            result = outcome[where]
            if result["missing"] or result["violations"]:
                out.append({"conversation": outcome["conversation"], "lang": outcome["lang"],
                            "family": outcome["family"], "where": where, "question": outcome["question"],
                            "expected": outcome["expect"], "missing": result["missing"],
                            "violations": result["violations"], "said": said[outcome["conversation"]],
                            "returned": [f"({i['kind']}, {i.get('score')}, {i.get('reason') or ''}) {i['text']}"
                                         for i in result["items"] if i["text"]]})
    return out


def run(args) -> dict:
    corpus = load_corpus(Path(args.corpus))
    conversations, negatives = corpus["conversations"], corpus.get("negatives") or []
    if args.only:
        wanted = set(args.only.split(","))
        conversations = [c for c in conversations if c["id"] in wanted]
        negatives = [n for n in negatives if n["id"] in wanted]
    elif args.smoke:
        conversations = [c for c in conversations if c["id"] in SMOKE_IDS]
        negatives = []
    client = Client(args.base_url, resolve_api_key(args.api_key), timeout=args.request_timeout)
    client.wait_healthy()
    probe = Probe(client, uuid.uuid4().hex[:8], args.timeout)
    every = conversations + negatives
    rounds = replay_all(probe, every)

    latencies: dict[str, list[float]] = {"context": [], "search": []}
    outcomes, stale, stored = [], [], {}
    for conversation in conversations:
        rows = probe.memories(probe.user_id(conversation["id"]))
        stored[conversation["id"]] = inventory(rows)
        stale.extend(stale_facts(probe, conversation, [r for r in rows if r["status"] == "active"]))
        for question in conversation["questions"]:
            outcomes.append(ask(probe, conversation, question, latencies))
    negative_results = []
    for negative in negatives:
        forbidden = set(negative.get("forbid") or ["fact", "preference"])
        rows = [r for r in probe.memories(probe.user_id(negative["id"]), "active") if r["kind"] != "episode"]
        negative_results.append({"conversation": negative["id"], "lang": negative["lang"], "kind": negative["kind"],
                                 "violations": [{"kind": r["kind"], "key": r.get("memory_key"), "content": r["content"]}
                                                for r in rows if r["kind"] in forbidden],
                                 "other_structured": [{"kind": r["kind"], "content": r["content"]}
                                                      for r in rows if r["kind"] not in forbidden]})
    said = {c["id"]: [text for session in c["sessions"] for turn in session for speaker, text in turn.items()
                      if speaker == "u"] for c in conversations}
    report = {
        "run_id": probe.run_id, "base_url": args.base_url, "corpus": str(args.corpus),
        "conversations": len(conversations), "negatives": len(negatives),
        "questions": sum(1 for o in outcomes if o["expect"]),
        "formation": rounds,
        "replay_failures": probe.broken,
        "by_language": summarise(outcomes, "lang"),
        "by_family": summarise(outcomes, "family"),
        "stale_after_change": stale,
        "negatives_with_facts": sum(1 for n in negative_results if n["violations"]),
        "negative_results": negative_results,
        "latency_ms": {where: {"p50": round(percentile(v, 50) or 0, 1), "p95": round(percentile(v, 95) or 0, 1)}
                       for where, v in latencies.items()},
        "failures": failures_of(outcomes, said),
        "stored": stored,
    }
    return report, probe


def print_report(report: dict) -> None:
    def table(title: str, rows: dict) -> None:
        print(f"\n{title:<14} {'n':>3} {'context':>8} {'ctx/facts':>9} {'search':>7} {'srch/facts':>10} "
              f"{'must-not':>8} {'viol ctx':>8} {'viol srch':>9}")
        for name, row in rows.items():
            cells = [row["context"], row["context_by_facts"], row["search_top10"], row["search_by_facts"]]
            shown = ["-" if c is None else f"{c:.2f}" for c in cells]
            print(f"{name:<14} {row['questions']:>3} {shown[0]:>8} {shown[1]:>9} {shown[2]:>7} {shown[3]:>10} "
                  f"{row['must_not_checks']:>8} {row['must_not_violations_context']:>8} "
                  f"{row['must_not_violations_search']:>9}")
    print(f"run {report['run_id']}: {report['conversations']} conversations, {report['questions']} questions, "
          f"{report['negatives']} negative conversations")
    for r in report["formation"]:
        print(f"  round {r['session_number']}: {r['sessions']} sessions replayed in {r['replay_seconds']}s, "
              f"formed in {r['seconds']}s, without memory: {len(r['sessions_without_memory'])}"
              f"{' (time limit)' if r['timed_out'] else ''}")
    for conversation, call in report["replay_failures"].items():
        print(f"  replay failed for {conversation}: {call}")
    table("language", report["by_language"])
    table("family", report["by_family"])
    print(f"\nstale facts after a change: {len(report['stale_after_change'])}")
    for s in report["stale_after_change"]:
        print(f"  {s['conversation']}: '{s['old_value']}' still active in ({s['kind']}) {s['memory']}")
    print(f"negative conversations that left facts: {report['negatives_with_facts']} of {report['negatives']}")
    for n in report["negative_results"]:
        for v in n["violations"]:
            print(f"  {n['conversation']} ({n['kind']}): ({v['kind']} {v['key']}) {v['content']}")
    print(f"latency ms: {report['latency_ms']}")
    print(f"failures (question x endpoint): {len(report['failures'])}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", help="write scope (admin to erase the probe's users afterwards); "
                                          "default $MEMORYHUB_API_KEY")
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    parser.add_argument("--json", help="write the full report (failures in detail) here")
    parser.add_argument("--smoke", action="store_true", help=f"only {', '.join(SMOKE_IDS)}: the CI-sized run")
    parser.add_argument("--only", help="comma-separated conversation ids")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for formation per round")
    parser.add_argument("--request-timeout", type=float, default=60.0, help="seconds one HTTP call may take")
    parser.add_argument("--keep", action="store_true", help="leave the probe's users in place")
    args = parser.parse_args(argv)
    report, probe = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    print_report(report)
    if args.json:
        print(f"written {args.json}")
    if not args.keep:
        print(f"erased {probe.erase()} of {len(probe.users)} probe users")
    # The smoke run checks the path works end to end (replay, formation, both endpoints); quality is
    # reported, not enforced, so a CI run fails only when the service does.
    if report["replay_failures"]:
        print("the service did not answer a replayed call", file=sys.stderr)
        return 1
    if any(r["timed_out"] for r in report["formation"]):
        print("formation did not settle within the time limit", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
