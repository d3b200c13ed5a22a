"""Requests said at crafted moments, for the habit tests (formation, forgetting, context): no sleeping."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from layers.short_term.services import session_open, turns_append
from memoryhub.core.actors import Actor

ACTOR = Actor.system("tests.habits")
UTC = timezone.utc


def say_at(tenant, user_id: str, moments, *, metadata: dict | None = None) -> None:
    """Each (moment, text) as a user turn dated `moment` (and a reply), in one session per user and day."""
    for moment, text in moments:
        session, _ = session_open(tenant=tenant, session_id=f"{user_id}-{moment:%Y%m%d}", user_id=user_id,
                                  metadata=metadata, actor=ACTOR)
        reply = "好的" if any("\u4e00" <= char <= "\u9fff" for char in text) else "Sure."
        turns_append(session=session, actor=ACTOR, turns=[
            {"role": "user", "content": text, "occurred_at": moment.isoformat()},
            {"role": "assistant", "content": reply}])


def evenings(last: date, *, text: str = "播放白噪音", offsets=(-20, -5, 0, 10, 20), hour: int = 22):
    """One (moment, text) a day ending on `last`, at `hour`:00 UTC shifted by each offset in minutes."""
    first = last - timedelta(days=len(offsets) - 1)
    return [(datetime(first.year, first.month, first.day, hour, 0, tzinfo=UTC) + timedelta(days=i, minutes=m), text)
            for i, m in enumerate(offsets)]
