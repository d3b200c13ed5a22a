from django.urls import path

from layers.context.apis import ContextApi

urlpatterns = [
    path("context", ContextApi.as_view(), name="context"),
]
