#!/usr/bin/env python3
"""Scale benchmark through memoryhub's HTTP API: ingest rate, then search and context latency/throughput.

Synthetic users get ~100 memories each, written from Chinese and English templates (preferences, facts,
events), in batches of 100 through `POST /api/v1/memories` (so the rate includes embedding, audit and
history). At each size (cumulative: 10k, then 100k, optionally 1M) the script measures
`POST /api/v1/memories/search` and `POST /api/v1/context` with 1 and 30 concurrent clients: p50/p95,
throughput and errors; then one-turn appends (`POST /api/v1/sessions/{id}/turns`) with one client.

    .venv/bin/python bench/scale.py --base-url http://127.0.0.1:8000 --api-key mh_... --json /tmp/scale.json

With `--import-command` the sizes are reached through a bulk import instead (the same memories, as JSON Lines
files the command is run on), so 1M takes the import's rate rather than the API's; the measurements stay HTTP:

    .venv/bin/python bench/scale.py --api-key mh_... --tenant bench --sizes 1000000 \
        --import-command "nice -n 10 .venv/bin/python manage.py import_memories {file} --tenant {tenant} --no-progress"

Where a search's time goes in-process (embedding, SQL, the rest) is `manage.py profile_search TENANT`:
this script talks HTTP only and imports neither Django nor the project.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _client import DEFAULT_BASE_URL, ApiError, Client, percentile, resolve_api_key  # noqa: E402

PER_USER = 100
WARM_UP_PER_CLIENT = 2
BATCH = 100

NAMES_EN = ["Alice", "Ben", "Chloe", "David", "Emma", "Felix", "Grace", "Henry", "Iris", "Jack", "Kate", "Leo"]
CITIES_EN = ["Shanghai", "Berlin", "Toronto", "Lisbon", "Osaka", "Austin", "Nairobi", "Melbourne", "Dublin", "Seoul"]
FOODS_EN = ["peanuts", "shellfish", "gluten", "lactose", "eggs", "soy", "sesame", "strawberries"]
HOBBIES_EN = ["rock climbing", "watercolour painting", "chess", "trail running", "pottery", "jazz piano",
              "birdwatching", "sourdough baking", "salsa dancing", "photography"]
JOBS_EN = ["data engineer", "nurse", "high-school teacher", "product designer", "accountant", "chef",
           "civil engineer", "journalist"]
EN = [
    "{name} is allergic to {food} and always asks about ingredients.",
    "{name} lives in {city} and commutes by bike.",
    "{name} works as a {job} at a mid-sized company.",
    "On weekends {name} enjoys {hobby} with friends.",
    "{name} prefers window seats on long flights.",
    "{name} is planning a trip to {city} next spring.",
    "{name}'s favourite cuisine is Sichuan food, but not too spicy.",
    "{name} started learning {hobby} last month and practises every evening.",
    "{name} has a meeting with the {job} team every Tuesday at 10 am.",
    "{name} dislikes loud restaurants and prefers quiet cafes.",
    "{name} adopted a cat named Miso in {month}.",
    "{name} wants reminders sent by email rather than SMS.",
]
NAMES_ZH = ["小王", "李娜", "张伟", "陈静", "刘洋", "赵敏", "孙磊", "周婷", "吴昊", "郑爽"]
CITIES_ZH = ["上海", "北京", "深圳", "杭州", "成都", "广州", "南京", "西安", "武汉", "苏州"]
FOODS_ZH = ["花生", "海鲜", "牛奶", "鸡蛋", "芒果", "香菜", "辣椒", "小麦"]
HOBBIES_ZH = ["爬山", "游泳", "书法", "钢琴", "摄影", "烘焙", "跑步", "下围棋", "瑜伽", "钓鱼"]
JOBS_ZH = ["软件工程师", "护士", "中学老师", "设计师", "会计", "厨师", "记者", "律师"]
ZH = [
    "{name}对{food}过敏，点菜时要特别注意。",
    "{name}住在{city}，每天坐地铁上班。",
    "{name}是一名{job}，工作很忙。",
    "{name}周末喜欢{hobby}。",
    "{name}下个月要去{city}出差。",
    "{name}不喜欢吃{food}，觉得味道太重。",
    "{name}最近开始学{hobby}，每天练习一个小时。",
    "{name}希望通知通过邮件发送，不要发短信。",
    "{name}的生日在{month}，喜欢安静地过。",
    "{name}养了一只叫豆豆的狗。",
]
MONTHS = ["January", "March", "May", "July", "September", "November"]
MONTHS_ZH = ["一月", "三月", "五月", "七月", "九月", "十一月"]
# Queries are composed from slots so that almost every one is new: the service caches query embeddings,
# and a handful of repeated queries would hide the embedding cost that real traffic pays.
QUERY_TEMPLATES_EN = ["is {name} allergic to {food}?", "does {name} live in {city} or nearby?",
                      "what does {name} do for work as a {job}?", "does {name} enjoy {hobby} on weekends?",
                      "travel plans to {city} in {month}", "can {name} eat {food} at dinner on the {day}th?",
                      "how should we remind {name} about the {job} meeting?", "does {name} have a pet in {city}?",
                      "what is {name} learning, maybe {hobby}?", "restaurant for {name} without {food}"]
QUERY_TEMPLATES_ZH = ["{name}对{food}过敏吗", "{name}住在{city}吗", "{name}是做{job}的吗", "{name}周末喜欢{hobby}吗",
                      "{name}{month}要去{city}吗", "{name}{day}号能吃{food}吗", "{name}最近在学{hobby}吗",
                      "给{name}推荐一家没有{food}的餐厅"]


# How an agent might frame the same question: multiplies the templates' combinations, so that ~96 % of
# a 1,500-query run are distinct (the templates alone repeat ~30 % of their queries within a run).
QUERY_FRAMES_EN = [("", ""), ("quick question: ", ""), ("remind me, ", ""), ("", " this week"),
                   ("", " at the moment"), ("before we book anything: ", ""), ("", " according to the notes"),
                   ("one more thing, ", " these days")]
QUERY_FRAMES_ZH = [("", ""), ("请问", ""), ("提醒我一下，", ""), ("", "，这周"), ("", "，现在还是这样吗"),
                   ("帮我查一下，", ""), ("", "，按之前的记录"), ("顺便问一下，", "，最近")]


def random_query(rng: random.Random) -> str:
    if rng.random() < 0.5:
        prefix, suffix = rng.choice(QUERY_FRAMES_ZH)
        return prefix + rng.choice(QUERY_TEMPLATES_ZH).format(
            name=rng.choice(NAMES_ZH), food=rng.choice(FOODS_ZH), city=rng.choice(CITIES_ZH),
            job=rng.choice(JOBS_ZH), hobby=rng.choice(HOBBIES_ZH), month=rng.choice(MONTHS_ZH),
            day=rng.randint(1, 28)) + suffix
    prefix, suffix = rng.choice(QUERY_FRAMES_EN)
    question = rng.choice(QUERY_TEMPLATES_EN).format(
        name=rng.choice(NAMES_EN), food=rng.choice(FOODS_EN), city=rng.choice(CITIES_EN),
        job=rng.choice(JOBS_EN), hobby=rng.choice(HOBBIES_EN), month=rng.choice(MONTHS), day=rng.randint(1, 28))
    mark = "?" if question.endswith("?") else ""
    return prefix + question.removesuffix("?") + suffix + mark


def user_memories(rng: random.Random, count: int) -> list[str]:
    zh = rng.random() < 0.5
    name = rng.choice(NAMES_ZH if zh else NAMES_EN)
    out = []
    for i in range(count):
        if zh:
            tpl = ZH[i % len(ZH)] if i < len(ZH) else rng.choice(ZH)
            text = tpl.format(name=name, food=rng.choice(FOODS_ZH), city=rng.choice(CITIES_ZH),
                              job=rng.choice(JOBS_ZH), hobby=rng.choice(HOBBIES_ZH), month=rng.choice(MONTHS_ZH))
        else:
            tpl = EN[i % len(EN)] if i < len(EN) else rng.choice(EN)
            text = tpl.format(name=name, food=rng.choice(FOODS_EN), city=rng.choice(CITIES_EN),
                              job=rng.choice(JOBS_EN), hobby=rng.choice(HOBBIES_EN), month=rng.choice(MONTHS))
        out.append(f"{text} (note {i + 1})")  # the suffix keeps memories distinct, so none merge as duplicates
    return out


class Run:
    def __init__(self, client: Client, run_id: str, seed: int):
        self.client, self.run_id = client, run_id
        self.rng = random.Random(seed)
        self.seed = seed
        self.users: list[str] = []
        self.sessions: dict[str, str] = {}
        self.turn_sessions: dict[str, str] = {}
        self.lock = threading.Lock()

    def user_id(self, index: int) -> str:
        return f"scale-{self.run_id}-u{index}"

    # ---- ingest -------------------------------------------------------------------------------------
    def adopt_existing(self, import_users: int = 0) -> None:
        """Count the users of an earlier run with this run id that hold their memories (binary search); for a
        build through the import (`import_users` users a file, files run in parallel), the files whose last
        user has memories, up to the first that has not."""
        def has_memories(index: int) -> bool:
            body, _ = self.client.request("GET", f"/api/v1/memories?user_id={self.user_id(index)}&limit=1")
            return bool(body["results"])

        if not has_memories(0):
            raise SystemExit(f"run {self.run_id} has no users in this tenant")
        if import_users:
            done = 0
            while has_memories(done + import_users - 1):
                done += import_users
            self.users = [self.user_id(i) for i in range(done)]
            print(f"reusing {done} users of run {self.run_id} (whole import files)", flush=True)
            return
        low, high = 0, 1
        while has_memories(high):
            low, high = high, high * 2
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if has_memories(mid) else (low, mid)
        self.users = [self.user_id(i) for i in range(low + 1)]
        print(f"reusing {len(self.users)} users of run {self.run_id}", flush=True)

    def user_items(self, index: int) -> list[dict]:
        """User `index`'s memories as POST /api/v1/memories items (the HTTP ingest and the import file alike)."""
        user_id = self.user_id(index)
        texts = user_memories(random.Random(f"{self.run_id}-{index}"), PER_USER)
        return [{"user_id": user_id, "content": t, "kind": ("preference", "fact", "event")[j % 3],
                 "importance": 0.6, "client_id": f"{user_id}-{j}"} for j, t in enumerate(texts)]

    def _target_users(self, total: int) -> tuple[int, int]:
        start_users = len(self.users)
        return start_users, max(start_users, -(-total // PER_USER))

    def ingest_to(self, total: int, clients: int) -> dict:
        start_users, target_users = self._target_users(total)
        batches = []
        for index in range(start_users, target_users):
            items = self.user_items(index)
            batches.extend((items[0]["user_id"], items[offset:offset + BATCH]) for offset in range(0, len(items), BATCH))
        latencies: list[float] = []
        errors = 0
        written = 0

        def send(batch):
            user_id, items = batch
            for attempt in range(3):  # client_id makes a retry after a dropped connection a no-op
                try:
                    body, elapsed = self.client.post("/api/v1/memories", {"memories": items})
                    return user_id, len(body["results"]), elapsed, None
                except OSError as exc:
                    last = exc
                except ApiError as exc:
                    return user_id, 0, 0.0, exc
            return user_id, 0, 0.0, last

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=max(1, clients)) as pool:
            for user_id, n, elapsed, exc in pool.map(send, batches):
                if exc is not None:
                    errors += 1
                    print(f"  ingest error for {user_id}: {exc}", file=sys.stderr)
                    continue
                written += n
                latencies.append(elapsed)
        seconds = time.perf_counter() - started
        self.users.extend(self.user_id(i) for i in range(start_users, target_users))
        return {"memories": written, "seconds": round(seconds, 2), "loadavg_1m_end": _loadavg(),
                "memories_per_s": round(written / seconds, 1) if seconds else None,
                "batch_ms": {"p50": _r(percentile(latencies, 50)), "p95": _r(percentile(latencies, 95))},
                "clients": clients, "errors": errors}

    def import_to(self, total: int, command: str, tenant: str | None, chunk: int, directory: str | None,
                  jobs: int = 1) -> dict:
        """The same memories as `ingest_to`, written as JSON Lines files of `chunk` lines (whole users) and each
        handed to `command` (`{file}` and `{tenant}` filled in), e.g. `manage.py import_memories`; `jobs` files
        at a time. The command's own report (its last stdout line, JSON) gives what it created. A stopped build
        resumes with --reuse and the same --import-chunk: a file counts as done when its last user has
        memories (the import commits in file order), and a file run again adds nothing (client ids)."""
        start_users, target_users = self._target_users(total)
        users_per_file = max(1, chunk // PER_USER)
        spans = [(first, min(target_users, first + users_per_file))
                 for first in range(start_users, target_users, users_per_file)]
        failed = threading.Event()

        def run_one(folder: str, first: int, last: int) -> dict:
            if failed.is_set():
                return {"users": [first, last - 1], "returncode": None, "skipped": True}
            path = Path(folder) / f"{self.run_id}-u{first}-u{last - 1}.jsonl"
            lines = 0
            with path.open("w", encoding="utf-8") as handle:
                for index in range(first, last):
                    for item in self.user_items(index):
                        handle.write(json.dumps(item, ensure_ascii=False) + "\n")
                        lines += 1
            argv = shlex.split(command.format(file=shlex.quote(str(path)), tenant=shlex.quote(tenant or "")))
            run_started = time.perf_counter()
            done = subprocess.run(argv, stdout=subprocess.PIPE, text=True)
            seconds = time.perf_counter() - run_started
            path.unlink()
            report = _last_json_line(done.stdout)
            print(f"   import u{first}..u{last - 1}: exit {done.returncode}, {seconds:.1f} s, {json.dumps(report)}",
                  flush=True)
            if done.returncode != 0:
                failed.set()
                print(f"  import command failed (exit {done.returncode}): {' '.join(argv)}", file=sys.stderr)
            return {"users": [first, last - 1], "lines": lines, "returncode": done.returncode,
                    "seconds": round(seconds, 2), "report": report}

        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="scale-import-", dir=directory) as folder:
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                runs = list(pool.map(lambda span: run_one(folder, *span), spans))
        seconds = time.perf_counter() - started
        written = lines = errors = 0
        contiguous = True
        for span, run in zip(spans, runs):
            if run["returncode"] != 0:
                errors += run["returncode"] is not None
                contiguous = False
                continue
            written += (run["report"] or {}).get("created", 0)
            lines += run["lines"]
            if contiguous:  # the users measured are those of the files done before the first that failed
                self.users.extend(self.user_id(i) for i in range(*span))
        return {"memories": written, "lines": lines, "seconds": round(seconds, 2), "loadavg_1m_end": _loadavg(),
                "memories_per_s": round(written / seconds, 1) if seconds else None, "via": "import",
                "command": command, "jobs": jobs, "runs": runs, "errors": errors}

    # ---- sessions for the context endpoint -----------------------------------------------------------
    def context_available(self) -> bool:
        """False when this build serves no context (or sessions) endpoint at all."""
        for path in ("/api/v1/context", "/api/v1/sessions"):
            try:
                self.client.post(path, {})
            except ApiError as exc:
                if exc.route_missing:
                    return False
        return True

    def ensure_sessions(self, count: int) -> None:
        for user_id in self.users[:count]:
            if user_id in self.sessions:
                continue
            session_id = f"{user_id}-s1"
            self.client.post("/api/v1/sessions", {"session_id": session_id, "user_id": user_id})
            self.client.post(f"/api/v1/sessions/{session_id}/turns", {"turns": [
                {"role": "user", "content": "I need a restaurant for Friday evening.", "client_id": "t1"},
                {"role": "assistant", "content": "Sure, any preference on cuisine or area?", "client_id": "t2"},
                {"role": "user", "content": "Somewhere quiet, not too far from home.", "client_id": "t3"}]})
            self.sessions[user_id] = session_id

    # ---- one large owner (issue 16 item 4) -----------------------------------------------------------
    def large_owner_id(self) -> str:
        return f"scale-{self.run_id}-large"

    def ingest_large_owner(self, total: int, clients: int) -> dict:
        """One owner with `total` memories (a team's shared knowledge: many people, one user id), in batches of
        100; with --reuse an owner that already has memories is taken as complete."""
        user_id = self.large_owner_id()
        body, _ = self.client.request("GET", f"/api/v1/memories?user_id={user_id}&limit=1")
        if body["results"]:
            print(f"   large owner {user_id} exists: not ingested again", flush=True)
            return {"memories": 0, "seconds": 0.0, "reused": True}
        rng = random.Random(f"{self.run_id}-large")
        batches = []
        for offset in range(0, total, BATCH):
            texts = [text for _ in range(BATCH // 10) for text in user_memories(rng, 10)][:min(BATCH, total - offset)]
            batches.append([{"user_id": user_id, "content": f"{text.removesuffix(')')}.{offset + j})",
                             "kind": ("preference", "fact", "event")[j % 3], "importance": 0.6,
                             "client_id": f"{user_id}-{offset + j}"} for j, text in enumerate(texts)])
        started, errors, written = time.perf_counter(), 0, 0

        def send(items):
            for _attempt in range(3):
                try:
                    return len(self.client.post("/api/v1/memories", {"memories": items})[0]["results"])
                except OSError:
                    continue
                except ApiError as exc:
                    print(f"  large-owner ingest error: {exc}", file=sys.stderr)
                    return 0
            return 0

        with ThreadPoolExecutor(max_workers=max(1, clients)) as pool:
            for n in pool.map(send, batches):
                written += n
                errors += n == 0
        seconds = time.perf_counter() - started
        return {"memories": written, "seconds": round(seconds, 2), "errors": errors,
                "memories_per_s": round(written / seconds, 1) if seconds else None, "loadavg_1m_end": _loadavg()}

    def large_owner_searches(self, queries: list[str], clients: int) -> tuple[list[dict], dict]:
        """Each query's result ids and path (explain), and the latency figures."""
        user_id = self.large_owner_id()
        answers: list[dict | None] = [None] * len(queries)
        latencies: list[float] = []
        lock = threading.Lock()

        def one(index):
            try:
                body, elapsed = self.client.post("/api/v1/memories/search", {
                    "user_id": user_id, "query": queries[index], "top_k": 10, "explain": True})
            except (ApiError, OSError) as exc:
                answers[index] = {"error": type(exc).__name__}
                return
            results = body["results"]
            answers[index] = {"ids": [r["id"] for r in results],
                              "paths": sorted({(r.get("explain") or {}).get("path") or "?" for r in results})}
            with lock:
                latencies.append(elapsed)

        load_before = _loadavg()
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=clients) as pool:
            list(pool.map(one, range(len(queries))))
        seconds = time.perf_counter() - started
        return answers, {"clients": clients, "requests": len(queries), "ok": len(latencies),
                         "errors": len(queries) - len(latencies), "loadavg_1m": [load_before, _loadavg()],
                         "p50_ms": _r(percentile(latencies, 50)), "p95_ms": _r(percentile(latencies, 95)),
                         "throughput_per_s": round(len(latencies) / seconds, 1) if seconds else None}

    def large_owner_path(self) -> str:
        answers, _ = self.large_owner_searches(["what does the team know?"], 1)
        paths = (answers[0] or {}).get("paths") or ["?"]
        return paths[0]

    def measure_large_owner(self, total: int, clients: int, requests: int, wait_s: float) -> dict:
        """The exact scan first (the owner has no indexes yet), then, once the large-owner job built them
        (`manage.py large_owner_indexes`, or the beat's run), the same queries on the approximate path:
        p50/p95 on both, and recall@10 of the approximate answers against the exact ones."""
        ingest = self.ingest_large_owner(total, clients)
        print(f"   large owner ingest {json.dumps(ingest)}", flush=True)
        rng = random.Random(f"{self.run_id}-{self.seed}-large")
        queries = list(dict.fromkeys(random_query(rng) for _ in range(requests * 2)))[:requests]
        report: dict = {"memories": total, "ingest": ingest}
        path = self.large_owner_path()
        if path == "exact":
            exact, report["exact"] = self.large_owner_searches(queries, 1)
            print(f"   large owner exact {json.dumps(report['exact'])}", flush=True)
            print(f"   waiting up to {wait_s:.0f} s for the approximate path: run manage.py large_owner_indexes",
                  flush=True)
            deadline = time.monotonic() + wait_s
            # every server process reads the list of built indexes on its own (every 30 s): the path counts as
            # come when ten answers in a row took it
            in_a_row = 0
            while in_a_row < 10 and time.monotonic() < deadline:
                path = self.large_owner_path()
                in_a_row = in_a_row + 1 if path == "approximate" else 0
                if not in_a_row:
                    time.sleep(5)
        else:
            exact = None
            print(f"   the large owner is already on the {path} path: no exact figures, no recall", flush=True)
        if path != "approximate":
            report["approximate"] = None
            print("   the approximate path never came: not measured", flush=True)
            return report
        approximate, report["approximate"] = self.large_owner_searches(queries, 1)
        _, report["approximate_clients"] = self.large_owner_searches(queries, max(1, min(clients * 5, 10)))
        if exact is not None:
            shares = [len(set(a["ids"]) & set(e["ids"])) / len(e["ids"]) for a, e in zip(approximate, exact)
                      if e and a and e.get("ids") and "ids" in a]
            report["recall_at_10"] = round(sum(shares) / len(shares), 4) if shares else None
            report["recall_queries"] = len(shares)
            report["approximate_paths"] = sorted({p for a in approximate if a for p in a.get("paths", [])})
        print(f"   large owner approximate {json.dumps({k: v for k, v in report.items() if k != 'ingest'})}",
              flush=True)
        return report

    # ---- load ---------------------------------------------------------------------------------------
    def ensure_turn_sessions(self) -> None:
        """A second session for each context user, so the appended turns do not grow the context's windows."""
        for user_id in self.sessions:
            if user_id not in self.turn_sessions:
                session_id = f"{user_id}-s-turns"
                self.client.post("/api/v1/sessions", {"session_id": session_id, "user_id": user_id})
                self.turn_sessions[user_id] = session_id

    def jobs(self, kind: str, rng: random.Random, count: int) -> list[tuple[str, dict]]:
        pool_users = self.users if kind == "search" else list(self.sessions)
        jobs = []
        for _ in range(count):
            user_id = rng.choice(pool_users)
            query = random_query(rng)
            if kind == "search":
                jobs.append(("/api/v1/memories/search", {"user_id": user_id, "query": query, "top_k": 10}))
            elif kind == "turns":  # one user turn per append, as a chat client sends them
                jobs.append((f"/api/v1/sessions/{self.turn_sessions[user_id]}/turns", {"turns": [
                    {"role": "user", "content": query, "client_id": f"t-{rng.getrandbits(64):016x}"}]}))
            else:
                jobs.append(("/api/v1/context", {"user_id": user_id, "session_id": self.sessions[user_id],
                                                 "query": query, "token_budget": 1500}))
        return jobs

    def measure(self, kind: str, clients: int, requests: int) -> dict:
        rng = random.Random(f"{self.run_id}-{self.seed}-{kind}-{clients}-{len(self.users)}")
        jobs = self.jobs(kind, rng, requests)
        # queries the measured run will not repeat (the service caches query embeddings)
        measured_queries = {_job_text(body) for _, body in jobs}
        warm_up = [job for job in self.jobs(kind, rng, 3 * WARM_UP_PER_CLIENT * clients)
                   if _job_text(job[1]) not in measured_queries][:WARM_UP_PER_CLIENT * clients]
        latencies: list[float] = []
        errors: dict[str, int] = {}
        lock = threading.Lock()

        def one(job):
            path, body = job
            try:
                _, elapsed = self.client.post(path, body)
            except ApiError as exc:
                key = f"HTTP {exc.status}"
            except OSError as exc:
                key = type(exc).__name__
            else:
                with lock:
                    latencies.append(elapsed)
                return
            with lock:
                errors[key] = errors.get(key, 0) + 1

        with ThreadPoolExecutor(max_workers=clients) as pool:
            # Unrecorded warm-up: every client opens its connection and every server worker has served a
            # request before the clock starts (a cold start is not the steady state this reports).
            list(pool.map(lambda job: self._quietly(*job), warm_up))
            load_before = _loadavg()
            started = time.perf_counter()
            list(pool.map(one, jobs))
            seconds = time.perf_counter() - started
        # The machine's 1-minute load average around the measurement: other work on a shared box shows here.
        return {"clients": clients, "requests": requests, "ok": len(latencies), "loadavg_1m": [load_before, _loadavg()],
                "errors": sum(errors.values()), "error_kinds": errors,
                "p50_ms": _r(percentile(latencies, 50)), "p95_ms": _r(percentile(latencies, 95)),
                "p99_ms": _r(percentile(latencies, 99)),
                "throughput_per_s": round(len(latencies) / seconds, 1) if seconds else None}

    def _quietly(self, path: str, body: dict) -> None:
        try:
            self.client.post(path, body)
        except (ApiError, OSError):
            pass  # the measured run that follows counts errors


def _loadavg():
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # not available on this platform
        return None


def _job_text(body: dict) -> str:
    return body["query"] if "query" in body else body["turns"][0]["content"]


def _last_json_line(text: str) -> dict | None:
    for line in reversed((text or "").splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _r(value):
    return None if value is None else round(value, 2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--api-key", help="API key with write scope (default $MEMORYHUB_API_KEY)")
    parser.add_argument("--sizes", default="10000,100000", help="cumulative total memories to reach")
    parser.add_argument("--with-1m", action="store_true", help="also reach 1,000,000 memories (slow)")
    parser.add_argument("--clients", default="1,30", help="concurrent clients for search/context")
    parser.add_argument("--requests", type=int, default=0,
                        help="requests per measurement (default 300 for 1 client, 50 per client otherwise)")
    parser.add_argument("--ingest-clients", type=int, default=2)
    parser.add_argument("--context-users", type=int, default=50, help="users given a session for /context")
    parser.add_argument("--no-context", action="store_true", help="measure neither context nor turn appends")
    parser.add_argument("--no-turns", action="store_true", help="do not measure turn appends")
    parser.add_argument("--json", help="write the figures to this path")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes and request counts")
    parser.add_argument("--reuse", metavar="RUN_ID",
                        help="measure on the users an earlier run (this RUN_ID, printed at its start) already "
                             "wrote, ingesting only what is missing to reach each size")
    parser.add_argument("--large-owner", type=int, default=0, metavar="N",
                        help="also measure one owner with N memories: the exact scan, then (once the large-owner "
                             "indexes are built) the approximate path, with recall@10 against the exact answers")
    parser.add_argument("--large-owner-wait", type=float, default=1800.0,
                        help="seconds to wait for the large owner's approximate path")
    parser.add_argument("--large-owner-only", action="store_true", help="skip the sizes; measure the large owner")
    parser.add_argument("--import-command", metavar="CMD",
                        help="reach each size through a bulk import instead of POST /api/v1/memories: the same "
                             "memories are written as JSON Lines files and CMD is run on each, {file} and {tenant} "
                             "filled in, e.g. '.venv/bin/python manage.py import_memories {file} --tenant {tenant} "
                             "--no-progress' (searches and contexts are then measured through HTTP as always)")
    parser.add_argument("--ingest-only", action="store_true",
                        help="reach the sizes and measure nothing (measure later with --reuse RUN_ID)")
    parser.add_argument("--tenant", help="the API key's tenant slug, for {tenant} in --import-command")
    parser.add_argument("--import-chunk", type=int, default=100_000,
                        help="lines per import file (whole users; one command run per file)")
    parser.add_argument("--import-jobs", type=int, default=1, help="import files run at a time")
    parser.add_argument("--import-dir", help="where the import files are written (default: the temp directory)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args(argv)
    if args.import_command and "{tenant}" in args.import_command and not args.tenant:
        parser.error("--import-command uses {tenant}: give --tenant")

    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()} | ({1_000_000} if args.with_1m else set()))
    clients = [int(c) for c in args.clients.split(",") if c.strip()]
    if args.smoke:
        sizes, clients = [300], [1, 4]
    client = Client(args.base_url, resolve_api_key(args.api_key), timeout=args.timeout)
    client.wait_healthy()
    run_id = args.reuse or time.strftime("%Y%m%d%H%M%S") + "-" + uuid.uuid4().hex[:6]
    run = Run(client, run_id, args.seed)
    if args.reuse:
        run.adopt_existing(max(1, args.import_chunk // PER_USER) if args.import_command else 0)
    print(f"run {run_id}", flush=True)
    report: dict = {"run_id": run_id, "per_user": PER_USER, "sizes": {}}
    failed = False
    for size in [] if args.large_owner_only else sizes:
        print(f"== size {size}: ingesting ...", flush=True)
        if args.import_command:
            ingest = run.import_to(size, args.import_command, args.tenant, args.import_chunk, args.import_dir,
                                   args.import_jobs)
        else:
            ingest = run.ingest_to(size, args.ingest_clients)
        print(f"   ingest {json.dumps(ingest)}", flush=True)
        entry = {"ingest": ingest, "users": len(run.users), "search": [], "context": []}
        if args.ingest_only:
            report["sizes"][str(size)] = entry
            failed |= ingest["errors"] > 0
            continue
        if ingest["errors"] and not run.users:
            print("   no users to measure", flush=True)
            report["sizes"][str(size)] = entry
            failed = True
            break
        if not args.no_context and not run.context_available():
            print("   /api/v1/context (or /api/v1/sessions) is not served by this build: context not measured",
                  flush=True)
            args.no_context = True
            report["context_unavailable"] = True
        if not args.no_context:
            try:
                run.ensure_sessions(min(args.context_users, len(run.users)))
            except (ApiError, OSError) as exc:
                print(f"   could not prepare sessions for /api/v1/context ({exc}): context not measured", flush=True)
                args.no_context = True
                report["context_unavailable"] = str(exc)[:300]
                failed = True
        for c in clients:
            n = args.requests or (20 if args.smoke else (300 if c == 1 else 50 * c))
            result = run.measure("search", c, n)
            print(f"   search  {json.dumps(result)}", flush=True)
            entry["search"].append(result)
            if not args.no_context:
                result = run.measure("context", c, n)
                print(f"   context {json.dumps(result)}", flush=True)
                entry["context"].append(result)
        if not args.no_context and not args.no_turns:
            # turn append (issue 16: p95 <= 10 ms), one client, after the context phases so their sessions
            # stay as they were
            run.ensure_turn_sessions()
            entry["turns"] = run.measure("turns", 1, args.requests or (20 if args.smoke else 300))
            print(f"   turns   {json.dumps(entry['turns'])}", flush=True)
        failed |= ingest["errors"] > 0 or any(r["errors"] for r in entry["search"] + entry["context"]
                                              + ([entry["turns"]] if "turns" in entry else []))
        report["sizes"][str(size)] = entry
    if args.large_owner:
        print(f"== large owner: {args.large_owner} memories", flush=True)
        report["large_owner"] = run.measure_large_owner(args.large_owner, args.ingest_clients,
                                                        args.requests or 100, args.large_owner_wait)
        failed |= not report["large_owner"].get("approximate")
    if args.smoke:
        for user_id in run.users:
            try:
                client.request("DELETE", f"/api/v1/users/{user_id}")
            except (ApiError, OSError) as exc:
                print(f"  cleanup skipped (DELETE /api/v1/users/...: {exc})", file=sys.stderr)
                break
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
