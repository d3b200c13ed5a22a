"""Cross-validate and measure the learned recall back-up (layers/formation/extractor/learned.py) with the
fact-corpus test's own matcher; training itself is layers/formation/extractor/learned_train.py.

    .venv/bin/python -m tests.layers.formation.learned_eval --cv       # hold out each dev batch file in turn
    .venv/bin/python -m tests.layers.formation.learned_eval --cv --write   # ... then write the keys and the model
    .venv/bin/python -m tests.layers.formation.learned_eval --nested   # choose the keys inside each training part
    .venv/bin/python -m tests.layers.formation.learned_eval --test     # the test part, figures only

`--cv` trains one model per fold of held-out batch files on all the other dev files and scores the rules alone
and the rules with the back-up, every eligible key on, on the held-out files only; the per-key counts are the
evidence learned_train.choose_keys reads, and `--write` writes the keys it chooses and the model trained on all
of dev. `--nested` scores that choice honestly: inside each outer fold's training files an inner
cross-validation gathers the counts, the rule chooses, and the held-out files are scored with those keys only.
`--test` scores the test part with the committed model and keys and prints the per-family figures, never a case.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

from layers.formation.extractor import learned  # noqa: E402
from layers.formation.extractor.learned_train import (  # noqa: E402
    choose_keys, dev_files, read_cases, train, write_backup_keys,
)
from tests.layers.formation.fact_corpus import family, load, matches, precision_recall, predict  # noqa: E402

FOLDS = 6  # cross-validation folds, each a set of whole dev batch files
INNER_FOLDS = 3  # nested cross-validation: folds inside each outer training part


def _tagger(model_path: Path):
    import pycrfsuite

    tagger = pycrfsuite.Tagger()
    tagger.open(str(model_path))
    return tagger


def count(cases: list[dict], *, backup: bool, tagger=None, keys=None, added: list | None = None) -> dict[str, list[int]]:
    """{family: [tp, fp, fn]} over `cases`, matched as the fact-corpus test matches, the back-up writing `keys`
    (None: the chosen ones). `added` collects (right, key, value, text) for every item the back-up made."""
    families: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    with learned.backup_forced(backup), (learned.using_tagger(tagger, keys) if tagger else _nothing()):
        for case in cases:
            items = predict(case)
            unused = list(items)
            for fact in case["facts"]:
                hit = next((item for item in unused if matches(fact, item)), None)
                families[family(fact["key"])][0 if hit else 2] += 1
                if hit:
                    unused.remove(hit)
            for item in unused:
                families[family(item.memory_key)][1] += 1
            if added is not None:
                added.extend((item not in unused, item.memory_key, f"{item.value} ({item.confidence / 0.6:.2f})", case["text"])
                             for item in items if item.attributes.get("learned"))
    return families


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _add(into: dict, more: dict) -> None:
    for name, counts in more.items():
        into.setdefault(name, [0, 0, 0])
        for i in range(3):
            into[name][i] += counts[i]


def _pr(counts) -> tuple[float, float, float]:
    """(precision, recall, F1) of [tp, fp, fn]."""
    p, r = precision_recall(*counts)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _total(families: dict) -> list[int]:
    return [sum(c[i] for c in families.values()) for i in range(3)]


def report(title: str, rules: dict, backup: dict) -> None:
    print(f"\n{title}")
    print(f"{'family':<20}{'rules P':>9}{'R':>7}{'backup P':>10}{'R':>7}{'facts':>7}")
    for name in sorted(set(rules) | set(backup)):
        a, b = rules.get(name, [0, 0, 0]), backup.get(name, [0, 0, 0])
        print(f"{name:<20}{_pr(a)[0]:>9.3f}{_pr(a)[1]:>7.3f}{_pr(b)[0]:>10.3f}{_pr(b)[1]:>7.3f}{a[0] + a[2]:>7}")
    (p0, r0, f0), (p1, r1, f1) = _pr(_total(rules)), _pr(_total(backup))
    print(f"{'ALL':<20}{p0:>9.3f}{r0:>7.3f}{p1:>10.3f}{r1:>7.3f}{sum(_total(rules)[i] for i in (0, 2)):>7}")
    print(f"F1 rules {f0:.3f} -> with back-up {f1:.3f}")


def _by_key(added: list) -> dict[str, list[int]]:
    by_key: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for right, key, _, _ in added:
        by_key[key][0 if right else 1] += 1
    return dict(by_key)


def _report_added(added: list, *, show: bool) -> None:
    by_key = _by_key(added)
    print(f"back-up items: {len(added)}, right {sum(1 for a in added if a[0])}; by key (right/wrong): "
          + ", ".join(f"{key.removeprefix('user.')} {r}/{w}" for key, (r, w) in sorted(by_key.items())))
    if show:  # dev cases only: --cv --show lists them for reading
        for right, key, value, text in added:
            print(f"  {'ok ' if right else 'BAD'} {key}={value!r} | {text}")


def _rules_precision(rules: dict) -> dict[str, float]:
    """The rules' precision per eligible key (one key per family among them), from {family: [tp, fp, fn]}."""
    out = {}
    for key in learned.ELIGIBLE_KEYS:
        tp, fp, _ = rules.get(family(key), [0, 0, 0])
        out[key] = tp / (tp + fp) if tp + fp else 1.0
    return out


def _choice(added: list, rules: dict) -> tuple[list[str], dict[str, dict]]:
    """The keys learned_train.choose_keys picks from cross-validated back-up items and the rules' counts on the
    same cases, with the evidence per eligible key."""
    by_key, precision = _by_key(added), _rules_precision(rules)
    evidence = {key: {"right": by_key.get(key, [0, 0])[0], "wrong": by_key.get(key, [0, 0])[1],
                      "rules_precision": round(precision[key], 3)} for key in sorted(learned.ELIGIBLE_KEYS)}
    return choose_keys(by_key, precision), evidence


def _folds(files: list[Path], folds: int) -> list[list[Path]]:
    """Every `folds`-th file in sorted order, so each fold holds several batches of both languages."""
    return [files[fold::folds] for fold in range(folds)]


def _fold_tagger(cases: list[dict], folder: str, name: str):
    model = Path(folder) / f"{name}.crfsuite"
    train(cases, model)
    return _tagger(model)


def cross_validate(folds: int = FOLDS, *, show: bool = False, write: bool = False) -> None:
    """Each fold holds out whole batch files: the tagger scored on a batch never saw a case of it. Every
    eligible key is on, so the counts are the evidence the keys are chosen by; `write` writes the keys
    chosen from them and the model trained on all of dev."""
    files = dev_files()
    by_file = {path: read_cases(path) for path in files}
    rules_all: dict = {}
    backup_all: dict = {}
    added: list = []
    for held in _folds(files, folds):
        others = [case for path in files if path not in held for case in by_file[path]]
        scored = [case for path in held for case in by_file[path]]
        with tempfile.TemporaryDirectory() as folder:
            tagger = _fold_tagger(others, folder, "fold")
            rules = count(scored, backup=False)
            backup = count(scored, backup=True, tagger=tagger, keys=learned.ELIGIBLE_KEYS, added=added)
        _add(rules_all, rules)
        _add(backup_all, backup)
        (p0, r0, _), (p1, r1, _) = _pr(_total(rules)), _pr(_total(backup))
        names = ", ".join(path.stem.removeprefix("facts_") for path in held)
        print(f"fold ({names}): rules {p0:.3f}/{r0:.3f}  with back-up {p1:.3f}/{r1:.3f}", flush=True)
    report("cross-validated over held-out dev batch files, every eligible key on", rules_all, backup_all)
    _report_added(added, show=show)
    keys, evidence = _choice(added, rules_all)
    print(f"chosen by learned_train.choose_keys: {keys}")
    if write:
        write_backup_keys(keys, evidence)
        every = [case for path in files for case in by_file[path]]
        spans = train(every, learned.MODEL_PATH)
        print(f"wrote {learned.KEYS_PATH.name} and {learned.MODEL_PATH.name} ({spans} spans, "
              f"{learned.MODEL_PATH.stat().st_size} bytes)")


def nested_cross_validate(folds: int = FOLDS, inner: int = INNER_FOLDS) -> None:
    """The rule's own test: in each outer fold the keys are chosen from an inner cross-validation over the
    training files only (models trained on inner training files, items scored on inner held-out files, the
    rules' precision over the same files), then the held-out files are scored with those keys."""
    files = dev_files()
    by_file = {path: read_cases(path) for path in files}
    rules_of = {path: count(by_file[path], backup=False) for path in files}  # the rules do not depend on the fold
    rules_all: dict = {}
    backup_all: dict = {}
    chosen_per_fold = []
    for held in _folds(files, folds):
        training = [path for path in files if path not in held]
        inner_added: list = []
        inner_rules: dict = {}
        with tempfile.TemporaryDirectory() as folder:
            for number, inner_held in enumerate(_folds(training, inner)):
                fit = [case for path in training if path not in inner_held for case in by_file[path]]
                tagger = _fold_tagger(fit, folder, f"inner{number}")
                count([case for path in inner_held for case in by_file[path]], backup=True, tagger=tagger,
                      keys=learned.ELIGIBLE_KEYS, added=inner_added)
            for path in training:
                _add(inner_rules, rules_of[path])
            keys, _ = _choice(inner_added, inner_rules)
            tagger = _fold_tagger([case for path in training for case in by_file[path]], folder, "outer")
            scored = [case for path in held for case in by_file[path]]
            outer_added: list = []
            backup = count(scored, backup=True, tagger=tagger, keys=keys, added=outer_added)
        rules: dict = {}
        for path in held:
            _add(rules, rules_of[path])
        _add(rules_all, rules)
        _add(backup_all, backup)
        chosen_per_fold.append(keys)
        (p0, r0, _), (p1, r1, _) = _pr(_total(rules)), _pr(_total(backup))
        items = _by_key(outer_added)
        print(f"fold ({', '.join(path.stem.removeprefix('facts_') for path in held)}): chose "
              f"{[k.removeprefix('user.') for k in keys]}; held-out items "
              f"{ {k.removeprefix('user.'): tuple(v) for k, v in sorted(items.items())} }; "
              f"rules {p0:.3f}/{r0:.3f}  with back-up {p1:.3f}/{r1:.3f}", flush=True)
    report("nested cross-validation: keys chosen inside each training part, scored on its held-out files",
           rules_all, backup_all)


def measure_test_part() -> None:
    cases = load("test")
    count(cases, backup=False)  # a first pass warms jieba, the regexes and the tag caches for both timings
    started = time.perf_counter()
    rules = count(cases, backup=False)
    middle = time.perf_counter()
    learned._load_tagger()
    loaded = time.perf_counter()
    added: list = []
    backup = count(cases, backup=True, added=added)
    ended = time.perf_counter()
    report("test part (model trained on all of dev)", rules, backup)
    _report_added(added, show=False)
    print(f"ms per utterance (warm): rules {1000 * (middle - started) / len(cases):.2f}, "
          f"with back-up {1000 * (ended - loaded) / len(cases):.2f}; model load {1000 * (loaded - middle):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cv", action="store_true", help="cross-validate, holding out each dev batch file")
    parser.add_argument("--test", action="store_true", help="score the test part (figures only)")
    parser.add_argument("--show", action="store_true", help="with --cv: list the back-up's items on dev")
    parser.add_argument("--write", action="store_true", help="with --cv: write the chosen keys and the model")
    parser.add_argument("--nested", action="store_true", help="choose the keys inside each training fold")
    args = parser.parse_args(argv)
    import django

    django.setup()
    if args.test:
        measure_test_part()
    elif args.nested:
        nested_cross_validate()
    else:
        cross_validate(show=args.show, write=args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
