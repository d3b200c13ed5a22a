"""The OpenAPI schema documents the permanent and user endpoints without generator warnings."""
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

OURS = ("permanent", "users/", "changerequest", "usererase", "userexport", "layers/erasure")


def test_our_endpoints_are_in_the_schema_without_warnings():
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    messages = list(GENERATOR_STATS._warn_cache) + list(GENERATOR_STATS._error_cache)
    assert [m for m in messages if any(part in m.lower() for part in OURS)] == []
    paths = schema["paths"]
    for path in ("/api/v1/permanent", "/api/v1/permanent/{key}", "/api/v1/permanent/change-requests",
                 "/api/v1/permanent/change-requests/{change_request_id}",
                 "/api/v1/permanent/change-requests/{change_request_id}/withdraw",
                 "/api/v1/users/{user_id}", "/api/v1/users/{user_id}/export"):
        assert path in paths, path
    assert paths["/api/v1/permanent/{key}"]["get"]["operationId"] == "permanent_get"
