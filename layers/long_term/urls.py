from django.urls import path

from layers.long_term.apis.memories import (
    MemoriesApi,
    MemoryDetailApi,
    MemoryFeedbackApi,
    MemoryHistoryApi,
    MemoryReleaseApi,
    MemoryRestoreApi,
    MemoryRevertApi,
)
from layers.long_term.apis.search import MemorySearchApi

urlpatterns = [
    path("memories", MemoriesApi.as_view(), name="memories"),
    path("memories/search", MemorySearchApi.as_view(), name="memory-search"),
    path("memories/<int:memory_id>", MemoryDetailApi.as_view(), name="memory-detail"),
    path("memories/<int:memory_id>/restore", MemoryRestoreApi.as_view(), name="memory-restore"),
    path("memories/<int:memory_id>/release", MemoryReleaseApi.as_view(), name="memory-release"),
    path("memories/<int:memory_id>/revert", MemoryRevertApi.as_view(), name="memory-revert"),
    path("memories/<int:memory_id>/history", MemoryHistoryApi.as_view(), name="memory-history"),
    path("memories/<int:memory_id>/feedback", MemoryFeedbackApi.as_view(), name="memory-feedback"),
]
