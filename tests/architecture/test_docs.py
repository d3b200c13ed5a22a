"""A newcomer finds each thing where the documentation says: every path and every dotted name that
docs/architecture.md, README.md, docs/deploy.md and the client's README cite (in backticks) exists.

- a path (`layers/long_term/selectors/search.py`, `tests/support/`) is a file or folder of the repository;
  `path.name` (`layers/context/selectors.context_assemble`) names something defined in that module;
- a dotted name of a room (`memoryhub.core.policy.policy_read`, `memoryhub.tenancy.signals.tenancy_changed`)
  is a module, or a module and a name it defines or imports (a class's method counts as the class's name).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.citations import DOTTED, PATH, missing

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("docs/architecture.md", "README.md", "docs/deploy.md", "clients/python/README.md")


def cited(text: str) -> list[str]:
    return [token for span in re.findall(r"`([^`\n]+)`", text) for token in re.findall(r"[\w./-]+", span)
            if PATH.match(token) or DOTTED.match(token)]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_everything_the_document_cites_exists(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    assert sorted({token for token in cited(text) if missing(token)}) == []


@pytest.mark.parametrize("token, absent", [
    ("layers/nowhere.py", True),
    ("memoryhub.core.policy.nope", True),
    ("layers/long_term/selectors/search.nope", True),
    ("memoryhub.core.policy.policy_read", False),
    ("layers/long_term/selectors/search.memory_search", False),
    ("tests/support/", False),
])
def test_the_check_itself(token, absent):
    assert missing(token) is absent
