"""Schemas are built one at a time per process (memoryhub/api/schema.SerialSchemaGenerator): drf-spectacular
resolves each extension's target class lazily and in place, so concurrent first builds could fail (seen
in CI: the first MCP calls of two gunicorn threads, "'NoneType' object has no attribute 'startswith'")."""
from __future__ import annotations

import threading

from drf_spectacular.extensions import OpenApiViewExtension
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.views import SpectacularAPIView

from memoryhub.api.schema import SerialSchemaGenerator
from memoryhub.mcp.schemas import openapi_schema

# Extensions whose target does not import, still unresolved: the state a fresh process starts in for
# drf-spectacular's own optional extensions (made here, since this process may have resolved those).
for index in range(40):
    type(f"_UnresolvedProbe{index}", (OpenApiViewExtension,), {"target_class": f"tests.no_such_module.View{index}"})


def test_the_schema_view_and_the_mcp_server_build_with_the_serial_generator():
    assert spectacular_settings.DEFAULT_GENERATOR_CLASS is SerialSchemaGenerator
    assert SpectacularAPIView.generator_class is SerialSchemaGenerator
    assert "/api/v1/memories/search" in openapi_schema()["paths"]


def test_concurrent_first_builds_all_succeed():
    start = threading.Barrier(6)
    results, failures = [], []

    def build():
        start.wait()
        try:
            results.append(SerialSchemaGenerator().get_schema(request=None, public=True))
        except Exception as exc:  # noqa: BLE001 - the failure is what the test reports
            failures.append(repr(exc))

    threads = [threading.Thread(target=build) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(results) == 6 and all(result["paths"] == results[0]["paths"] for result in results)
