import json

from django.core.management.base import BaseCommand, CommandError

from layers.forgetting.jobs import FORGETTING_JOBS, forget_run


class Command(BaseCommand):
    help = ("Run the forgetting jobs (transient task sweep, idle-session expiry, long-term expiry, decay "
            "archiving, habit decay, archiving past an owner's capacity, purge after the grace period); with --dry-run, report what each would do and change "
            "nothing.")

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="report only; change nothing")
        parser.add_argument("--job", action="append", choices=sorted(FORGETTING_JOBS),
                            help="run only this job (repeatable); default: all, in order")
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")

    def handle(self, *args, **options):
        try:
            report = forget_run(dry_run=options["dry_run"], jobs=options["job"])
        except KeyError as exc:  # pragma: no cover — argparse choices already refuse unknown names
            raise CommandError(f"unknown job {exc}") from exc
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        prefix = "[dry run] " if options["dry_run"] else ""
        for name, result in report.items():
            detail = ", ".join(f"{key}={value}" for key, value in result.items() if key != "dry_run")
            self.stdout.write(f"{prefix}{name}: {detail}")
