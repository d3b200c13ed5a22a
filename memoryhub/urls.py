import importlib

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from memoryhub.api.health import HealthView
from memoryhub.api.views import WhoAmIView

handler404 = "memoryhub.api.errors.handler404"
handler500 = "memoryhub.api.errors.handler500"

# Each app that serves API endpoints owns an `api_urls` module; missing ones are simply not mounted yet.
API_URL_MODULES = (
    "layers.transient.api_urls",
    "layers.short_term.api_urls",
    "layers.long_term.api_urls",
    "layers.context.api_urls",
    "permanent.api_urls",
    "memoryhub.users.api_urls",
)


def _api_includes():
    found = []
    for name in API_URL_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not (exc.name and name.startswith(exc.name)):
                raise
            continue
        found.append(path("", include(name)))
    return found


api_v1 = [
    path("health", HealthView.as_view(), name="health"),
    path("whoami", WhoAmIView.as_view(), name="whoami"),
    *_api_includes(),
]

urlpatterns = [
    path("api/v1/", include((api_v1, "api"), namespace="v1")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("admin/", admin.site.urls),
]
