"""From conversation to graph: turns extracted offline become memories whose edges the graph serves, and
a job change said in a later session closes the old employer's edge."""
from __future__ import annotations

from urllib.parse import urlencode

from django.utils import timezone

from layers.formation.services import session_extract
from layers.short_term.services import session_end, session_open, turns_append
from memoryhub.core.actors import Actor

ACTOR = Actor.system("tests.graph")


def talk(tenant, session_id, user_id, lines):
    session, _ = session_open(tenant=tenant, session_id=session_id, user_id=user_id, actor=ACTOR)
    turns_append(session=session, actor=ACTOR, turns=[{"role": "user", "content": line} for line in lines])
    session_end(session=session, actor=ACTOR)
    session_extract(session_pk=session.pk)


def neighbours(api, **params):
    response = api.get(f"/api/v1/graph?{urlencode(params)}")
    assert response.status_code == 200, response.content
    return {(row["subject"], row["predicate"], row["object"]): row for row in response.json()["results"]}


def test_a_chinese_conversation_and_a_later_job_change(api, tenant):
    talk(tenant, "zh-1", "wang", ["我在网易工作。", "我女儿叫朵朵，今年7岁。", "我对花生过敏。"])
    before_change = timezone.now()
    talk(tenant, "zh-2", "wang", ["我跳槽到字节了。"])

    current = neighbours(api, user_id="wang", entity="user")
    assert {("user", "works_at", "字节"), ("user", "allergic_to", "花生"), ("user", "has_relative", "daughter")} \
        <= set(current)
    assert ("user", "works_at", "网易") not in current
    assert current[("user", "works_at", "字节")]["provenance"]["session_id"] == "zh-2"
    # 女儿 finds the extractor's role `daughter` (the keyword layer's zh/en synonyms), and its name.
    assert ("daughter", "named", "朵朵") in neighbours(api, user_id="wang", entity="女儿")
    past = neighbours(api, user_id="wang", entity="user", at=before_change.isoformat())
    assert ("user", "works_at", "网易") in past and ("user", "works_at", "字节") not in past
    history = neighbours(api, user_id="wang", entity="user", include_closed="true")
    assert history[("user", "works_at", "网易")]["valid_to"] is not None
    assert history[("user", "works_at", "网易")]["provenance"]["session_id"] == "zh-1"


def test_an_english_conversation(api, tenant):
    talk(tenant, "en-1", "anna", ["I work at Google.", "My daughter Emma is 7.", "I'm allergic to peanuts."])
    current = neighbours(api, user_id="anna", entity="user")
    assert ("user", "works_at", "Google") in current
    assert ("daughter", "named", "Emma") in neighbours(api, user_id="anna", entity="daughter")
    assert neighbours(api, user_id="wang", entity="user") == {}
