"""Production settings pass `check --deploy` with no warnings; bad configuration fails loudly."""
import os
import subprocess
import sys

from tests.support.processes import BASE_DIR

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "q8v2!kz#w7m1p0x9r3t6y4u5i8o2l1k7j6h5g4f3d2s1a0zxcvbnm",
    "ALLOWED_HOSTS": "memory.example.com",
    "AUDIT_HEAD_KEY": "k3y-0f-the-audit-head-n0t-in-the-database-7f2c9e1b",
}


def _manage(*args, env_extra):
    env = {**os.environ, **env_extra}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True)


def test_check_deploy_is_clean_with_production_values():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env_extra=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_without_secret_key_refuses_to_start():
    result = _manage("check", env_extra={**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_production_without_audit_head_key_refuses_to_start():
    for value in ("", "dev-only-audit-head-key-do-not-use-in-production"):
        result = _manage("check", env_extra={**PRODUCTION, "AUDIT_HEAD_KEY": value})
        assert result.returncode != 0 and "AUDIT_HEAD_KEY must be set" in result.stderr


def test_bad_boolean_is_refused():
    result = _manage("check", env_extra={"DEBUG": "maybe"})
    assert result.returncode != 0 and "DEBUG must be a boolean" in result.stderr


def test_a_malformed_rate_limit_is_refused_at_start_up():
    # a value DRF cannot parse used to surface as a 500 on every authenticated request
    for value in ("10000000", "fast", "0/min", "100/fortnight"):
        result = _manage("check", env_extra={"API_RATE_LIMIT": value})
        assert result.returncode != 0 and "API_RATE_LIMIT must be a count per period" in result.stderr, value
    for value in ("100/s", "6000/min", "50000/hour", "9/day"):
        result = _manage("check", env_extra={"API_RATE_LIMIT": value})
        assert result.returncode == 0, (value, result.stderr)
