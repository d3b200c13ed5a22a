"""README.md's Python client snippet runs as written against the live server."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.processes import BASE_DIR

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_readme_python_client_snippet_runs(live_url, live_key, capsys):
    text = (Path(BASE_DIR) / "README.md").read_text(encoding="utf-8")
    snippet = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "MemoryhubClient(" in b)
    snippet = snippet.replace('"http://127.0.0.1:8000"', repr(live_url))
    exec(compile(snippet, "README.md", "exec"), {"KEY": live_key})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("Alice is vegetarian ")
    assert printed[1].endswith(" preference Alice is vegetarian")
    assert printed[2] == "session_not_found"  # a NotFoundError of its own code
