"""Edges follow every saved memory: Django's post_save of Memory runs inside the saving transaction
(supersession, merge, correction, delete, restore, revert, release), so the graph changes with it.
Bulk inserts send no signal; memory_create_batch calls memory_edges_sync for the rows it inserted."""
from django.db.models.signals import post_save
from django.dispatch import receiver

from layers.long_term.graph.services import memory_edges_sync
from layers.long_term.models import Memory

# Column-only saves that cannot change what a memory states (re-embedding, access statistics).
_IRRELEVANT = frozenset({"embedding", "embedding_model", "access_count", "last_accessed_at", "keywords",
                         "term_freqs", "doc_length"})


@receiver(post_save, sender=Memory, dispatch_uid="long_term_graph.memory_saved")
def memory_saved(sender, instance: Memory, raw=False, update_fields=None, **kwargs):
    if raw or (update_fields is not None and set(update_fields) <= _IRRELEVANT):
        return
    memory_edges_sync([instance])
