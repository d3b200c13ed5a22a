from django.urls import path

from permanent.apis import (
    ChangeRequestCreateApi,
    ChangeRequestDetailApi,
    ChangeRequestWithdrawApi,
    PermanentDetailApi,
    PermanentListApi,
)

urlpatterns = [
    path("permanent", PermanentListApi.as_view(), name="permanent-list"),
    path("permanent/change-requests", ChangeRequestCreateApi.as_view(), name="permanent-change-request-create"),
    path("permanent/change-requests/<int:change_request_id>", ChangeRequestDetailApi.as_view(),
         name="permanent-change-request-detail"),
    path("permanent/change-requests/<int:change_request_id>/withdraw", ChangeRequestWithdrawApi.as_view(),
         name="permanent-change-request-withdraw"),
    path("permanent/<str:key>", PermanentDetailApi.as_view(), name="permanent-detail"),
]
