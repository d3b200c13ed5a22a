"""What extraction and summarisation runs share: the frame they run in (per-session advisory lock,
state row, one transaction) and the run report."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from django.db import connection, transaction

from layers.formation.models import FormationRun, FormationState
from layers.formation.signals import run_writes_finished
from layers.long_term.services.create import lock_user_memories
from layers.short_term.models import Session
from memoryhub.core.locks import (
    FORMATION_EXTRACT,
    FORMATION_SUMMARISE,
    advisory_lock_try,
    deadlock_retry,
)

# One run reads at most this many turns (a model prompt, a transaction and a summary stay bounded);
# a longer backlog (after an outage, or a long session ended at once) takes several runs.
MAX_TURNS_PER_RUN = 200

# The advisory lock class of each job (memoryhub/core/locks.py); the lock's key is the session's pk.
LOCK_CLASS = {"extract": FORMATION_EXTRACT, "summarise": FORMATION_SUMMARISE}

def session_lock_try(job: str, session_pk: int) -> bool:
    """Take the session's lock for `job` until the end of the current transaction; False if held."""
    return advisory_lock_try(LOCK_CLASS[job], session_pk)


def session_state_ensure(session_pk: int) -> None:
    """Make sure the state row exists, outside the run's transaction (two jobs may start together)."""
    # Look first: an INSERT … ON CONFLICT would wait for a running job that updated the row.
    if not FormationState.objects.filter(session_id=session_pk).exists():
        FormationState.objects.bulk_create([FormationState(session_id=session_pk)], ignore_conflicts=True)


def session_job_run(job: str, session_pk: int, work: Callable[[Session], "RunReport"]) -> "RunReport":
    """The frame every formation job runs in: `gone` when the session no longer exists; its state row
    made sure of outside the transaction; then one transaction holding the session's `job` lock (`busy`
    when another run has it), in which `work` gets the session and all it writes commits together."""
    if not Session.objects.filter(pk=session_pk).exists():
        return RunReport("gone", session_pk)
    session_state_ensure(session_pk)
    return _job_transaction(job, session_pk, work)


@deadlock_retry
def _job_transaction(job: str, session_pk: int, work: Callable[[Session], "RunReport"]) -> "RunReport":
    with transaction.atomic():
        if not session_lock_try(job, session_pk):
            return RunReport("busy", session_pk)
        return work(Session.objects.select_related("tenant").get(pk=session_pk))


def session_writes_lock(session: Session, *, updates_row: bool) -> None:
    """Before a run's first write: the session's row, then the user's memory lock, in the order of
    memoryhub/core/locks.py; the audit chain comes after both.

    Every run locks the row, even one that only inserts rows pointing at the session (a run record):
    such an insert takes FOR KEY SHARE on the session row, and taken late, after the chain, it waits
    for a session end that holds the row and waits for the chain. A run that updates the row (a
    summary) takes FOR NO KEY UPDATE, as appends do; one that does not, FOR KEY SHARE, which appends
    do not wait for. Taken after the model call, so nothing waits for the model.
    """
    if updates_row:
        list(Session.objects.select_for_update(no_key=True).filter(pk=session.pk).values_list("pk", flat=True))
    else:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {Session._meta.db_table} WHERE id = %s FOR KEY SHARE", [session.pk])
    lock_user_memories(session.tenant_id, session.user_id)


def run_writes_done(job: str, session_pk: int) -> None:
    """Announce that a run wrote everything and is about to commit (see layers/formation/signals.py)."""
    run_writes_finished.send(sender=job, session_pk=session_pk)


@dataclass
class RunCounts:
    written: int = 0
    merged: int = 0
    superseded: int = 0
    quarantined: int = 0
    secrets_dropped: int = 0
    rejected: int = 0
    spans: int = 0
    dropped: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"written": self.written, "merged": self.merged, "superseded": self.superseded,
                "quarantined": self.quarantined, "secrets_dropped": self.secrets_dropped,
                "rejected": self.rejected, "spans": self.spans, "dropped": dict(self.dropped)}


@dataclass
class RunReport:
    """What a call did: `status` is completed, fell_back, not_due, nothing_new, busy or gone."""

    status: str
    session_pk: int
    run: FormationRun | None = None
    more: bool = False  # turns are left for another run (the span was capped at MAX_TURNS_PER_RUN)

    @property
    def wrote(self) -> bool:
        return self.run is not None

    def as_dict(self) -> dict:
        body = {"status": self.status, "session": self.session_pk, "more": self.more}
        if self.run is not None:
            body.update(run=self.run.pk, turn_from=self.run.turn_from, turn_to=self.run.turn_to,
                        extractor=self.run.extractor, written=self.run.written, merged=self.run.merged,
                        superseded=self.run.superseded, quarantined=self.run.quarantined,
                        secrets_dropped=self.run.secrets_dropped, rejected=self.run.rejected, spans=self.run.spans)
        return body
