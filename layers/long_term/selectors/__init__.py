"""Reads of the long-term layer."""
from layers.long_term.selectors.habits import HabitWindow, habit_window, habits_due
from layers.long_term.selectors.memories import (
    memory_core_profile,
    memory_get,
    memory_history,
    memory_list,
)
from layers.long_term.selectors.search import ScoredMemory, memory_search

__all__ = ["HabitWindow", "habit_window", "habits_due", "memory_core_profile", "memory_get", "memory_history",
           "memory_list", "memory_search", "ScoredMemory"]
