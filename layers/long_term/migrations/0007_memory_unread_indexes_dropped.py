"""Drop the two memory indexes no query reads (issue 16 item 3).

The per-user search scores the owner's rows found through the (tenant, user_id, status) B-tree: an exact
cosine and BM25 over each row's term-frequency map (layers/long_term/selectors/search.py). Neither the
HNSW index on `embedding` nor the GIN index on `search_vector` is in any plan, yet every insert paid
for both. Sizes and ingest rate before and after: docs/benchmarks.md, "Bulk import and storage".
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('long_term', '0006_preference_correction'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='memory',
            name='ltm_embedding_hnsw',
        ),
        migrations.RemoveIndex(
            model_name='memory',
            name='ltm_search_vector_gin',
        ),
    ]
