"""Re-embedding memories after the embedding model changed: the job behind `manage.py reembed`."""
from __future__ import annotations

from collections.abc import Callable

from layers.long_term.models import Memory
from layers.long_term.services.changes import memory_reembed
from memoryhub.core.actors import Actor
from memoryhub.providers.embeddings import Embedder, get_embedder


def memories_needing_reembed(embedder: Embedder | None = None):
    embedder = embedder or get_embedder()
    return Memory.objects.exclude(embedding_model=embedder.name)


def memories_reembed(*, batch_size: int = 100, limit: int | None = None, embedder: Embedder | None = None,
                     progress: Callable[[int, int], None] | None = None) -> dict:
    """Re-embed memories made by another model than `embedder` (the current provider), in id order.

    Resumable by construction: it selects what still carries another model's name, so an interrupted
    run is continued by running it again. Each memory is re-embedded through `memory_reembed`
    (locked, audited); vectors come from one provider call per batch. Search stays consistent
    meanwhile because a query only compares vectors of its own model. `progress(done, total)` is
    called after each batch.
    """
    embedder = embedder or get_embedder()
    pending = memories_needing_reembed(embedder)
    count = pending.count()
    if not count:  # the beat's usual case: one count and done
        return {"model": embedder.name, "reembedded": 0, "remaining": 0}
    total = count if limit is None else min(limit, count)
    done, last_id = 0, 0
    actor = Actor.system("long_term.reembed")
    while done < total:
        rows = list(pending.filter(pk__gt=last_id).order_by("id").values_list("pk", "content")
                    [:min(batch_size, total - done)])
        if not rows:
            break
        contents = list(dict.fromkeys(content for _, content in rows))
        vectors = dict(zip(contents, embedder.embed(contents)))
        for pk, _content in rows:
            memory = pending.filter(pk=pk).only("id", "tenant_id", "user_id").first()
            if memory is None:
                continue  # another run got there first, or it was purged
            memory_reembed(memory=memory, embedder=embedder, actor=actor, vectors=vectors)
        done += len(rows)
        last_id = rows[-1][0]
        if progress:
            progress(done, total)
    return {"model": embedder.name, "reembedded": done, "remaining": memories_needing_reembed(embedder).count()}
