"""Main flows through the real pages with AppTest: create a collection, ingest, search, view, edit."""

from __future__ import annotations

import time
import uuid

from tests.utils.app import open_page


def _wait_for_job(services, job_id: int, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = services.jobs.get(job_id)
        if job.status != "running":
            return job.status
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still running after {timeout}s")


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def test_create_collection_validates_and_creates(services):
    name = f"ui-{uuid.uuid4().hex[:8]}"
    at = open_page("collections")
    at.text_input[0].set_value(name)
    at.text_area[0].set_value("   ")  # description required
    _button(at, "Create").click().run()
    assert not at.exception
    assert any("needs a description" in e.value for e in at.error)

    at.text_area[0].set_value("A collection from the UI test.")
    at.text_area[1].set_value('{"custom": {"year": "integer"')  # broken JSON
    _button(at, "Create").click().run()
    assert any("not valid JSON" in e.value for e in at.error)

    at.text_area[1].set_value('{"custom": {"year": {"type": "integer", "required": true}}}')
    _button(at, "Create").click().run()
    assert not at.exception
    assert any(name in s.value for s in at.success)
    created = services.collections.get(name)
    assert created.metadata_schema["custom"]["year"] == {"type": "integer", "required": True}
    services.deletion.delete_collection(name)


def test_ingest_text_then_search_and_open_document(services, collection):
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    form_inputs = [t for t in at.text_input if t.label == "Title"]
    form_inputs[0].set_value("Lighthouse keeping")
    next(t for t in at.text_area if t.label == "Text").set_value(
        "The lighthouse keeper trimmed the wick every evening so that ships could pass the reef safely."
    )
    _button(at, "Ingest text").click().run()
    assert not at.exception
    job_id = at.session_state["ingest.job_id"]
    assert _wait_for_job(services, job_id) == "done"
    assert services.jobs.get(job_id).progress["ingested"] == 1

    # The same request again is refused as a duplicate title, with the reason shown.
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    [t for t in at.text_input if t.label == "Title"][0].set_value("Lighthouse keeping")
    next(t for t in at.text_area if t.label == "Text").set_value("Different words entirely about gardens.")
    _button(at, "Ingest text").click().run()
    second = at.session_state["ingest.job_id"]
    _wait_for_job(services, second)
    items = services.jobs.get(second).items
    assert items[0]["status"] == "skipped" and "reingest" in items[0]["reason"]

    at = open_page("search")
    at.text_input(key="search.query").set_value("maritime beacon caretaker")
    at.multiselect(key="search.scope").set_value([collection])
    at.radio(key="search.mode").set_value("semantic")
    next(b for b in at.button if b.label == "Search").click().run()
    assert not at.exception
    response = at.session_state["search.response"]
    assert response.hits and response.hits[0].title == "Lighthouse keeping"

    doc_id = response.hits[0].document_id
    at = open_page("documents", query={"doc": str(doc_id), "chunk": "0"})
    assert not at.exception
    assert any(h.value == "Lighthouse keeping" for h in at.subheader)


def test_search_shows_errors_inline(services, collection):
    at = open_page("search")
    at.text_input(key="search.query").set_value("anything")
    at.text_input(key="search.filters").set_value('{"year": {"between": 3}}')
    next(b for b in at.button if b.label == "Search").click().run()
    assert not at.exception
    assert any("unknown operator" in e.value for e in at.error)


def test_documents_metadata_update_and_delete(services, collection):
    from services.ingest.requests import text_request

    result = services.ingestion.run(text_request(collection, title="Editable", text="Some text to edit later."))
    doc_id = result.items[0]["document_id"]
    at = open_page("documents", query={"doc": str(doc_id)})
    next(t for t in at.text_area if t.label.startswith("Set fields")).set_value('{"reviewed": true}')
    next(b for b in at.button if b.label == "Update metadata").click().run()
    assert not at.exception
    assert services.documents.get(doc_id, with_chunks=False).summary.metadata == {"reviewed": True}

    at.checkbox(key="documents.confirm_delete").check().run()
    at.button(key="documents.delete").click().run()
    assert not at.exception
    assert services.documents.list(collection_id=services.collections.get(collection).id) == []
