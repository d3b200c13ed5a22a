from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from memoryhub.api.health import HealthView
from memoryhub.api.metrics import metrics_view
from memoryhub.api.views import WhoAmIView

handler404 = "memoryhub.api.errors.handler404"
handler500 = "memoryhub.api.errors.handler500"

# Each app that serves API endpoints owns a `urls` module, mounted here under /api/v1/.
api_v1 = [
    path("health", HealthView.as_view(), name="health"),
    path("whoami", WhoAmIView.as_view(), name="whoami"),
    path("", include("layers.transient.urls")),
    path("", include("layers.short_term.urls")),
    path("", include("layers.long_term.urls")),
    path("", include("layers.long_term.graph.urls")),
    path("", include("layers.context.urls")),
    path("", include("permanent.urls")),
    path("", include("layers.erasure.urls")),
    path("", include("layers.reminders.urls")),
]

urlpatterns = [
    path("api/v1/", include((api_v1, "api"), namespace="v1")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger's start-up script as a file of its own (no inline script), so the
    # page works under the Content-Security-Policy of memoryhub/api/middleware.py.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    # Prometheus scrapes here (layer health; auth in memoryhub/api/metrics.py).
    path("metrics", metrics_view, name="metrics"),
    # The MCP server over streamable HTTP (memoryhub/mcp/apis.py); its stdio twin is `manage.py mcp`.
    path("", include("memoryhub.mcp.urls")),
    path("admin/", admin.site.urls),
    # The console's language switcher posts to Django's set_language (templates/admin/base_site.html).
    path("i18n/", include("django.conf.urls.i18n")),
]
