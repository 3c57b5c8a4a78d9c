"""Ingestion: reading files (text, Markdown, HTML, Word, PDF with OCR) into text and chunks, the per-file
time budget and Cancel, and the pipeline that embeds, stores and builds each document's graph step as a
background job with progress. Above the stores and the top-level services; the web crawler builds on it.

May import: `services.stores`, `services.collections`, `services.documents`, `services.jobs`,
`services.metadata_schema`, `services.page_ref`, `services.errors`, `services.settings`.
"""
