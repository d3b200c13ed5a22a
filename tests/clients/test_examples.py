"""Each example agent loop runs with --smoke, as its own process, against the live server."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.processes import BASE_DIR

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("example", ["agents_loop.py", "langgraph_loop.py"])
def test_example_smoke(example, live_url, live_key):
    finished = subprocess.run(
        [sys.executable, f"examples/{example}", "--base-url", live_url, "--api-key", live_key, "--smoke"],
        cwd=BASE_DIR, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "FAILED" not in finished.stdout and finished.stdout.count("ok: ") >= 4
