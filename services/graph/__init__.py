"""The temporal fact graph: entities and facts extracted from chunks (spaCy or an LLM), dated and resolved to
one node per thing, written to and read from the graph store; lookups, scenes and Mermaid diagrams for the
Graph and Timeline pages; curation (edits, history, undo, suggestions) and export. Above the stores, below
ingestion, retrieval and backup.

May import: `services.stores`, `services.document_graph` (the graph reads and marks documents only through it),
`services.errors`, `services.long_lived`, `services.torch_guard`. Collections are above the graph: lookups and
curation are handed a `CollectionService` and name its type only for the type checker.
"""
