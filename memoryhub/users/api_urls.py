from django.urls import path

from memoryhub.users.apis import UserEraseApi, UserExportApi

urlpatterns = [
    path("users/<str:user_id>", UserEraseApi.as_view(), name="user-erase"),
    path("users/<str:user_id>/export", UserExportApi.as_view(), name="user-export"),
]
