"""Cancel stops a real job inside the stages that used to ignore it: reading a big Word file, graph extraction.

The Cancel is requested from inside the stage (the reader's first load, the extractor's
first segment), so each test is exact about where it lands without racing a clock.
How long a Cancel takes on a big document is measured in ``make bench`` (bench_docx).
"""

from __future__ import annotations

import pytest

from services.ingest.parsing import parse_bytes
from services.ingest.requests import files_request, text_request
from tests.utils.docx_build import large_docx
from tests.utils.ingest import scalar, sql

SENTENCE = "Acme Corporation hired Jane Smith in Berlin to lead the audit of its harbour ledger. "


def test_cancel_while_a_big_word_file_is_read_stops_the_reader_and_stores_nothing(services, collection):
    data = large_docx(20_000, styles=500, runs=2)
    request = files_request(collection, [("big-report.docx", data)], settings=services.settings)
    job_id, coll = services.ingestion.start(request)
    [item] = request.items

    def press_cancel_then_read():  # the user presses Cancel just as the reader starts
        services.jobs.request_cancel(job_id)
        return parse_bytes(data, "big-report.docx", max_bytes=10**9)

    item.load = press_cancel_then_read
    result = services.ingestion.execute(job_id, coll, request)
    assert result.status == "cancelled", result
    [entry] = result.items
    assert entry["status"] == "cancelled" and entry["reason"] == "The job was cancelled while this file was being read."
    assert result.progress["chunks_total"] == 0  # it never reached the chunker
    assert scalar(services, "SELECT count(*) FROM documents WHERE title = 'big-report.docx'") == 0
    assert services.jobs.get(job_id).status == "cancelled"


@pytest.fixture
def cancel_at_first_segment(services, monkeypatch):
    """The graph's extractor, which presses Cancel of ``job[0]`` when it is handed its first segment."""
    job: list[int] = []
    calls: list[int] = []
    real = services.graph.extractor

    def extractor(nodes, **kwargs):
        calls.append(len(nodes))
        if len(calls) == 1:
            services.jobs.request_cancel(job[0])
        return real(nodes, **kwargs)

    monkeypatch.setattr(services.graph, "_extractor", extractor)  # the property builds it lazily from here
    return job, calls


def test_cancel_during_graph_extraction_stops_between_segments_and_leaves_no_facts(services, collection,
                                                                                  cancel_at_first_segment):
    job, calls = cancel_at_first_segment
    text = "\n\n".join(SENTENCE * 8 for _ in range(50))  # about 35,000 characters: four segments or more
    request = text_request(collection, title="Long audit", text=text)
    job_id, coll = services.ingestion.start(request)
    job.append(job_id)
    result = services.ingestion.execute(job_id, coll, request)
    assert result.status == "cancelled", result
    [entry] = result.items
    assert entry["status"] == "cancelled" and entry["graph"] == "failed", entry
    assert entry["reason"] == ("Stored and searchable, but the job was cancelled before its graph step finished "
                               "(no facts stored); ingest the file again to finish it.")
    assert calls == [1]  # one segment at a time, and none after the Cancel
    doc_id = entry["document_id"]
    [row] = sql(services, "SELECT graph_status, graph_error, chunk_count, "
                          "(SELECT count(*) FROM chunks WHERE document_id = d.id) AS n FROM documents d WHERE id = :id",
                id=doc_id)
    assert row.graph_status == "failed" and "cancelled" in row.graph_error
    assert row.chunk_count == row.n > 0  # the document itself is whole
    facts = services.graph_store.query("MATCH ()-[r:FACT {document_id: $d}]->() RETURN count(r) AS n", {"d": doc_id})
    assert facts[0]["n"] == 0
    again = services.ingestion.run(text_request(collection, title="Long audit", text=text))  # finishes the graph
    assert again.items[0]["status"] == "repaired" and again.items[0]["graph"] == "done", again.items


def test_cancel_while_a_document_is_stored_rolls_its_write_back(services, collection, monkeypatch):
    from services import documents
    from services.stores import chunk_store

    monkeypatch.setattr(documents, "WRITE_BATCH", 4)  # a long write in miniature: 4 chunks between looks
    job: list[int] = []
    inserts: list[int] = []
    real_insert = chunk_store.insert_chunks

    def insert(conn, rows, **kwargs):  # Cancel is pressed while the first batch of chunks goes in
        inserts.append(len(rows))
        services.jobs.request_cancel(job[0])
        return real_insert(conn, rows, **kwargs)

    monkeypatch.setattr(chunk_store, "insert_chunks", insert)
    text = "\n\n".join(f"Paragraph {i} about the lighthouse keeper's ledger. " * 20 for i in range(12))
    request = text_request(collection, title="Keeper's ledger", text=text)
    job_id, coll = services.ingestion.start(request)
    job.append(job_id)
    result = services.ingestion.execute(job_id, coll, request)
    assert result.status == "cancelled", result
    [entry] = result.items
    assert entry["status"] == "cancelled", entry
    assert entry["reason"] == "The job was cancelled while this file was being stored; nothing of it was kept."
    assert inserts == [4]  # the second batch was never sent
    assert scalar(services, "SELECT count(*) FROM documents WHERE title = 'Keeper''s ledger'") == 0
    assert scalar(services, "SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id "
                            "WHERE d.title = 'Keeper''s ledger'") == 0
