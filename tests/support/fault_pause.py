"""A pause inside a formation run, for fault tests in separate processes: connected to the run's
`run_writes_finished` signal when MEMORYHUB_TEST_FORMATION_PAUSE_FILE names a file. The run then waits,
holding its lock with its writes done, while the file exists (after writing `<file>.reached`), so the
test can kill the worker provably in the middle of the work. The file may name the one job to pause."""
from __future__ import annotations

import os
import time
from pathlib import Path

PAUSE_ENV = "MEMORYHUB_TEST_FORMATION_PAUSE_FILE"
PAUSE_MAX_SECONDS = 120
JOBS = ("extract", "summarise", "habits")


def _pause(sender, session_pk, **kwargs) -> None:
    path = os.environ.get(PAUSE_ENV)
    if not path:
        return
    marker = Path(path)
    try:
        only = marker.read_text().strip()
    except FileNotFoundError:
        return
    if only in JOBS and only != sender:
        return
    Path(f"{path}.reached").write_text(sender)
    deadline = time.monotonic() + PAUSE_MAX_SECONDS
    while marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def install_pause() -> None:
    from layers.formation.signals import run_writes_finished

    run_writes_finished.connect(_pause, dispatch_uid="tests.fault_pause")
