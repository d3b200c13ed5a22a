from django.urls import path

from layers.short_term import apis

urlpatterns = [
    path("sessions", apis.SessionOpenApi.as_view(), name="session-open"),
    path("sessions/<str:session_id>", apis.SessionDetailApi.as_view(), name="session-detail"),
    path("sessions/<str:session_id>/end", apis.SessionEndApi.as_view(), name="session-end"),
    path("sessions/<str:session_id>/turns", apis.SessionTurnsApi.as_view(), name="session-turns"),
    path("sessions/<str:session_id>/window", apis.SessionWindowApi.as_view(), name="session-window"),
]
