"""Keep a memory's row in one piece.

A row is ~2.9 KB (a 2 KB vector, the term-frequency map, the tsvector, the text), above PostgreSQL's
default 2 KB TOAST target, so the vector (pgvector's storage is EXTERNAL) went to the TOAST table and
every search read each scored row twice: 4 buffers a row, and a detoast per cosine. With the target
raised to 4 KB and the vector stored MAIN (inline unless the row cannot fit a page), the owner's rows
are read from the heap alone. Existing rows take the new layout when rewritten (e.g. VACUUM FULL).
"""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("long_term", "0002_memory_tenant_unindexed"),
    ]

    operations = [
        migrations.RunSQL(
            sql=[
                "ALTER TABLE long_term_memory ALTER COLUMN embedding SET STORAGE MAIN",
                "ALTER TABLE long_term_memory SET (toast_tuple_target = 4080)",
            ],
            reverse_sql=[
                "ALTER TABLE long_term_memory RESET (toast_tuple_target)",
                "ALTER TABLE long_term_memory ALTER COLUMN embedding SET STORAGE EXTERNAL",
            ],
        ),
    ]
