"""What extraction and summarisation runs share: the frame they run in (per-session advisory lock,
state row, one transaction), the run report, and a test-only pause point."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from django.db import connection, transaction

from layers.formation.models import FormationRun, FormationState
from layers.short_term.models import Session

# One run reads at most this many turns (a model prompt, a transaction and a summary stay bounded);
# a longer backlog (after an outage, or a long session ended at once) takes several runs.
MAX_TURNS_PER_RUN = 200

# Advisory lock classes (first key of the two-int form); the second key is the session's pk.
LOCK_CLASS = {"extract": 0x4658, "summarise": 0x4653}  # "FX", "FS"

# Test-only hook, off unless the variable is set: after a run has written its memories and before it
# commits, it waits while the named file exists (and writes `<file>.reached` first), so a fault test
# can kill the worker provably in the middle of the work. The file may name the one job to pause
# ("extract" or "summarise"); otherwise every job pauses. Never set in production.
TEST_PAUSE_ENV = "MEMORYHUB_TEST_FORMATION_PAUSE_FILE"
TEST_PAUSE_MAX_SECONDS = 120


def session_lock_try(job: str, session_pk: int) -> bool:
    """Take the session's lock for `job` until the end of the current transaction; False if held."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [LOCK_CLASS[job], session_pk % 2**31])
        return bool(cursor.fetchone()[0])


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
    with transaction.atomic():
        if not session_lock_try(job, session_pk):
            return RunReport("busy", session_pk)
        return work(Session.objects.select_related("tenant").get(pk=session_pk))


def pause_for_fault_test(job: str) -> None:
    path = os.environ.get(TEST_PAUSE_ENV)
    if not path:
        return
    marker = Path(path)
    try:
        only = marker.read_text().strip()
    except FileNotFoundError:
        return
    if only in LOCK_CLASS and only != job:
        return
    Path(f"{path}.reached").write_text(job)
    deadline = time.monotonic() + TEST_PAUSE_MAX_SECONDS
    while marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


@dataclass
class RunCounts:
    written: int = 0
    merged: int = 0
    superseded: int = 0
    quarantined: int = 0
    secrets_dropped: int = 0
    rejected: int = 0
    dropped: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"written": self.written, "merged": self.merged, "superseded": self.superseded,
                "quarantined": self.quarantined, "secrets_dropped": self.secrets_dropped,
                "rejected": self.rejected, "dropped": dict(self.dropped)}


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
                        secrets_dropped=self.run.secrets_dropped, rejected=self.run.rejected)
        return body
