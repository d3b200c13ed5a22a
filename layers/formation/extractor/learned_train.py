"""Train the learned recall back-up (layers/formation/extractor/learned.py).

    .venv/bin/python -m layers.formation.extractor.learned_train            # train on all of dev, write the model

Which keys the back-up may write is decided by `choose_keys` below, a rule fixed before it was first run:
a key is chosen when its back-up items, cross-validated over held-out dev batch files, number at least
MIN_BACKUP_ITEMS and are right at least as often as the rules' own items of that key (precision of the
back-up's items >= the rules' precision), so a chosen key adds recall without lowering its precision. The
scoring needs the fact-corpus matcher, which lives with the tests (production code imports no test), so
tests/layers/formation/learned_eval.py `--cv --write` gathers the counts, calls `choose_keys` and
`write_backup_keys` and trains the model; `--nested` checks the rule itself, choosing inside each training
part and scoring the held-out part. Training alone (this module's main) keeps the keys file as it is.

Measured at 50f0948 (41 dev files, 4101 facts, 6 outer folds of 3 inner): the rule chose health_conditions,
hometown or contact_preference, one or two per fold, and the held-out files got 3 back-up items, all right
(rules 0.951/0.883 -> 0.951/0.884). With every eligible key on, the same folds gave 39 items, 25 right
(0.951/0.883 -> 0.948/0.889): the keys left out are those whose spans were wrong about as often as right.

Training reads the dev part only (facts_dev*.yaml). It is deterministic: the files in sorted order, the
cases in file order, fixed L-BFGS settings, so the same data writes the same model file.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import yaml

from layers.formation.extractor import learned

CORPORA = Path(__file__).resolve().parents[3] / "tests" / "layers" / "formation" / "corpora"
PARAMS = {"c1": 0.05, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True,
          "feature.minfreq": 1}


MIN_BACKUP_ITEMS = 3  # fewer cross-validated items than this are no evidence either way


def choose_keys(backup: dict[str, list[int]], rules_precision: dict[str, float]) -> list[str]:
    """The eligible keys whose back-up items ({key: [right, wrong]}) number at least MIN_BACKUP_ITEMS and are
    right at least as often as the rules' items of the key ({key: precision}; a key the rules never wrote
    counts as 1.0, so its back-up must make no mistake)."""
    chosen = []
    for key in sorted(learned.ELIGIBLE_KEYS):
        right, wrong = backup.get(key, [0, 0])
        if right + wrong >= MIN_BACKUP_ITEMS and right / (right + wrong) >= rules_precision.get(key, 1.0):
            chosen.append(key)
    return chosen


def write_backup_keys(keys: list[str], evidence: dict[str, dict], path: Path = learned.KEYS_PATH) -> None:
    """Write the chosen keys and, per eligible key, the evidence they were chosen by (sorted, so the same
    counts write the same file)."""
    payload = {"rule": f"back-up items >= {MIN_BACKUP_ITEMS} and their precision >= the rules' precision for the key "
                       "(learned_train.choose_keys), cross-validated over held-out dev batch files",
               "keys": sorted(keys), "evidence": {key: evidence[key] for key in sorted(evidence)}}
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def dev_files() -> list[Path]:
    return sorted(CORPORA.glob("facts_dev*.yaml"))


def read_cases(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)["cases"]


def train(cases: list[dict], model_path: Path) -> int:
    """Train on `cases` and write the model to `model_path`; returns the number of spans learned from."""
    import pycrfsuite

    trainer = pycrfsuite.Trainer(verbose=False)
    trainer.set_params(PARAMS)
    spans = 0
    for case in cases:
        labels = learned.bio_labels(case["text"], case.get("facts") or [])
        if labels is None:
            continue
        spans += sum(1 for label in labels if label.startswith("B-"))
        trainer.append(learned.features(learned.tokens(case["text"])), labels)
    trainer.train(str(model_path))
    return spans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=learned.MODEL_PATH, help="where to write the model")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    cases = [case for path in dev_files() for case in read_cases(path)]
    spans = train(cases, args.out)
    print(f"trained on {len(cases)} dev utterances ({spans} value spans) in {time.perf_counter() - started:.1f} s; "
          f"{args.out} {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
