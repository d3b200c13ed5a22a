"""Train the learned recall back-up (layers/formation/extractor/learned.py).

    .venv/bin/python -m layers.formation.extractor.learned_train            # train on all of dev, write the model

Cross-validation and the test-part figures live beside the fact-corpus scorer, whose matcher they use
(tests/layers/formation/learned_eval.py, `--cv` / `--test`).

Training reads the dev part only (facts_dev*.yaml). It is deterministic: the files in sorted order, the
cases in file order, fixed L-BFGS settings, so the same data writes the same model file.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

from layers.formation.extractor import learned

CORPORA = Path(__file__).resolve().parents[3] / "tests" / "layers" / "formation" / "corpora"
PARAMS = {"c1": 0.05, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True,
          "feature.minfreq": 1}


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
