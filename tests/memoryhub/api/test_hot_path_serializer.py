"""Input serializers that reuse their fields per thread must validate each request on its own."""
import threading

from rest_framework import serializers

from memoryhub.api.serializers import HotPathInputSerializer


class _Search(HotPathInputSerializer):
    query = serializers.CharField(max_length=20)
    top_k = serializers.IntegerField(min_value=1, max_value=5, default=3)
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=["fact", "event"]), required=False)


def _validate(data):
    serializer = _Search(data=data)
    ok = serializer.is_valid()
    return serializer, ok


def test_fields_are_built_once_per_thread_and_point_at_the_serializer_in_use():
    first, _ = _validate({"query": "a"})
    second, _ = _validate({"query": "b"})
    assert first.fields is second.fields  # built once, not deep-copied per request
    assert all(field.parent is second and field.root is second for field in second.fields.values())
    assert second.fields.serializer is second


def test_each_validation_sees_only_its_own_data_and_errors():
    bad, ok = _validate({"query": "x" * 21, "top_k": 9, "kinds": ["fact", "opinion"]})
    assert not ok and set(bad.errors) == {"query", "top_k", "kinds"}
    good, ok = _validate({"query": "peanuts", "kinds": ["event"]})
    assert ok and good.validated_data == {"query": "peanuts", "top_k": 3, "kinds": ["event"]}
    assert good.errors == {}
    # the earlier serializer's errors are still its own
    assert set(bad.errors) == {"query", "top_k", "kinds"}
    defaults, ok = _validate({"query": "again"})
    assert ok and defaults.validated_data == {"query": "again", "top_k": 3}


def test_threads_get_their_own_fields():
    seen = {}

    def run(name, query):
        serializer, ok = _validate({"query": query})
        seen[name] = (serializer.fields, ok, serializer.validated_data["query"])

    threads = [threading.Thread(target=run, args=(f"t{i}", f"q{i}")) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [seen[f"t{i}"][1:] for i in range(3)] == [(True, f"q{i}") for i in range(3)]
    assert len({id(fields) for fields, _, _ in seen.values()}) == 3
