"""The console and the Swagger page still work in a real browser under their Content-Security-Policy:
pages render, their scripts run, and the browser reports no violation."""
from __future__ import annotations

import pytest

from tests.support.browser import chromium

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "pw-Csp-Check-42"


def _violations(browser) -> list[str]:
    logs = browser.driver.get_log("browser")
    return [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]]


def test_console_and_swagger_render_under_the_policy(live_server, make_staff, tenant):
    make_staff(superuser=True, username="csp-admin", password=PASSWORD)
    with chromium() as browser:
        browser.base_url = live_server.url
        browser.login("csp-admin", PASSWORD)
        for path, ready in (("/admin/", "#console-dashboard"),
                            ("/admin/long_term/memory/", "#changelist"),
                            ("/admin/permanent/changerequest/add/", "#id_key"),
                            ("/admin/auth/user/add/", "#id_username")):
            browser.go(path)
            browser.find(ready)
            assert not _violations(browser), (path, _violations(browser))
        # The admin's own scripts ran: the add form's password widgets are wired by admin JS, and the
        # sidebar filter is a script-built element.
        assert browser.driver.execute_script("return typeof django !== 'undefined' && !!django.jQuery")

        browser.go("/api/docs/")
        browser.find("#swagger-ui .information-container", timeout=60)  # rendered by swagger-ui's bundle
        browser.find("#swagger-ui .opblock", timeout=60)  # and the operations came from /api/schema/
        assert not _violations(browser), _violations(browser)

        browser.go("/api/redoc/")
        # Redoc's bundle (from drf-spectacular-sidecar, no CDN) ran and rendered the schema's operations.
        browser.find("redoc .api-content", timeout=60)
        browser.find("redoc [data-section-id^='operation/']", timeout=60)
        # The one request the policy refuses is the "API docs by Redocly" logo, an <img> whose CDN
        # address the bundle hard-codes (and hides itself when it fails to load); nothing else.
        refused = [v for v in _violations(browser) if "https://cdn.redoc.ly/redoc/logo-mini.svg" not in v]
        assert not refused, refused


def test_the_docs_pages_carry_the_policy_and_load_nothing_from_elsewhere(client):
    for path in ("/api/docs/", "/api/redoc/"):
        response = client.get(path)
        assert response.status_code == 200
        assert response["Content-Security-Policy"].startswith("default-src 'self'"), path
        page = response.content.decode()
        assert "googleapis" not in page and "cdn." not in page and "unpkg" not in page, path
