from django.urls import path

from layers.erasure.apis import UserEraseApi, UserExportApi

# User ids are the client's own strings and may contain "/", hence `path`; export is matched first.
urlpatterns = [
    path("users/<path:user_id>/export", UserExportApi.as_view(), name="user-export"),
    path("users/<path:user_id>", UserEraseApi.as_view(), name="user-erase"),
]
