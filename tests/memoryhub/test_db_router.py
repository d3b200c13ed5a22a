"""The primary/replica router (memoryhub/core/db_router.py) against the real Redis: which reads may go to
the replica, and the read-your-writes marker a caller's long-term write leaves. The routed search
across real processes, PgBouncer and a streaming replica is tests/scaleout/test_scaleout.py."""
from __future__ import annotations

import uuid

import pytest
from django.db import DEFAULT_DB_ALIAS, router

from audit.models import AuditEvent
from layers.long_term.models import Memory
from memoryhub.core.db_router import (
    REPLICA,
    long_term_written,
    marker_key,
    replica_backoff,
)
from memoryhub.core.redis import backoff, redis_client
from memoryhub.core.request_context import Caller, current_caller
from permanent.models import PermanentEntry

# Transactional: a write outside a transaction sets its marker at once (transaction.on_commit).
# The DATABASES override only adds the alias the router looks for; nothing connects to it here.
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")]


@pytest.fixture
def with_replica(settings):
    settings.DATABASES = {**settings.DATABASES, REPLICA: {**settings.DATABASES[DEFAULT_DB_ALIAS]}}
    settings.DB_READ_YOUR_WRITES_SECONDS = 7
    replica_backoff.reset()
    yield
    replica_backoff.reset()


@pytest.fixture
def caller():
    caller = Caller(tenant_id=10**9 + int(uuid.uuid4().int % 10**6), api_key_id=1)
    token = current_caller.set(caller)
    yield caller
    current_caller.reset(token)
    redis_client().delete(marker_key(caller))


def test_without_a_replica_every_read_is_the_primary(caller):
    assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS


def test_only_reads_that_ask_for_it_go_to_the_replica(with_replica, caller):
    assert router.db_for_read(Memory, replica_ok=True) == REPLICA
    assert router.db_for_read(Memory) == DEFAULT_DB_ALIAS
    assert router.db_for_read(PermanentEntry) == DEFAULT_DB_ALIAS
    assert router.db_for_write(Memory) == DEFAULT_DB_ALIAS


def test_a_long_term_write_pins_its_caller_to_the_primary_in_every_process(with_replica, caller):
    router.db_for_write(Memory)
    assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS
    # Another process knows only the marker: a fresh Caller for the same key reads the primary too,
    # for DB_READ_YOUR_WRITES_SECONDS.
    same_key = Caller(tenant_id=caller.tenant_id, api_key_id=caller.api_key_id)
    token = current_caller.set(same_key)
    try:
        assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS
    finally:
        current_caller.reset(token)
    assert 6000 < redis_client().pttl(marker_key(caller)) <= 7000
    # Another key of the same tenant did not write: it reads the replica.
    other = Caller(tenant_id=caller.tenant_id, api_key_id=caller.api_key_id + 1)
    token = current_caller.set(other)
    try:
        assert router.db_for_read(Memory, replica_ok=True) == REPLICA
    finally:
        current_caller.reset(token)


def test_a_raw_sql_write_pins_its_caller_by_saying_so(with_replica, caller):
    long_term_written()
    assert redis_client().exists(marker_key(caller))
    assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS


def test_writes_outside_long_term_pin_nothing(with_replica, caller):
    router.db_for_write(AuditEvent)
    router.db_for_write(PermanentEntry)
    assert not caller.wrote
    assert not redis_client().exists(marker_key(caller))
    assert router.db_for_read(Memory, replica_ok=True) == REPLICA


def test_without_redis_nothing_is_known_about_recent_writes_so_the_primary_serves(with_replica, caller):
    backoff.failed("test", RuntimeError("redis is away"))
    assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS


def test_a_replica_that_failed_a_read_is_skipped_for_a_while(with_replica, caller):
    replica_backoff.failed("read", RuntimeError("replica is away"))
    assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS


@pytest.mark.django_db
def test_inside_a_transaction_reads_stay_on_the_primary(with_replica, caller):
    # pytest-django's db fixture runs the test inside a transaction on the primary
    assert router.db_for_read(Memory, replica_ok=True) == DEFAULT_DB_ALIAS


def test_the_replica_is_never_migrated():
    assert router.allow_migrate(REPLICA, "long_term") is False
    assert router.allow_migrate(DEFAULT_DB_ALIAS, "long_term") is True
