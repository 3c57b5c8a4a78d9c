"""The stores and the models behind them: PostgreSQL (embedded or ``DATABASE_URL``: the engine, migrations,
the embedded server's life cycle and memory), the chunk table's SQL (semantic and BM25 ranking), the graph
store (embedded FalkorDB, a FalkorDB server or Neo4j), the embedding model and query encoder, and the LLM
client. It is the bottom layer: it knows nothing of collections, ingestion or retrieval.

May import: `services.errors`, `services.settings`, `services.redaction`, `services.metadata_schema`,
`services.long_lived`, `services.torch_guard`.
"""
