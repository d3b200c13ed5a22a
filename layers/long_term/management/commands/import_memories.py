"""manage.py import_memories FILE --tenant SLUG: long-term memories from a file, checked like the API.

Formats, told apart by the file's first non-blank line:
- JSON Lines: one memory per line, the fields of POST /api/v1/memories (`user_id` on each line);
- mem0's export: a JSON document, a list of mem0 memories or {"results": [...]} (`memory` is the
  content, `id` becomes `client_id` "mem0:<id>", `metadata` the attributes, `categories` the entities);
- GET /api/v1/users/{id}/export: the "long_term.memory" rows of its "data"; only current ones (active, quarantined)
  are imported, the others are counted as skipped.
A JSON document's "line" is the record's position in it (1 = first).
"""
from __future__ import annotations

import json
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Iterator

from django.core.management.base import BaseCommand, CommandError

from layers.long_term.management.progress import progress_bar
from layers.long_term.models import MemoryKind, MemorySource
from layers.long_term.services.bulk import (
    CURRENT_STATUSES,
    IMPORT_BATCH,
    ImportReport,
    LineError,
    export_line,
    memories_import,
    memories_import_check,
)
from memoryhub.core.actors import Actor
from memoryhub.tenancy.selectors import tenant_named

USER_EXPORT_LABEL = "long_term.memory"


def _first_line(path: Path) -> str:
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.strip():
                return line.strip()
    return ""


def _is_json_lines(first: str) -> bool:
    try:
        value = json.loads(first)
    except ValueError:
        return not first.startswith(("[", "{"))  # a broken first line of a JSON Lines file
    return isinstance(value, dict) and not ({"results", "data"} & set(value))


def _json_lines(path: Path) -> Iterator[tuple[int, object]]:
    with path.open(encoding="utf-8", errors="surrogateescape") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                text.encode("utf-8")
                value = json.loads(text)
            except UnicodeEncodeError:
                yield number, LineError(number, [{"field": "", "code": "invalid_encoding",
                                                  "message": "the line is not UTF-8"}])
                continue
            except ValueError as exc:
                yield number, LineError(number, [{"field": "", "code": "invalid_json", "message": str(exc)}])
                continue
            yield number, value


def _from_mem0(record: dict) -> dict:
    metadata = record.get("metadata") if isinstance(record.get("metadata"), dict) else {}
    kind = metadata.get("type") if metadata.get("type") in MemoryKind.values else MemoryKind.FACT
    item = {"user_id": record.get("user_id"), "content": record.get("memory"), "kind": kind,
            "source": MemorySource.IMPORTED, "attributes": metadata, "entities": record.get("categories") or []}
    if record.get("id") is not None:
        item["client_id"] = f"mem0:{record['id']}"
    if record.get("agent_id"):
        item["agent_id"] = record["agent_id"]
    return item


def _from_user_export(row: dict) -> dict | None:
    if row.get("status") not in CURRENT_STATUSES:
        return None
    return export_line(row)


def _json_document(path: Path) -> Iterator[tuple[int, object]]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise CommandError(f"{path}: not JSON Lines and not a JSON document: {exc}")
    if isinstance(document, dict) and isinstance(document.get("data"), dict):  # {"user_id", "data": {label: rows}}
        records, convert = document["data"].get(USER_EXPORT_LABEL, []), _from_user_export
    else:
        records = document.get("results") if isinstance(document, dict) else document
        convert = _from_mem0
    if not isinstance(records, list):
        raise CommandError(f"{path}: expected a list of memories, {{\"results\": [...]}} or a user export")
    for number, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            yield number, LineError(number, [{"field": "", "code": "invalid", "message": "not a JSON object"}])
        else:
            yield number, convert(record)


def _spooled(spool) -> Iterator:
    spool.seek(0)
    while True:
        try:
            yield pickle.load(spool)
        except EOFError:
            return


def read_records(path: Path) -> Iterator[tuple[int, object]]:
    """(line or record number, memory dict | LineError | None for a row not to import) for every record."""
    return _json_lines(path) if _is_json_lines(_first_line(path)) else _json_document(path)


class Command(BaseCommand):
    help = ("Import long-term memories from JSON Lines (or mem0's export, or a user export) into a tenant, "
            "checked like POST /api/v1/memories. Every line is checked first and nothing is written if one "
            "fails (unless --skip-invalid); batches commit one by one, so an interrupted import resumes "
            "when run again, and a file imported twice adds nothing.")

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--tenant", required=True, help="tenant slug")
        parser.add_argument("--batch-size", type=int, default=IMPORT_BATCH)
        parser.add_argument("--skip-invalid", action="store_true",
                            help="store the valid lines and report the others (default: store nothing)")
        parser.add_argument("--check", action="store_true", help="only check every line; write nothing")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
        parser.add_argument("--workers", type=int, default=None,
                            help="processes that embed the next batches while one is written (default: one per "
                                 "core, up to 2, for a file of more than 4 batches; 0: embed in this process)")

    def handle(self, *args, **options):
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"no file {path}")
        tenant = tenant_named(options["tenant"])
        batch_size = max(1, options["batch_size"])
        report = ImportReport()
        checked = memories_import_check(tenant=tenant, records=read_records(path), report=report,
                                        batch_size=batch_size)
        with tempfile.TemporaryFile() as spool:
            if options["skip_invalid"]:
                total, batches = sum(1 for _ in read_records(path)), checked
            else:
                # Every line is checked before the first batch is written, so one bad line stores nothing.
                # The checked batches wait in a spool file, so the write pass neither checks them again nor
                # reads a file that may have changed since.
                for batch in checked:
                    pickle.dump(batch, spool)
                self._report_errors(report.errors)
                if report.errors:
                    raise CommandError(f"{len(report.errors)} of {report.lines} lines cannot be stored; "
                                       "nothing was written (--skip-invalid stores the others)")
                if options["check"]:
                    self.stdout.write(f"{report.lines} lines checked, all can be stored")
                    return
                total, batches = report.lines, _spooled(spool)
            errors_reported, done = len(report.errors), 0

            def progress(report, lines):
                nonlocal errors_reported, done
                self._report_errors(report.errors[errors_reported:])
                errors_reported, done = len(report.errors), done + len(lines)
                # One line per batch on stdout (what a supervisor or a test can follow), the bar on stderr.
                self.stdout.write(f"committed through line {lines[-1]}")
                self.stdout.flush()
                if not options["no_progress"]:
                    self.stderr.write(progress_bar(done, total,
                                                   suffix=f"  {report.outcomes['created']} new"), ending="")
                    self.stderr.flush()

            workers = options["workers"]
            if workers is None:
                # a worker's start (an interpreter, Django, the model: ~2 s) pays for itself only on a long file
                workers = min(2, os.cpu_count() or 1) if total > 4 * batch_size else 0
            memories_import(tenant=tenant, actor=Actor.system("import_memories"), batches=batches, report=report,
                            progress=progress, workers=max(0, workers))
        if not options["no_progress"]:
            self.stderr.write("")
        self.stdout.write(json.dumps(report.as_dict()))

    def _report_errors(self, errors):
        for error in errors:
            for problem in error.errors:
                where = f" {problem['field']}" if problem.get("field") else ""
                self.stderr.write(f"line {error.line}:{where} {problem['code']}: {problem['message']}")
        sys.stderr.flush()
