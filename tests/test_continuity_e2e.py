"""Issue 14's acceptance scenario, end to end through HTTP only, against a gunicorn, a Celery worker and
Celery beat that the test starts as separate processes, and a webhook receiver of its own:

(a) a smart-home session full of 'it' / 'that one' / 'the blue one' / 'she' / '它' / '那个': the append
    responses say what each meant, GET /sessions/{id}/entities lists the registry and the context's
    session block annotates it ('它 = 客厅的灯');
(b) reminders set from turns ('remind me in 20 minutes…', '明天早上7点提醒我…', '等会儿提醒我…'): one
    fulfilled by a later turn, one cancelled ('别提醒了'), one delivered to the webhook after gunicorn and
    the worker were killed (SIGKILL) and started again between setting and delivery, exactly once (one
    idempotency key, acted on once, though beat's dispatcher kept running after it);
(c) a job change said in a later session closes the old works_at edge (GET /graph, include_closed);
(d) a week of evening requests (crafted occurred_at, around 22:00 in the tenant's zone) becomes a habit
    once the worker mined it, served by /context at a matching moment and not at another;
(e) a conditional preference said in conversation is served under its condition only;
(f) /metrics scraped before and after: hit rate, reminders delivered and cancelled, resolutions moved.

Crafted clocks: the turns carry `occurred_at` in the past, so 'in 20 minutes' is already due when beat's
dispatcher first looks, and the habit's evenings end yesterday (mining uses the real clock). Nothing
sleeps: every wait polls with a deadline.
"""
from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from memoryhub.core.actors import Actor
from memoryhub.tenancy.services import api_key_create, tenant_get_or_create
from tests.support.metrics import moved, value
from tests.support.processes import wait_for
from tests.support.service_stack import ServiceStack, forget_queue
from tests.support.webhook_receiver import WebhookReceiver

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

SHANGHAI = ZoneInfo("Asia/Shanghai")
SECRET = "e2e-webhook-secret-0123456789"
USER = "lin"
DISPATCH = "reminders-dispatch"


def _ok(answer, *codes):
    status, body = answer
    assert status in (codes or (200, 201)), (status, body)
    return body


def _say(api, session_id: str, turns: list[tuple[str, str]], start: datetime | None = None) -> dict:
    """(role, content) turns, one minute apart from `start` (their occurred_at) when it is given."""
    body = [{"role": role, "content": content,
             **({"occurred_at": (start + timedelta(minutes=i)).isoformat()} if start else {})}
            for i, (role, content) in enumerate(turns)]
    return _ok(api.post(f"/api/v1/sessions/{session_id}/turns", {"turns": body}), 201)


def _open(api, session_id: str) -> None:
    _ok(api.post("/api/v1/sessions", {"session_id": session_id, "user_id": USER,
                                      "metadata": {"time_zone": "Asia/Shanghai"}}), 201)


def _talk_and_end(api, session_id: str, lines: list[str]) -> None:
    _open(api, session_id)
    _say(api, session_id, [("user", line) for line in lines])
    _ok(api.post(f"/api/v1/sessions/{session_id}/end"), 200)


def _meant(body: dict, mention: str) -> list[str]:
    found = [r for r in body["resolutions"] if r["mention"].lower() == mention.lower()]
    assert found, (mention, body["resolutions"])
    return [entity["name"] for entity in found[-1]["entities"]]


def _edges(api, **params) -> dict:
    body = _ok(api.get(f"/api/v1/graph?{urlencode({'user_id': USER, **params})}"), 200)
    return {(row["subject"], row["predicate"], row["object"]): row for row in body["results"]}


def _context(api, query: str, **extra) -> dict:
    return _ok(api.post("/api/v1/context", {"user_id": USER, "query": query, **extra}), 200)


def _profile(body: dict) -> list[dict]:
    return [item for block in body["blocks"] if block["name"] == "user_profile" for item in block["items"]]


def _habits(body: dict) -> list[dict]:
    return [item for item in _profile(body) if item.get("reason") == "habit_time"]


def _reminder(api, reminder_id: int) -> dict:
    return _ok(api.get(f"/api/v1/reminders/{reminder_id}"), 200)


@pytest.fixture
def stack(tmp_path):
    queue = f"h14e-e2e-{uuid.uuid4().hex[:8]}"
    logs = tmp_path / "logs"
    logs.mkdir()
    services = ServiceStack(queue=queue, logs=logs)
    try:
        yield services
    finally:
        services.stop()
        forget_queue(queue)


def test_cognitive_continuity_through_http_across_a_restart(stack):
    slug = f"e2e-{uuid.uuid4().hex[:8]}"
    tenant, _ = tenant_get_or_create(slug=slug, actor=Actor.system("tests.e2e"))
    key = api_key_create(tenant=tenant, name="e2e", scopes=["read", "write", "propose", "admin"],
                         actor=Actor.system("tests.e2e")).plaintext
    now = timezone.now()
    start = now - timedelta(hours=1)  # the smart-home conversation began an hour ago (crafted occurred_at)

    with WebhookReceiver(SECRET) as receiver:
        stack.start()
        api = stack.api(key)
        before = stack.scrape()
        settings = _ok(api.put("/api/v1/reminder-settings", {
            "time_zone": "Asia/Shanghai", "webhook_url": receiver.url, "webhook_secret": SECRET}), 200)
        assert settings["time_zone"] == "Asia/Shanghai" and settings["webhook_secret_set"] is True

        # (a) what 'it' and 'that' mean, said in each append's answer
        _open(api, "home")
        body = _say(api, "home", [
            ("user", "打开客厅的灯"), ("assistant", "好的，客厅灯已打开。"),
            ("user", "卧室空调调到26度"), ("assistant", "卧室空调已设为26度。"),
            ("user", "把它调亮一点")], start)
        assert _meant(body, "它") == ["客厅的灯"], "调亮 fits the lamp, not the more recent air conditioner"
        session_block = next(block for block in _context(api, "调亮", session_id="home")["blocks"]
                             if block["name"] == "session")
        assert "它 = 客厅的灯" in session_block["content"], session_block["content"]
        body = _say(api, "home", [("user", "Turn on the porch light"), ("assistant", "The porch light is on."),
                                  ("user", "Dim it to 40 percent")], start + timedelta(minutes=5))
        assert _meant(body, "it") == ["porch light"]
        body = _say(api, "home", [("user", "My sister Mia is coming over tonight"),
                                  ("user", "Is she here yet?")], start + timedelta(minutes=8))
        assert _meant(body, "she") == ["sister Mia"], "a person for 'she', never a lamp"
        body = _say(api, "home", [("user", "那个空调再调低两度")], start + timedelta(minutes=10))
        assert _meant(body, "那个空调") == ["卧室空调"]
        body = _say(api, "home", [("user", "There's a blue speaker and a white speaker in the study"),
                                  ("assistant", "Both are on."), ("user", "Play some jazz on the blue one"),
                                  ("user", "Is the hallway light or the garage light on?"),
                                  ("assistant", "The garage light is on."), ("user", "Switch that one off")],
                    start + timedelta(minutes=11))
        assert _meant(body, "the blue one") == ["blue speaker"] and _meant(body, "that one") == ["garage light"]
        assert [r["mention"] for r in body["resolutions"]] == ["the blue one", "that one"], "existential there's"
        entities = _ok(api.get("/api/v1/sessions/home/entities"), 200)["results"]
        names = [entity["name"] for entity in entities]
        assert {"客厅的灯", "卧室空调", "porch light", "sister Mia", "blue speaker", "garage light"} <= set(names), names
        lamp = next(entity for entity in entities if entity["name"] == "客厅的灯")
        assert lamp["type"] == "device" and lamp["first_turn"] == 1 and lamp["mentions"] >= 2

        # (b) reminders set from turns; one fulfilled, one withdrawn, one left to deliver
        said = start + timedelta(minutes=30)
        body = _say(api, "home", [("user", "remind me in 20 minutes to call Anna")], said)
        (anna,) = body["reminders"]
        assert anna["action"] == "created" and anna["text"] == "call Anna"
        assert datetime.fromisoformat(_reminder(api, anna["reminder_id"])["due_at"]) == said + timedelta(minutes=20)
        body = _say(api, "home", [("user", "等会儿提醒我关灯")], said + timedelta(minutes=1))
        (lights,) = body["reminders"]
        assert lights["action"] == "created" and lights["text"] == "关灯"
        body = _say(api, "home", [("user", "现在关掉")], said + timedelta(minutes=2))
        (fulfilled,) = body["reminders"]
        assert (fulfilled["action"], fulfilled["reminder_id"]) == ("fulfilled", lights["reminder_id"])
        body = _say(api, "home", [("user", "明天早上7点提醒我开窗帘")], said + timedelta(minutes=3))
        (curtains,) = body["reminders"]
        due = datetime.fromisoformat(_reminder(api, curtains["reminder_id"])["due_at"]).astimezone(SHANGHAI)
        assert (due.date(), due.hour) == ((said + timedelta(minutes=3)).astimezone(SHANGHAI).date()
                                          + timedelta(days=1), 7)
        body = _say(api, "home", [("user", "别提醒了")], said + timedelta(minutes=4))
        (withdrawn,) = body["reminders"]
        assert (withdrawn["action"], withdrawn["reminder_id"]) == ("cancelled", curtains["reminder_id"])
        statuses = {r["id"]: (r["status"], r["cancel_reason"], r["cancelled_by_turn_seq"])
                    for r in _ok(api.get(f"/api/v1/reminders?user_id={USER}"), 200)["results"]}
        assert statuses[anna["reminder_id"]][0] == "pending"
        # each recorded with the turn that did it
        assert statuses[lights["reminder_id"]] == ("cancelled", "fulfilled", fulfilled["turn_seq"])
        assert statuses[curtains["reminder_id"]] == ("cancelled", "withdrawn", withdrawn["turn_seq"])
        assert withdrawn["turn_seq"] == fulfilled["turn_seq"] + 2 == anna["turn_seq"] + 4
        assert not receiver.received, "nothing is dispatched before beat runs"

        # the restart: gunicorn and the worker die (SIGKILL) and come back; then beat's dispatcher runs
        stack.kill()
        stack.start()
        api = stack.api(key)
        stack.start_beat()

        def anna_delivered():
            reminder = _reminder(api, anna["reminder_id"])
            return reminder if reminder["status"] == "delivered" else None
        delivered = wait_for(anna_delivered, timeout=120, interval=0.5, message="the webhook delivery")
        assert delivered["delivered_via"] == "webhook" and delivered["delivery_attempts"] == 1

        # (c) a job change said in a later session closes the old edge
        _talk_and_end(api, "job-1", ["我在网易做产品经理。"])
        wait_for(lambda: ("user", "works_at", "网易") in _edges(api, entity="user"), timeout=120, interval=0.5,
                 message="the first employer's edge")
        _talk_and_end(api, "job-2", ["上个月我跳槽去了字节。"])
        wait_for(lambda: ("user", "works_at", "字节") in _edges(api, entity="user"), timeout=120, interval=0.5,
                 message="the new employer's edge")
        current = _edges(api, entity="user")
        assert ("user", "works_at", "网易") not in current, current
        history = _edges(api, entity="user", include_closed="true")
        old = history[("user", "works_at", "网易")]
        assert old["valid_to"] is not None and old["provenance"]["session_id"] == "job-1"
        assert history[("user", "works_at", "字节")]["valid_to"] is None
        # leaving the job without naming the next one closes its edge too (policy.long_term.ending_keys)
        _talk_and_end(api, "job-3", ["我从字节离职了。"])
        wait_for(lambda: ("user", "worked_at", "字节") in _edges(api, entity="user"), timeout=120, interval=0.5,
                 message="the former employer's edge")
        assert ("user", "works_at", "字节") not in _edges(api, entity="user")
        history = _edges(api, entity="user", include_closed="true")
        assert history[("user", "works_at", "字节")]["valid_to"] is not None

        # (e) a conditional preference, said once, served under its condition only
        _talk_and_end(api, "drive-1", ["Please keep me off highways, unless I'm driving to the airport."])

        def airport_variant():
            served = {item["memory_id"]: item for item in _profile(_context(api, "navigate to the airport"))}
            return next((item for item in served.values() if item.get("reason") == "condition_match"), None)
        airport = wait_for(airport_variant, timeout=120, interval=0.5, message="the airport variant")
        assert airport["condition"] == {"destination": ["airport"]}
        assert airport["memory_key"] == "user.preference.route.highways"
        office = {item["memory_id"]: item for item in _profile(_context(api, "navigate to the office"))}
        assert airport["memory_id"] not in office
        assert [item["reason"] for item in office.values() if item["memory_id"] in airport["overrides"]] \
            == ["condition_default"], (airport, office)

        # (d) five evenings of the same request around 22:00 in Shanghai, the last one yesterday
        yesterday = now.astimezone(SHANGHAI).date() - timedelta(days=1)
        requests = ["播放白噪音", "放点白噪音吧", "帮我放一下白噪音", "来点白噪音", "play some white noise"]
        for days_ago, (minutes, text) in enumerate(zip((10, -15, 5, 20, -5), requests)):
            day = yesterday - timedelta(days=days_ago)
            moment = datetime(day.year, day.month, day.day, 22, 0, tzinfo=SHANGHAI) + timedelta(minutes=minutes)
            session_id = f"evening-{day:%Y%m%d}"
            _open(api, session_id)
            _say(api, session_id, [("user", text), ("assistant", "好的")], moment)
        tonight = datetime(now.year, now.month, now.day, tzinfo=SHANGHAI)  # any day: the pattern is daily
        at_ten = (tonight + timedelta(hours=22, minutes=2)).isoformat()
        habit = wait_for(lambda: next((h for h in _habits(_context(api, "晚安", now=at_ten)) if h["support"] == 5),
                                      None), timeout=120, interval=0.5, message="the mined habit, support 5")
        assert habit["kind"] == "habit" and habit["memory_key"] == "habit.play.white_noise"
        assert habit["pattern"] == "daily" and habit["time_zone"] == "Asia/Shanghai"
        assert _habits(_context(api, "早上好", now=(tonight + timedelta(hours=8)).isoformat())) == []

        # delivered exactly once: beat's dispatcher was sent twice more after all the above, the worker
        # (the only one since beat started) finished every run beat sent, and nothing more reached the receiver
        sent = stack.beat_sent(DISPATCH)
        wait_for(lambda: stack.beat_sent(DISPATCH) >= sent + 2, timeout=90, interval=0.5,
                 message="two more dispatcher runs")
        sent = stack.beat_sent(DISPATCH)
        wait_for(lambda: stack.worker_done("reminders.tasks.reminders_dispatch") >= sent, timeout=90, interval=0.5,
                 message="the worker to finish every dispatcher run")
        key_of_anna = delivered["idempotency_key"]
        assert [request["key"] for request in receiver.received] == [key_of_anna]
        assert all(request["valid"] for request in receiver.received), "HMAC-signed"
        assert list(receiver.processed) == [key_of_anna]
        payload = receiver.processed[key_of_anna]
        assert payload["event"] == "reminder.due" and payload["reminder"]["text"] == "call Anna"
        assert payload["reminder"]["session_id"] == "home"
        assert _reminder(api, anna["reminder_id"])["status"] == "delivered"

        # (f) the metrics moved
        after = stack.scrape()
        assert moved(before, after, "memoryhub_retrievals_total", tenant=slug, layer="context", served="true") >= 2
        assert value(after, "memoryhub_hit_rate", tenant=slug, layer="context") > 0
        assert moved(before, after, "memoryhub_reminders", tenant=slug, layer="reminders", status="delivered") == 1
        assert moved(before, after, "memoryhub_reminders", tenant=slug, layer="reminders", status="cancelled") == 2
        assert moved(before, after, "memoryhub_pronoun_mentions", tenant=slug, layer="transient",
                     resolved="true") >= 4
        assert value(after, "memoryhub_pronoun_resolution_rate", tenant=slug, layer="transient") > 0
