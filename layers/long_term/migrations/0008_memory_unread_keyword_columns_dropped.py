"""Drop the token array and the tsvector generated from it (issue 16 item 3).

The keyword path reads each row's term-frequency map (layers/long_term/selectors/search.py); `keywords`
existed only to generate `search_vector` for the GIN index dropped in 0007, and no query read either.
Together ~190 bytes of a ~2,850-byte row: without them three rows fit a heap page instead of two (heap
4.06 -> 2.73 kB per memory measured on 50,000 imported memories; docs/benchmarks.md, "Bulk import and
storage"). Dropping a column rewrites nothing: existing rows shrink when rewritten (e.g. VACUUM FULL).
The generated column goes first, since it depends on the array.
"""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('long_term', '0007_memory_unread_indexes_dropped'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='memory',
            name='search_vector',
        ),
        migrations.RemoveField(
            model_name='memory',
            name='keywords',
        ),
    ]
