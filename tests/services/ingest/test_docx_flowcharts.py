"""Flowcharts in real .docx files against their ground truth (../shared/data/flowchart-docx).

Thresholds: for shape-drawn flowcharts we require exact graphs, i.e. node-text
precision and recall, node-kind accuracy, and edge (source, target, label)
precision and recall all equal to 1.0. The picture flowchart must be kept as an
image diagram without a graph (no vision model is configured in tests).
"""

from __future__ import annotations

import json
import uuid

import pytest

from services.errors import UnsupportedInput
from services.ingest.docx_reader import read_docx
from services.ingest.parsing import parse_bytes
from services.ingest.requests import directory_request, files_request

FILES = ["expense-reimbursement-policy", "it-change-management-process", "customer-complaint-handling",
         "vendor-onboarding-checklist"]
THRESHOLD = 1.0


def _truth(shared_data, name):
    return json.loads((shared_data / "flowchart-docx" / f"{name}.truth.json").read_text())


def _scores(pred, truth):
    ptext = {n.id: n.text for n in pred.nodes}
    ttext = {n["id"]: n["text"] for n in truth["nodes"]}
    pn, tn = set(ptext.values()), set(ttext.values())
    kinds = {n["text"]: n["kind"] for n in truth["nodes"]}
    kind_ok = sum(1 for n in pred.nodes if kinds.get(n.text) == n.kind)
    pe = {(ptext[e.source], ptext[e.target], e.label) for e in pred.edges}
    te = {(ttext[e["source"]], ttext[e["target"]], e["label"]) for e in truth["edges"]}
    return {
        "node_precision": len(pn & tn) / max(len(pn), 1), "node_recall": len(pn & tn) / max(len(tn), 1),
        "kind_accuracy": kind_ok / max(len(tn), 1),
        "edge_precision": len(pe & te) / max(len(pe), 1), "edge_recall": len(pe & te) / max(len(te), 1),
    }


@pytest.mark.parametrize("name", FILES)
def test_diagrams_match_ground_truth(shared_data, name, record_property):
    truth = _truth(shared_data, name)
    blocks = read_docx((shared_data / "flowchart-docx" / f"{name}.docx").read_bytes(), name).blocks
    diagrams = [b.diagram for b in blocks if b.kind == "diagram"]
    assert len(diagrams) == len(truth["diagrams"])
    for pred, expected in zip(diagrams, truth["diagrams"]):
        assert pred.layout == expected["layout"]
        if expected["representation"] == "image":
            assert pred.representation == "image" and pred.image and pred.image[:8] == b"\x89PNG\r\n\x1a\n"
            assert not pred.nodes
            continue
        scores = _scores(pred, expected)
        record_property(f"{name}#{expected['index']}", scores)
        assert all(value >= THRESHOLD for value in scores.values()), scores


@pytest.mark.parametrize("name", FILES)
def test_reading_order_matches_ground_truth(shared_data, name):
    truth = _truth(shared_data, name)
    blocks = read_docx((shared_data / "flowchart-docx" / f"{name}.docx").read_bytes(), name).blocks
    got = [(b.kind, b.text if b.kind not in ("table", "diagram") else None) for b in blocks]
    want = [(b["type"], b.get("text") if b["type"] not in ("table", "diagram") else None) for b in truth["blocks"]]
    assert got == want
    tables = [b.rows for b in blocks if b.kind == "table"]
    assert tables == [t["rows"] for t in truth.get("tables", [])]


@pytest.fixture(scope="module")
def procs(services, shared_data):
    name = f"procs-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Process documents with flowcharts.")
    result = services.ingestion.run(directory_request(name, str(shared_data / "flowchart-docx"),
                                                      settings=services.settings, include=["*.docx"]))
    assert result.count("ingested") == 4, result.items
    yield name
    services.deletion.delete_collection(name)


def test_chunks_around_each_diagram_carry_its_id(services, procs, shared_data):
    import sqlalchemy as sa

    for name in FILES:
        truth = _truth(shared_data, name)
        with services.engine.connect() as conn:
            doc_id = conn.execute(sa.text("SELECT id FROM documents WHERE source LIKE :s"),
                                  {"s": f"%/{name}.docx"}).scalar_one()
            chunks = conn.execute(sa.text("SELECT text, metadata FROM chunks WHERE document_id = :d"), {"d": doc_id}).all()
        ids = services.diagrams.for_document(doc_id)
        assert len(ids) == len(truth["diagrams"])
        for diagram_id, expected in zip(ids, truth["diagrams"]):
            for side in ("text_before", "text_after"):
                holding = [c for c in chunks if expected[side][:80] in c.text]
                assert holding, (name, side)
                assert any(diagram_id in c.metadata.get("diagram_ids", []) for c in holding), (name, side)


def test_search_next_to_a_diagram_returns_it_with_mermaid(services, procs):
    response = services.search.search(
        "The employee's manager approves the claim, confirming that the expense was necessary",
        collections=[procs], mode="hybrid", limit=3)
    top = response.hits[0]
    assert top.title == "expense-reimbursement-policy.docx"
    view = services.diagrams.get(top.chunk_metadata["associated_diagram_id"])
    text = view.mermaid
    assert text.startswith("flowchart TD")
    assert '{"Manager approves?"}' in text  # a decision is a diamond
    assert '(["Expense incurred"])' in text  # start/end are rounded
    assert '-->|"Yes"|' in text and '-->|"No"|' in text


def test_graph_holds_each_diagram_as_a_subgraph(services, procs, shared_data):
    truth = _truth(shared_data, "it-change-management-process")
    cid = services.collections.get(procs).id
    rows = services.graph_store.query("MATCH (n:DiagramNode {collection_id: $c}) RETURN n.diagram_id AS d, count(n) AS n",
                                      {"c": cid})
    counts = sorted(r["n"] for r in rows)
    assert sorted([10, 11] + [len(d["nodes"]) for d in truth["diagrams"]]) == counts
    for row in rows:
        nodes, edges = services.graph.diagram(row["d"])
        assert len(nodes) == row["n"] and edges


def test_deleting_the_document_removes_its_diagrams(services, shared_data):
    name = f"one-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Delete test.")
    data = (shared_data / "flowchart-docx" / "customer-complaint-handling.docx").read_bytes()
    item = services.ingestion.run(files_request(name, [("c.docx", data)], settings=services.settings)).items[0]
    assert item["status"] == "ingested", item
    doc_id = item["document_id"]
    [diagram_id] = services.diagrams.for_document(doc_id)
    services.deletion.delete_document(doc_id)
    assert services.graph.diagram(diagram_id) == ([], [])
    assert services.diagrams.for_document(doc_id) == []
    services.deletion.delete_collection(name)


@pytest.mark.parametrize("data, reason", [
    (b"", "empty"),
    (b"PK\x03\x04 truncated", "corrupt, truncated"),
    (b"just some text renamed", "corrupt, truncated"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "an OLE file"),
])
def test_bad_docx_is_refused_and_nothing_is_written(services, collection, data, reason):
    with pytest.raises(UnsupportedInput, match=reason):
        parse_bytes(data, "bad.docx", max_bytes=10**7)
    result = services.ingestion.run(files_request(collection, [("bad.docx", data)], settings=services.settings))
    assert result.items[0]["status"] == "failed" and reason.split(",")[0] in result.items[0]["reason"]
    assert "bad.docx" not in result.items[0]["reason"]
    assert services.documents.list(collection_id=services.collections.get(collection).id) == []


def test_truncated_real_docx_is_refused(services, collection, shared_data):
    data = (shared_data / "flowchart-docx" / "expense-reimbursement-policy.docx").read_bytes()
    with pytest.raises(UnsupportedInput):
        parse_bytes(data[: len(data) // 2], "half.docx", max_bytes=10**7)
