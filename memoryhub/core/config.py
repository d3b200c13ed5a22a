"""Configuration read from the environment only.

The one exception is the embedded default: when `DATABASE_URL` / `REDIS_URL` are unset and the
embedded supervisor (`memoryhub.embedded`) is running, it leaves a state file naming its servers so
that any `manage.py` call from another terminal reaches the same ones.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
DATA_DIR = Path(os.environ.get("MEMORYHUB_DATA_DIR", BASE_DIR / ".data"))
STATE_FILE = DATA_DIR / "embedded.json"


class ImproperlyConfiguredValue(ValueError):
    pass


def _embedded_state() -> dict:
    try:
        return json.loads(STATE_FILE.read_text())
    except (OSError, ValueError):
        return {}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    if value is None or value == "":
        if name in ("DATABASE_URL", "REDIS_URL"):
            return _embedded_state().get(name, default)
        return default
    return value


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfiguredValue(f"{name} must be a boolean, got {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfiguredValue(f"{name} must be an integer, got {value!r}") from exc


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except ValueError as exc:
        raise ImproperlyConfiguredValue(f"{name} must be a number, got {value!r}") from exc


def env_rate(name: str, default: str) -> str:
    """A request rate as DRF reads it ("6000/min": a count, then s, m, h or d, or a word starting so), checked
    at start-up: a malformed value would otherwise fail inside every request's throttle as a 500."""
    value = (os.environ.get(name) or "").strip() or default
    if not re.fullmatch(r"[1-9][0-9]*/(s|sec|second|m|min|minute|h|hour|d|day)", value):
        raise ImproperlyConfiguredValue(f"{name} must be a count per period such as 6000/min, got {value!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value == "":
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]
