"""The client's exceptions per error code name codes the server really answers with, and cover the
generic codes of the error format (memoryhub/api/errors.py)."""
from __future__ import annotations

import re
from pathlib import Path

from memoryhub_client.errors import ERRORS_BY_CODE, ServerError, error_class

from memoryhub.api.errors import _DRF_CODES
from tests.support.processes import BASE_DIR

_CODE = re.compile(r'code\s*=\s*"([a-z_]+)"|error_body\(\s*"([a-z_]+)"|json_error\(\s*"([a-z_]+)"')


def _server_codes() -> set[str]:
    codes = set(_DRF_CODES.values())
    for room in ("layers", "memoryhub", "permanent", "audit"):
        for path in (Path(BASE_DIR) / room).rglob("*.py"):
            for match in _CODE.finditer(path.read_text(encoding="utf-8")):
                codes.add(next(group for group in match.groups() if group))
    return codes


def test_every_code_the_client_names_is_one_the_server_answers():
    assert set(ERRORS_BY_CODE) - _server_codes() == set()


def test_the_generic_codes_of_the_error_format_have_their_class():
    generic = set(_DRF_CODES.values()) - {"method_not_allowed", "not_acceptable", "unsupported_media_type", "error"}
    assert generic - set(ERRORS_BY_CODE) == set()


def test_a_code_without_a_class_of_its_own_gets_its_status_family():
    assert error_class(409, "task_type_in_use").__name__ == "ConflictError"
    assert error_class(404, "gone").__name__ == "NotFoundError"
    assert error_class(502, "bad_gateway") is ServerError
    # A listed code at another status than its class's is not that class.
    assert error_class(400, "contended").__name__ == "BadRequestError"
