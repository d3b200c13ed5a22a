"""TTL sweeps: dry runs, deletion, parents resumed, and the real worker."""
from datetime import timedelta

import pytest
from django.utils import timezone

from layers.short_term.services import session_open
from layers.transient.models import TaskState, TaskStatus
from layers.transient.selectors import task_stack
from layers.transient.services import task_start, task_states_sweep_expired, task_update
from layers.transient.tasks import task_states_sweep_expired_task
from memoryhub.core.actors import Actor
from tests.support.actors import TEST_ACTOR


@pytest.fixture
def chat(tenant):
    session, _ = session_open(tenant=tenant, session_id="chat-1", user_id="bob", actor=Actor.system("tests"))
    return session


def _expire(task, seconds_ago=1):
    TaskState.objects.filter(pk=task.pk).update(expires_at=timezone.now() - timedelta(seconds=seconds_ago))


@pytest.mark.django_db
def test_sweep_dry_run_counts_then_forgets_expired_tasks(chat, booking_type, weather_type):
    old = task_start(session=chat, task_type_name="book_flight", actor=TEST_ACTOR).task
    kept = task_start(session=chat, task_type_name="check_weather", actor=TEST_ACTOR).task
    _expire(old)
    assert task_states_sweep_expired(dry_run=True) == {"dry_run": True, "expired": 0, "resumed_parents": 0,
                                                       "would_expire": 1}
    assert TaskState.objects.filter(pk=old.pk).exists()
    result = task_states_sweep_expired()
    assert result["expired"] == 1
    assert list(TaskState.objects.values_list("pk", flat=True)) == [kept.pk]
    assert task_states_sweep_expired()["expired"] == 0


@pytest.mark.django_db
def test_sweeping_an_expired_subtask_resumes_its_parent(chat, booking_type, weather_type):
    booking = task_start(session=chat, task_type_name="book_flight", slots={"出发地": "北京"}, actor=TEST_ACTOR).task
    weather = task_start(session=chat, task_type_name="check_weather", parent_id=booking.pk, actor=TEST_ACTOR).task
    assert [t.pk for t in task_stack(session=chat)] == [weather.pk, booking.pk]
    _expire(weather)
    # Not served even before the sweep runs.
    assert [t.pk for t in task_stack(session=chat)] == [booking.pk]
    result = task_states_sweep_expired()
    assert result == {"dry_run": False, "expired": 1, "resumed_parents": 1, "would_expire": 1}
    booking.refresh_from_db()
    assert booking.status == TaskStatus.COLLECTING and booking.resume_status == ""


@pytest.mark.django_db
def test_a_parent_whose_subtask_expired_unswept_resumes_on_its_next_update(chat, booking_type, weather_type):
    booking = task_start(session=chat, task_type_name="book_flight", actor=TEST_ACTOR).task
    weather = task_start(session=chat, task_type_name="check_weather", parent_id=booking.pk, actor=TEST_ACTOR).task
    _expire(weather)
    change = task_update(task=booking, slots={"出发地": "北京", "目的地": "上海", "日期": "周三"}, actor=TEST_ACTOR)
    assert change.task.status == TaskStatus.READY
    assert not TaskState.objects.filter(pk=weather.pk).exists()


@pytest.mark.django_db
def test_work_on_a_subtask_keeps_its_parent_alive(chat, booking_type, weather_type):
    booking = task_start(session=chat, task_type_name="book_flight", actor=TEST_ACTOR).task
    weather = task_start(session=chat, task_type_name="check_weather", parent_id=booking.pk, actor=TEST_ACTOR).task
    TaskState.objects.filter(pk=booking.pk).update(expires_at=timezone.now() + timedelta(seconds=5))
    task_update(task=weather, slots={"城市": "上海"}, actor=TEST_ACTOR)
    booking.refresh_from_db()
    assert booking.expires_at > timezone.now() + timedelta(minutes=29)


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_sweep_runs_on_a_real_worker(celery_worker, chat, booking_type, weather_type):
    booking = task_start(session=chat, task_type_name="book_flight", actor=TEST_ACTOR).task
    weather = task_start(session=chat, task_type_name="check_weather", parent_id=booking.pk, actor=TEST_ACTOR).task
    _expire(weather)
    assert task_states_sweep_expired_task.delay(dry_run=True).get(timeout=60)["would_expire"] == 1
    assert TaskState.objects.filter(pk=weather.pk).exists()
    result = task_states_sweep_expired_task.delay().get(timeout=60)
    assert result == {"dry_run": False, "expired": 1, "resumed_parents": 1, "would_expire": 1}
    assert not TaskState.objects.filter(pk=weather.pk).exists()
    assert TaskState.objects.get(pk=booking.pk).status == TaskStatus.COLLECTING
