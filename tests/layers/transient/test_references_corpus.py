"""Reference resolution on the labelled corpus (tests/layers/transient/corpora/REFERENCES.md): the
offline resolver of layers/transient/references/, scored as the corpus suggests. The dev part was
tuned on; the test part is only ever scored (its cases are not printed)."""
from tests.layers.transient.references_scoring import evaluate, report

# What the resolver reaches on the held-back part today; the target is 0.85 (docs/benchmarks.md).
TEST_ACCURACY_FLOOR = 0.83


def test_dev_part_accuracy(capsys):
    result = evaluate("dev")
    with capsys.disabled():
        print("\n" + report("dev", result))
    assert result["accuracy"] >= 0.9
    assert result["null_false_positive_rate"] <= 0.1


def test_second_dev_file_accuracy(capsys):
    # references_dev_more.yaml: dev cases written for issue 14's families (ordinals, 这台/这款, 上次那家,
    # zh zero anaphora, colours and prices said after the name); dev only, the test part is unchanged.
    result = evaluate("dev_more")
    with capsys.disabled():
        print("\n" + report("dev_more", result))
    assert result["accuracy"] >= 0.9
    assert result["null_false_positive_rate"] <= 0.1


def test_blind_dev_batch_accuracy(capsys):
    # references_dev_blind.yaml: 64 dev cases written before reading the resolver's rules, scored first at
    # 48/64 (REFERENCES.md), 58/64 after the ranking rules it led to, 64/64 after the third round; dev only.
    result = evaluate("dev_blind")
    with capsys.disabled():
        print("\n" + report("dev_blind", result))
    assert result["cases"] == 64
    assert result["accuracy"] >= 0.99
    assert result["null_false_positive_rate"] <= 0.1


def test_probe_dev_batch_accuracy(capsys):
    # references_dev_probe.yaml: 40 dev cases (attribute, demonstrative_place; English first) written after the
    # rules were read, scored first at 28/40 (REFERENCES.md); dev only.
    result = evaluate("dev_probe")
    with capsys.disabled():
        print("\n" + report("dev_probe", result))
    assert result["cases"] == 40
    assert result["accuracy"] >= 0.95


def test_attribute_dev_batch_accuracy(capsys):
    # references_dev_attributes.yaml: 22 attribute dev cases for the families REFERENCES.md lists, written after
    # the rules were read, scored first at 14/22 (REFERENCES.md); dev only.
    result = evaluate("dev_attributes")
    with capsys.disabled():
        print("\n" + report("dev_attributes", result))
    assert result["cases"] == 22
    assert result["accuracy"] >= 0.99


def test_places_dev_batch_accuracy(capsys):
    # references_dev_places.yaml: 18 demonstrative_place dev cases, written after the rules were read, scored
    # first at 11/18 (REFERENCES.md); dev only.
    result = evaluate("dev_places")
    with capsys.disabled():
        print("\n" + report("dev_places", result))
    assert result["cases"] == 18
    assert result["accuracy"] >= 0.95


def test_agreement_dev_batch_accuracy(capsys):
    # references_dev_agreement.yaml: 18 dev cases (plural and gender agreement, the request's object against an
    # aside of the answer, nulls), written after the rules were read, scored first at 17/18 (REFERENCES.md).
    result = evaluate("dev_agreement")
    with capsys.disabled():
        print("\n" + report("dev_agreement", result))
    assert result["cases"] == 18
    assert result["accuracy"] >= 0.95


def test_longer_dev_batch_accuracy(capsys):
    # references_dev_longer.yaml: 20 longer dev conversations with several entities of a kind, written after the
    # rules were read, scored first at 17/20 (REFERENCES.md); dev only.
    result = evaluate("dev_longer")
    with capsys.disabled():
        print("\n" + report("dev_longer", result))
    assert result["cases"] == 20
    assert result["accuracy"] >= 0.95


def test_words_dev_batch_accuracy(capsys):
    # references_dev_words.yaml: 16 dev cases for the referring words the other dev files use least (这两样, 这俩,
    # those two, the other one, 那儿, 这家), written after the rules were read, scored first at 11/16.
    result = evaluate("dev_words")
    with capsys.disabled():
        print("\n" + report("dev_words", result))
    assert result["cases"] == 16
    assert result["accuracy"] >= 0.99


def test_nulls_dev_batch_accuracy(capsys):
    # references_dev_nulls.yaml: 14 dev cases (nulls with wrong-kind entities present, distractors the predicate
    # rules out), written after the rules were read, scored first at 11/14 (REFERENCES.md); dev only.
    result = evaluate("dev_nulls")
    with capsys.disabled():
        print("\n" + report("dev_nulls", result))
    assert result["cases"] == 14
    assert result["accuracy"] >= 0.95


def test_last_time_dev_batch_accuracy(capsys):
    # references_dev_last_time.yaml: 6 dev cases, "上次那家" / "the same place" for the place booked or ordered
    # from before, against places suggested since; written after the rules were read, scored first at 1/6.
    result = evaluate("dev_last_time")
    with capsys.disabled():
        print("\n" + report("dev_last_time", result))
    assert result["cases"] == 6
    assert result["accuracy"] >= 0.99


def test_short_dev_batch_accuracy(capsys):
    # references_dev_short.yaml: 10 two-turn dev cases (attribute, demonstrative_place; English and mixed), written
    # after the rules were read, scored first at 6/10 (REFERENCES.md); dev only.
    result = evaluate("dev_short")
    with capsys.disabled():
        print("\n" + report("dev_short", result))
    assert result["cases"] == 10
    assert result["accuracy"] >= 0.85


def test_round3_dev_batch_accuracy(capsys):
    # references_dev_round3.yaml: 30 dev cases (attribute, demonstrative_place, recency, plural: participles, distances,
    # venue vs area predicates, "the usual place", collectives named with siblings), written after the rules were
    # read, scored first at 23/30 (docs/benchmarks.md); dev only.
    result = evaluate("dev_round3")
    with capsys.disabled():
        print("\n" + report("dev_round3", result))
    assert result["cases"] == 30
    assert result["accuracy"] >= 0.95


def test_round4_dev_batch_accuracy(capsys):
    # references_dev_round4.yaml: 24 dev cases (distance comparatives, ordinals over answer lists, 它们 over three
    # members, kin + name, a part said as what a thing has, "turn it on" with nothing that switches), written after
    # the rules were read, scored first at 9/24 (docs/benchmarks.md); dev only.
    result = evaluate("dev_round4")
    with capsys.disabled():
        print("\n" + report("dev_round4", result))
    assert result["cases"] == 24
    assert result["accuracy"] >= 0.95
    assert result["null_false_positive_rate"] <= 0.1


def test_round5_dev_batch_accuracy(capsys):
    # references_dev_round5.yaml: 12 dev cases (salience against an alternative or an aside the answer adds last),
    # written after the rules were read, scored first at 9/12 (docs/benchmarks.md); dev only.
    result = evaluate("dev_round5")
    with capsys.disabled():
        print("\n" + report("dev_round5", result))
    assert result["cases"] == 12
    assert result["accuracy"] >= 0.9


def test_round6_dev_batch_accuracy(capsys):
    # references_dev_round6.yaml: 6 dev cases (那边 / there for the city or the spot the user named, against the
    # sights and restaurants suggested in it), written after the rules were read, scored first at 3/6; dev only.
    result = evaluate("dev_round6")
    with capsys.disabled():
        print("\n" + report("dev_round6", result))
    assert result["cases"] == 6
    assert result["accuracy"] >= 0.99


def test_test_part_accuracy(capsys):
    result = evaluate("test")
    with capsys.disabled():
        print("\n" + report("test", result))
    assert result["cases"] == 81
    assert result["accuracy"] >= TEST_ACCURACY_FLOOR
    assert result["null_false_positive_rate"] <= 0.2
