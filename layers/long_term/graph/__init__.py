"""The relation graph of long-term memory: subject–predicate–object edges between entities, derived from
memories' keys, attributes and entities, each with its memory as provenance and a validity interval, and
the typed attribute schemas per memory_key family (docs/architecture.md, "Relation graph").

Part of the long-term room (docs/architecture.md): the long-term write path derives edges in its own
transaction, and search expands along them, so it sits beside memories rather than above them. Its own
Django app (`long_term_graph`) keeps its tables and migrations apart from the memories'.
"""
