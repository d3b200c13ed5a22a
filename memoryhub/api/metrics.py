"""Layer health: the figures of each tenant and layer, exported at GET /metrics in Prometheus's text
format (the `prometheus_client` library renders it), shown on the console dashboard and printed by
`manage.py memstats`.

Why Redis counters plus a scrape-time collector, and not `prometheus_client`'s multiprocess mode:
gunicorn runs several worker processes (and Celery more), each with its own memory. Multiprocess mode
needs a PROMETHEUS_MULTIPROC_DIR shared by every process of one host, wiped at each start, and it cannot
add up processes on different hosts. Here the few things only a request can see (whether a search or a
context served a memory above its cutoff, how long a request took) are counted in Redis with
HINCRBYs through the shared `memoryhub.core.redis.redis_client()`, so every process and host
adds to the same numbers; everything the database already knows (extraction drops, quarantine, outbox
depth, fallen-back jobs) is read from PostgreSQL when scraped, by `LayerHealthCollector`, so it is never
a second copy that can drift.

The increments leave the request thread (`CounterBuffer`): a request adds them up in this process's
buffer, and one daemon thread per process sends what has gathered in one MULTI/EXEC, a few milliseconds
after the first increment wakes it, so under load many requests share one round trip (a search paid 4 %
of its CPU for its counters' pipeline: docs/benchmarks.md, "Import checks and the append's reminders
savepoint"). Counting never blocks or fails a request: adding is a dict update under a lock no send holds.
Redis down means the increments wait in the buffer (at most `MAX_BUFFERED_FIELDS` distinct fields; a new
one past that is dropped and counted in `dropped`) and `backoff` skips Redis for a few seconds
(memoryhub/core/redis.py); they are sent once it is back. At a normal exit what is left is sent (atexit);
a scrape sends this process's first, so a process reads back what it counted.

Auth of /metrics (`metrics_view`): with METRICS_TOKEN set, a scraper sends `Authorization: Bearer
<token>` (no header: 401, a wrong token: 403, both in the error format). Without it the endpoint is
open only when DEBUG is on and the caller is on loopback (the local run); otherwise 403. The figures are
per tenant across all tenants, so they are an operator's, never an API key's.

This module sits in `memoryhub.api` (below the layers), so it names the layers' models by label, as the
console's dashboard does (docs/architecture.md).
"""
from __future__ import annotations

import atexit
import contextvars
import functools
import hmac
import logging
import os
import threading
import time
from dataclasses import dataclass, field

from django.apps import apps
from django.conf import settings
from django.db.models import Count, Q, Sum
from django.http import HttpResponse
from django.utils.translation import gettext as _
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from memoryhub.api.errors import json_error
from memoryhub.core.redis import REDIS_ERRORS, backoff, redis_client
from memoryhub.core.redis_batch import redis_batched

logger = logging.getLogger(__name__)

# Layer health: a layer whose searches serve nothing above the cutoff in more than 70 % of
# cases is not helping; below this share the dashboard and memstats flag it.
HIT_RATE_FLOOR = 0.30

RETRIEVALS_KEY = "memoryhub:metrics:retrievals"  # field "layer|tenant_id|served|missed" -> count
LATENCY_KEY = "memoryhub:metrics:latency"  # field "route|method|bucket index|count|sum" -> value
ANNOTATOR_FAILURES_KEY = "memoryhub:metrics:annotator_failures"  # field "annotator|tenant_id" -> count
# Upper bounds in seconds of the latency histogram (the last bucket is +Inf).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

LAYER_SEARCH = "long_term"
LAYER_CONTEXT = "context"

# Set while a context is assembled: its own profile search is part of the context, not a search of its
# own, so it is counted once, under the context.
_counting: contextvars.ContextVar[bool] = contextvars.ContextVar("metrics_counting", default=False)


# The buffer's send waits this long after the first increment that woke it, so that the increments of the
# requests around it go in the same round trip; a scrape of another process sees a count this much later.
FLUSH_DELAY_SECONDS = 0.02
# While Redis is away the buffer keeps the increments of at most this many distinct fields (a field is a
# tenant and layer and outcome, or a route and method and bucket: a few hundred in use).
MAX_BUFFERED_FIELDS = 10_000


class CounterBuffer:
    """Hash increments (HINCRBY, HINCRBYFLOAT) added up in-process and sent by one daemon thread.

    `client` and `backoff` are the process's (memoryhub/core/redis.py) unless given. The thread starts with
    the first increment; a forked child starts with an empty buffer and a thread of its own (its parent's
    pending increments are the parent's to send)."""

    def __init__(self, *, client=redis_client, backoff=backoff, delay: float = FLUSH_DELAY_SECONDS,
                 max_fields: int = MAX_BUFFERED_FIELDS):
        self._client, self._backoff = client, backoff
        self.delay, self.max_fields = delay, max_fields
        self._forget()

    def _forget(self) -> None:
        self._lock = threading.Lock()  # guards `_pending`; never held while sending
        self._sending = threading.Lock()  # one send at a time: the exit's waits for the thread's
        self._pending: dict[tuple[str, str], int | float] = {}
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.dropped = 0

    def add(self, key: str, field_name: str, amount: int | float = 1) -> None:
        """Count `amount` into `key`'s `field_name` (a float is sent with HINCRBYFLOAT). Never raises."""
        with self._lock:
            self._keep(((key, field_name), amount))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memoryhub-metrics", daemon=True)
                self._thread.start()
        self._wake.set()

    def _keep(self, *increments) -> None:
        pending = self._pending
        for slot, amount in increments:
            if slot in pending:
                pending[slot] += amount
            elif len(pending) < self.max_fields:
                pending[slot] = amount
            else:
                self.dropped += 1

    def pending(self) -> int:
        """How many fields wait to be sent."""
        with self._lock:
            return len(self._pending)

    def flush(self) -> bool:
        """Send what is pending, now, on this thread; True when it was sent (or nothing was pending). What
        Redis did not take stays pending for the next send."""
        with self._sending:
            with self._lock:
                pending, self._pending = self._pending, {}
            if not pending:
                return True
            if self._backoff.available():
                try:
                    pipe = self._client().pipeline(transaction=True)
                    for (key, field_name), amount in pending.items():
                        if isinstance(amount, float):
                            pipe.hincrbyfloat(key, field_name, amount)
                        else:
                            pipe.hincrby(key, field_name, amount)
                    pipe.execute()
                    return True
                except REDIS_ERRORS as exc:
                    self._backoff.failed("metrics counters", exc)
            with self._lock:
                self._keep(*pending.items())
            return False

    def _run(self) -> None:
        while True:
            # woken by an increment; with increments left over from a failed send, retried after the back-off
            self._wake.wait(timeout=self._backoff.seconds if self._pending else None)
            self._wake.clear()
            time.sleep(self.delay)
            try:
                self.flush()
            except Exception:  # noqa: BLE001 — the thread outlives any one send
                logger.exception("sending the metrics counters failed")


counters = CounterBuffer()
atexit.register(counters.flush)
os.register_at_fork(after_in_child=counters._forget)


def _redis_call(operation: str, call):
    if not backoff.available():
        return None
    try:
        return call(redis_client())
    except REDIS_ERRORS as exc:
        backoff.failed(operation, exc)
        return None


def record_retrieval_outcome(layer: str, tenant_id: int, served: bool) -> None:
    """Count one search or context of `tenant_id`: `served` when it returned at least one memory above
    its cutoff."""
    counters.add(RETRIEVALS_KEY, f"{layer}|{int(tenant_id)}|{'served' if served else 'missed'}")


def record_search(tenant_id: int, served: bool) -> None:
    record_retrieval_outcome(LAYER_SEARCH, tenant_id, served)


def record_context(tenant_id: int, served: bool) -> None:
    record_retrieval_outcome(LAYER_CONTEXT, tenant_id, served)


def counted_retrieval(layer: str, served):
    """Decorate a selector taking `tenant=` so each call is counted under `layer`; `served(result)` says
    whether the result holds a memory above the cutoff. A call made inside another counted one (the
    context's profile search) is not counted again. A call that raises (bad input) is not counted."""
    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if _counting.get():
                return function(*args, **kwargs)
            token = _counting.set(True)
            try:
                result = function(*args, **kwargs)
            finally:
                _counting.reset(token)
            tenant = kwargs.get("tenant")
            if tenant is not None:
                record_retrieval_outcome(layer, tenant.pk, bool(served(result)))
            return result
        return wrapper
    return decorate


def record_annotator_failure(annotator: str, tenant_id: int) -> None:
    """Count one turn append whose annotator (e.g. "resolutions") raised and was rolled back to its
    savepoint (layers/short_term/services/turns.py): the turns were stored without its annotations."""
    counters.add(ANNOTATOR_FAILURES_KEY, f"{annotator}|{int(tenant_id)}")


def record_latency(route: str, method: str, seconds: float) -> None:
    bucket = next((i for i, bound in enumerate(LATENCY_BUCKETS) if seconds <= bound), len(LATENCY_BUCKETS))
    prefix = f"{route}|{method}"
    counters.add(LATENCY_KEY, f"{prefix}|{bucket}")
    counters.add(LATENCY_KEY, f"{prefix}|count")
    counters.add(LATENCY_KEY, f"{prefix}|sum", float(seconds))


class LatencyMiddleware:
    """Times every API request, labelled by its URL pattern (bounded, unlike raw paths)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        # the request's deferred writes (the access buffer) go to Redis in one pipeline at the end
        # (memoryhub/core/redis_batch.py); its counters go to `counters`
        with redis_batched():
            response = self.get_response(request)
            if request.path.startswith("/api/"):
                match = getattr(request, "resolver_match", None)
                route = match.route if match is not None and match.route else "unmatched"
                record_latency(route, request.method, time.perf_counter() - started)
        return response


# --- the figures ----------------------------------------------------------------------------------

@dataclass
class Retrieval:
    total: int = 0
    served: int = 0

    @property
    def hit_rate(self) -> float | None:
        return self.served / self.total if self.total else None

    @property
    def below_floor(self) -> bool:
        rate = self.hit_rate
        return rate is not None and rate < HIT_RATE_FLOOR


@dataclass
class TenantHealth:
    tenant_id: int
    slug: str
    retrievals: dict[str, Retrieval] = field(default_factory=dict)  # layer -> counts
    quarantined: int = 0
    formation_runs: int = 0
    secrets_dropped: int = 0
    injections_quarantined: int = 0
    rejected: int = 0
    fell_back: int = 0
    # Referring expressions ("它", "that one") in user turns, and how many found their entity; rows of
    # sessions kept (they go with the session), so this is a gauge, not a counter.
    mentions: int = 0
    mentions_resolved: int = 0
    annotator_failures: dict[str, int] = field(default_factory=dict)  # annotator -> appends it failed
    # Reminders by status, those a webhook gave up on (still due), and those a later turn fulfilled.
    reminders: dict[str, int] = field(default_factory=dict)
    reminders_delivery_failed: int = 0
    reminders_fulfilled: int = 0

    @property
    def resolution_rate(self) -> float | None:
        return self.mentions_resolved / self.mentions if self.mentions else None

    @property
    def reminder_delivery_rate(self) -> float | None:
        """Of the reminders whose time came and that are settled, the share that reached the user."""
        settled = self.reminders.get("delivered", 0) + self.reminders.get("expired", 0) + self.reminders_delivery_failed
        return self.reminders.get("delivered", 0) / settled if settled else None

    @property
    def reminder_completion_rate(self) -> float | None:
        """Of the reminders no longer pending, the share delivered or fulfilled by a later turn."""
        closed = sum(n for status, n in self.reminders.items() if status != "pending")
        return (self.reminders.get("delivered", 0) + self.reminders_fulfilled) / closed if closed else None


@dataclass
class LayerHealth:
    tenants: list[TenantHealth]
    outbox_pending: int | None
    outbox_retrying: int | None
    redis_up: bool


def _model(label: str):
    try:
        return apps.get_model(label)
    except LookupError:
        return None


def _retrieval_counts() -> dict[tuple[str, int], Retrieval] | None:
    counters.flush()
    raw = _redis_call("metrics read", lambda client: client.hgetall(RETRIEVALS_KEY))
    if raw is None:
        return None
    counts: dict[tuple[str, int], Retrieval] = {}
    for key, value in raw.items():
        try:
            layer, tenant_id, outcome = key.decode().split("|")
            tenant_id, n = int(tenant_id), int(value)
        except ValueError:
            continue
        entry = counts.setdefault((layer, tenant_id), Retrieval())
        entry.total += n
        if outcome == "served":
            entry.served += n
    return counts


def layer_health(tenant_ids: list[int] | None = None) -> LayerHealth:
    """Every figure of every tenant (or of `tenant_ids`): retrievals from Redis, the rest from
    PostgreSQL, in four aggregate queries."""
    tenants = _model("tenancy.Tenant").objects.order_by("slug")
    if tenant_ids is not None:
        tenants = tenants.filter(pk__in=tenant_ids)
    by_id = {pk: TenantHealth(pk, slug) for pk, slug in tenants.values_list("pk", "slug")}

    retrievals = _retrieval_counts()
    for (layer, tenant_id), counts in (retrievals or {}).items():
        if tenant_id in by_id:
            by_id[tenant_id].retrievals[layer] = counts

    raw = _redis_call("metrics read", lambda client: client.hgetall(ANNOTATOR_FAILURES_KEY)) or {}
    for key, value in raw.items():
        try:
            annotator, tenant_id = key.decode().rsplit("|", 1)
            tenant_id, n = int(tenant_id), int(value)
        except ValueError:
            continue
        if tenant_id in by_id:
            by_id[tenant_id].annotator_failures[annotator] = n

    memory = _model("long_term.Memory")
    if memory is not None:
        rows = (memory.objects.filter(status="quarantined", tenant_id__in=list(by_id))
                .values("tenant_id").annotate(n=Count("id")))
        for row in rows:
            by_id[row["tenant_id"]].quarantined = row["n"]

    run = _model("formation.FormationRun")
    if run is not None:
        rows = (run.objects.filter(tenant_id__in=list(by_id)).values("tenant_id")
                .annotate(runs=Count("id"), secrets=Sum("secrets_dropped"), injections=Sum("quarantined"),
                          rejected=Sum("rejected"), fell_back=Count("id", filter=Q(outcome="fell_back"))))
        for row in rows:
            health = by_id[row["tenant_id"]]
            health.formation_runs = row["runs"]
            health.secrets_dropped = row["secrets"] or 0
            health.injections_quarantined = row["injections"] or 0
            health.rejected = row["rejected"] or 0
            health.fell_back = row["fell_back"]

    resolution = _model("transient.EntityResolution")
    if resolution is not None:
        rows = (resolution.objects.filter(tenant_id__in=list(by_id)).values("tenant_id")
                .annotate(n=Count("id"), resolved=Count("id", filter=Q(resolved=True))))
        for row in rows:
            by_id[row["tenant_id"]].mentions = row["n"]
            by_id[row["tenant_id"]].mentions_resolved = row["resolved"]

    reminder = _model("reminders.Reminder")
    if reminder is not None:
        rows = (reminder.objects.filter(tenant_id__in=list(by_id)).values("tenant_id", "status")
                .annotate(n=Count("id"), failed=Count("id", filter=Q(delivery_failed=True, status="due")),
                          fulfilled=Count("id", filter=Q(cancel_reason="fulfilled"))))
        for row in rows:
            health = by_id[row["tenant_id"]]
            health.reminders[row["status"]] = row["n"]
            health.reminders_delivery_failed += row["failed"]
            health.reminders_fulfilled += row["fulfilled"]

    outbox = _model("outbox.OutboxTask")
    pending = retrying = None
    if outbox is not None:
        figures = outbox.objects.filter(sent_at__isnull=True).aggregate(
            pending=Count("id"), retrying=Count("id", filter=Q(attempts__gt=0)))
        pending, retrying = figures["pending"], figures["retrying"]
    return LayerHealth(tenants=list(by_id.values()), outbox_pending=pending, outbox_retrying=retrying,
                       redis_up=retrievals is not None)


# --- Prometheus -----------------------------------------------------------------------------------

class LayerHealthCollector:
    """Turns `layer_health()` and the latency histogram into metric families at scrape time."""

    def collect(self):
        health = layer_health()
        retrievals = CounterMetricFamily(
            "memoryhub_retrievals", "Searches (long_term) and contexts (context), by whether at least one "
            "memory above the cutoff was served", labels=["tenant", "layer", "served"])
        hit_rate = GaugeMetricFamily(
            "memoryhub_hit_rate", "Share of searches / contexts that served at least one memory above the cutoff",
            labels=["tenant", "layer"])
        floor = GaugeMetricFamily("memoryhub_hit_rate_floor", "Hit rate below which a layer is flagged")
        floor.add_metric([], HIT_RATE_FLOOR)
        quarantined = GaugeMetricFamily("memoryhub_memories_quarantined", "Long-term memories held in quarantine",
                                        labels=["tenant", "layer"])
        runs = CounterMetricFamily("memoryhub_formation_runs", "Committed formation runs", labels=["tenant", "layer"])
        drops = CounterMetricFamily(
            "memoryhub_extraction_drops", "Items formation did not store as active memories: secret (dropped), "
            "injection (instruction-like, quarantined), rejected (other reasons)", labels=["tenant", "layer", "reason"])
        failures = CounterMetricFamily(
            "memoryhub_job_failures", "Formation runs whose model output was unusable and fell back to the offline "
            "rules", labels=["tenant", "layer", "kind"])
        mentions = GaugeMetricFamily("memoryhub_pronoun_mentions", "Pronouns and demonstratives in the user turns "
                                     "of kept sessions, by whether an entity was found", labels=["tenant", "layer", "resolved"])
        resolution_rate = GaugeMetricFamily("memoryhub_pronoun_resolution_rate", "Share of those resolved to an entity",
                                            labels=["tenant", "layer"])
        annotator_failures = CounterMetricFamily(
            "memoryhub_append_annotator_failures", "Turn appends stored without an annotator's output because it "
            "raised (rolled back to its savepoint)", labels=["tenant", "layer", "annotator"])
        reminders = GaugeMetricFamily("memoryhub_reminders", "Reminders by status (delivery_failed: due ones the "
                                      "webhook gave up on)", labels=["tenant", "layer", "status"])
        reminder_rates = GaugeMetricFamily(
            "memoryhub_reminder_rate", "delivery: delivered over delivered, expired and given up; completion: "
            "delivered or fulfilled by a later turn over all no longer pending", labels=["tenant", "layer", "rate"])
        for tenant in health.tenants:
            for status, n in sorted(tenant.reminders.items()):
                reminders.add_metric([tenant.slug, "reminders", status], n)
            reminders.add_metric([tenant.slug, "reminders", "delivery_failed"], tenant.reminders_delivery_failed)
            for rate, value in (("delivery", tenant.reminder_delivery_rate),
                                ("completion", tenant.reminder_completion_rate)):
                if value is not None:
                    reminder_rates.add_metric([tenant.slug, "reminders", rate], value)
            for annotator, n in sorted(tenant.annotator_failures.items()):
                annotator_failures.add_metric([tenant.slug, "short_term", annotator], n)
            mentions.add_metric([tenant.slug, "transient", "true"], tenant.mentions_resolved)
            mentions.add_metric([tenant.slug, "transient", "false"], tenant.mentions - tenant.mentions_resolved)
            if tenant.resolution_rate is not None:
                resolution_rate.add_metric([tenant.slug, "transient"], tenant.resolution_rate)
            for layer, counts in sorted(tenant.retrievals.items()):
                retrievals.add_metric([tenant.slug, layer, "true"], counts.served)
                retrievals.add_metric([tenant.slug, layer, "false"], counts.total - counts.served)
                if counts.hit_rate is not None:
                    hit_rate.add_metric([tenant.slug, layer], counts.hit_rate)
            quarantined.add_metric([tenant.slug, "long_term"], tenant.quarantined)
            runs.add_metric([tenant.slug, "formation"], tenant.formation_runs)
            drops.add_metric([tenant.slug, "formation", "secret"], tenant.secrets_dropped)
            drops.add_metric([tenant.slug, "formation", "injection"], tenant.injections_quarantined)
            drops.add_metric([tenant.slug, "formation", "rejected"], tenant.rejected)
            failures.add_metric([tenant.slug, "formation", "fell_back"], tenant.fell_back)
        yield from (retrievals, hit_rate, floor, quarantined, runs, drops, failures, mentions, resolution_rate,
                    annotator_failures, reminders, reminder_rates)

        if health.outbox_pending is not None:
            depth = GaugeMetricFamily("memoryhub_outbox_pending", "Outbox tasks not yet handed to the broker "
                                      "(all tenants: a task row has no tenant)")
            depth.add_metric([], health.outbox_pending)
            retrying = GaugeMetricFamily("memoryhub_outbox_retrying", "Pending outbox tasks whose publish failed at "
                                         "least once")
            retrying.add_metric([], health.outbox_retrying)
            yield from (depth, retrying)
        redis_up = GaugeMetricFamily("memoryhub_metrics_redis_up", "1 when the Redis-held counters could be read")
        redis_up.add_metric([], 1 if health.redis_up else 0)
        yield redis_up
        yield from self._latency()

    @staticmethod
    def _latency():
        counters.flush()
        raw = _redis_call("metrics read", lambda client: client.hgetall(LATENCY_KEY)) or {}
        series: dict[tuple[str, str], dict] = {}
        for key, value in raw.items():
            try:
                route, method, slot = key.decode().rsplit("|", 2)
            except ValueError:
                continue
            series.setdefault((route, method), {})[slot] = float(value)
        family = HistogramMetricFamily("memoryhub_request_duration_seconds", "API request latency per endpoint",
                                       labels=["endpoint", "method"])
        for (route, method), slots in sorted(series.items()):
            cumulative, buckets = 0.0, []
            for index, bound in enumerate((*LATENCY_BUCKETS, float("inf"))):
                cumulative += slots.get(str(index), 0.0)
                buckets.append(("+Inf" if bound == float("inf") else str(bound), cumulative))
            family.add_metric([route, method], buckets, sum_value=slots.get("sum", 0.0))
        yield family


def _scrape_refusal(request):
    token = getattr(settings, "METRICS_TOKEN", "")
    if token:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            response = json_error("unauthenticated", _("Send the metrics token as a Bearer token."), 401)
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
        if not hmac.compare_digest(header[len("Bearer "):].encode(), token.encode()):
            return json_error("forbidden", _("This is not the metrics token."), 403)
        return None
    if settings.DEBUG and request.META.get("REMOTE_ADDR") in ("127.0.0.1", "::1"):
        return None
    return json_error("forbidden", _("Metrics need METRICS_TOKEN (open only on loopback when DEBUG is on)."),
                      403)


def metrics_view(request):
    """GET /metrics: the Prometheus text exposition of `LayerHealthCollector`."""
    if request.method != "GET":
        return json_error("method_not_allowed", _("Only GET is allowed here."), 405)
    refused = _scrape_refusal(request)
    if refused is not None:
        return refused
    registry = CollectorRegistry(auto_describe=False)
    registry.register(LayerHealthCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
