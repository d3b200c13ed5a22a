"""memoryhub/core/locks.py: a transaction PostgreSQL aborts as a deadlock victim is run again whole."""
from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, transaction

from memoryhub.core.locks import advisory_lock, deadlock_retry

pytestmark = pytest.mark.django_db(transaction=True)

LOCK_CLASS = 0x7E57  # a class of the tests' own, never taken by the service


def test_a_deadlock_victim_is_retried_and_both_transactions_finish():
    """Two transactions take the same two locks in opposite orders, both holding the first when they
    ask for the second: a real deadlock. PostgreSQL aborts one; the helper runs it again."""
    both_hold_one = threading.Barrier(2, timeout=30)
    attempts: list[str] = []
    results, failures = {}, []

    @deadlock_retry
    def take(name: str, first: int, second: int) -> str:
        with transaction.atomic():
            attempts.append(name)
            advisory_lock(LOCK_CLASS, first)
            if attempts.count(name) == 1:
                both_hold_one.wait()  # only the first attempt meets the other one half-way
            advisory_lock(LOCK_CLASS, second)
            return name

    def run(name, first, second):
        try:
            results[name] = take(name, first, second)
        except BaseException as exc:  # surfaced below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=("a", 1, 2)), threading.Thread(target=run, args=("b", 2, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert results == {"a": "a", "b": "b"}
    assert sorted(attempts) in (["a", "a", "b"], ["a", "b", "b"]), "exactly one of the two ran twice"


def test_inside_a_callers_transaction_the_abort_propagates():
    """A savepoint cannot be retried after PostgreSQL aborted the whole transaction: the caller's
    boundary retries."""
    calls = []

    @deadlock_retry
    def fails():
        calls.append(1)
        with connection.cursor() as cursor:
            cursor.execute("DO $$ BEGIN RAISE EXCEPTION 'victim' USING ERRCODE = '40P01'; END $$")

    with pytest.raises(OperationalError):
        with transaction.atomic():
            fails()
    assert calls == [1]

    calls.clear()
    with pytest.raises(OperationalError):
        fails()  # outside a transaction: retried, then given up
    assert len(calls) > 1


def test_other_database_errors_are_not_retried():
    calls = []

    @deadlock_retry
    def fails():
        calls.append(1)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DO $$ BEGIN RAISE EXCEPTION 'not a deadlock' USING ERRCODE = '55P03'; END $$")

    with pytest.raises(OperationalError):
        fails()
    assert calls == [1]
