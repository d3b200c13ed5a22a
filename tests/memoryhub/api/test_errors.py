"""Every 4xx has the error format; malformed bodies are 400 and oversized ones 413, never 500."""
import json

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db
echo_urls = override_settings(ROOT_URLCONF="tests.memoryhub.api.echo_urls")


def _assert_error(response, status, code=None):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    if code:
        assert body["error"]["code"] == code
    return body["error"]


def test_unknown_api_path_is_json_404(api):
    _assert_error(api.get("/api/v1/no-such-thing"), 404, "not_found")


def test_method_not_allowed(api):
    _assert_error(api.delete("/api/v1/whoami"), 405, "method_not_allowed")


def test_request_id_is_echoed_or_made(api):
    response = api.get("/api/v1/whoami", HTTP_X_REQUEST_ID="req-123")
    assert response["X-Request-ID"] == "req-123"
    response = api.get("/api/v1/whoami", HTTP_X_REQUEST_ID="bad id with spaces")
    assert response["X-Request-ID"] != "bad id with spaces" and len(response["X-Request-ID"]) == 32


@pytest.mark.parametrize("raw, fragment", [
    (b"{not json", "malformed JSON"),
    (b'{"a": "\\u0000"}', "NUL"),
    (b'{"a\\u0000": 1}', "NUL"),
    (b'{"a": ["ok", "\\ud800"]}', "surrogate"),
    (b'{"a": NaN}', "NaN"),
    (b"\xff\xfe", "UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "nested"),
    (b"", "empty"),
])
def test_malformed_bodies_are_400(api, raw, fragment):
    import io

    from rest_framework.exceptions import ParseError

    from memoryhub.api.parsers import StrictJSONParser

    with pytest.raises(ParseError, match=fragment):
        StrictJSONParser().parse(io.BytesIO(raw))


@echo_urls
def test_malformed_body_through_http_is_400_error_format(api):
    response = api.generic("POST", "/api/v1/test-echo", b'{"x": "\\u0000"}', content_type="application/json")
    _assert_error(response, 400, "malformed_request")


def test_nul_in_query_or_path_is_400(api):
    _assert_error(api.get("/api/v1/whoami?user_id=a%00b"), 400, "malformed_request")
    _assert_error(api.get("/api/v1/who%00ami"), 400, "malformed_request")


@override_settings(MAX_REQUEST_BODY_BYTES=100)
@echo_urls
def test_oversized_body_is_413(api):
    body = json.dumps({"text": "x" * 500})
    error = _assert_error(api.generic("POST", "/api/v1/test-echo", body, content_type="application/json"), 413,
                          "body_too_large")
    assert error["details"]["limit_bytes"] == 100


@echo_urls
def test_validation_errors_use_the_format(api):
    error = _assert_error(api.post_json("/api/v1/test-echo", {"count": "many"}), 400, "invalid")
    assert "count" in error["details"]["fields"]


@echo_urls
def test_wrong_content_type_is_415(api):
    _assert_error(api.generic("POST", "/api/v1/test-echo", "count=1",
                              content_type="application/x-www-form-urlencoded"), 415, "unsupported_media_type")


def test_schema_and_docs_are_served(anon):
    schema = anon.get("/api/schema/")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    docs = anon.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content
