"""Backup and restore: collections, documents, chunks, graph facts and graph edits written to one zip
archive of JSON Lines as a stream, and read back with checks (format, versions, embedding model). It sits
above the stores and the graph.

May import: `services.stores`, `services.graph`, `services.collections`, `services.documents`,
`services.errors`.
"""
