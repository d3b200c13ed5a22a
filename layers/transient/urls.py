from django.urls import path

from layers.transient import apis

urlpatterns = [
    path("sessions/<str:session_id>/tasks", apis.SessionTasksApi.as_view(), name="session-tasks"),
    path("sessions/<str:session_id>/entities", apis.SessionEntitiesApi.as_view(), name="session-entities"),
    path("tasks/<int:task_id>", apis.TaskDetailApi.as_view(), name="task-detail"),
    path("task-types", apis.TaskTypesApi.as_view(), name="task-types"),
    path("task-types/<str:name>", apis.TaskTypeDetailApi.as_view(), name="task-type-detail"),
]
