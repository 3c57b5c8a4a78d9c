"""Bad input typed into the Ingest, Search, Graph and Documents pages: a clear message, never an exception.

AppTest runs the real app (router and page) on the session's stores; ``at.exception``
must stay empty and the message must say what was wrong.
"""

from __future__ import annotations

import pytest

from tests.reliability import corpus
from tests.reliability.conftest import assert_nothing_stored
from tests.utils.app import open_page
from tests.utils.ingest import wait_for_job

DEEP = "[" * 50_000 + "]" * 50_000


@pytest.fixture(autouse=True)
def clear_streamlit_caches(services):
    import streamlit as st

    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _errors(at) -> list[str]:
    assert not at.exception, at.exception
    return [e.value for e in at.error]


def _ingest_text(collection: str, *, metadata: str, title: str = "UI bad input", text: str = "Some words."):
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    at.text_input(key="ingest.metadata").set_value(metadata)
    next(t for t in at.text_input if t.label == "Title").set_value(title)
    next(t for t in at.text_area if t.label == "Text").set_value(text)
    _button(at, "Ingest text").click().run()
    return at


@pytest.mark.parametrize(("metadata", "message"), [
    (DEEP, "Metadata is not valid JSON: it is nested too deeply."),
    ('{"year": NaN}', "Metadata is not valid JSON: NaN is not a JSON value"),
    ('{"year": 2001,', "Metadata is not valid JSON"),
    ("[1, 2]", "Metadata must be a JSON object"),
], ids=["deep", "nan", "broken", "list"])
def test_ingest_page_refuses_bad_metadata_json(services, schema_collection, since, metadata, message):
    at = _ingest_text(schema_collection, metadata=metadata)
    assert any(message in e for e in _errors(at)), _errors(at)
    assert at.session_state["ingest.job_id"] is None  # nothing was started
    assert_nothing_stored(services, schema_collection, ["UI bad input"], since)


def test_ingest_page_says_why_schema_breaking_metadata_is_refused_before_a_job(services, schema_collection, since):
    at = _ingest_text(schema_collection, metadata='{"year": "nineteen", "published": "2023-13-45"}')
    assert any("'year' must be an integer, got 'nineteen'" in e for e in _errors(at)), _errors(at)
    assert at.session_state["ingest.job_id"] is None  # every file of the ingest would have failed: none started
    assert_nothing_stored(services, schema_collection, ["UI bad input"], since)


def test_ingest_page_directory_of_bad_files_reports_each(services, collection, since, tmp_path):
    (tmp_path / "bomb.docx").write_bytes(corpus.docx_zip_bomb())
    (tmp_path / "binary.txt").write_bytes(corpus.elf_bytes())
    (tmp_path / "deep.html").write_bytes(corpus.nested_html())
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    at.text_input(key="ingest.dir_path").set_value(str(tmp_path)).run()
    at.button(key="ingest.dir_go").click().run()
    job = wait_for_job(services, at.session_state["ingest.job_id"])
    assert job.status == "failed" and [i["status"] for i in job.items] == ["failed"] * 3
    at.run()
    assert [e for e in _errors(at) if not e.startswith("Failed: nothing was stored")] == []  # the job's red verdict
    assert set(at.dataframe[0].value["file"]) == {"bomb.docx", "binary.txt", "deep.html"}
    assert_nothing_stored(services, collection, ["bomb.docx", "binary.txt", "deep.html"], since)


def test_ingest_page_refuses_a_directory_outside_the_allowed_roots(services, collection, allowed_root):
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    at.text_input(key="ingest.dir_path").set_value(f"{allowed_root}/../..").run()
    at.button(key="ingest.dir_preview").click().run()
    assert any("outside the allowed directories" in e for e in _errors(at))
    at.button(key="ingest.dir_go").click().run()
    assert any("outside the allowed directories" in e for e in _errors(at))
    assert at.session_state["ingest.job_id"] is None


@pytest.mark.parametrize(("query", "filters", "message"), [
    ("x" * 10_000, "", "A query is at most 2000 characters."),
    ("harbour", DEEP, "Filters is not valid JSON: it is nested too deeply."),
    ("harbour", '{"year": {"gte": 1e999}}', "no NaN or infinite"),
    ("harbour", '{"year": {"between": [1, 2]}}', "unknown operator 'between'"),
], ids=["query-10k", "filters-deep", "filters-overflow", "filters-operator"])
def test_search_page_refuses_absurd_input(services, collection, query, filters, message):
    at = open_page("search")
    at.text_input(key="search.query").set_value(query)
    at.text_input(key="search.filters").set_value(filters)
    _button(at, "Search").click().run()
    assert any(message in e for e in _errors(at)), _errors(at)


def test_graph_page_with_absurd_entity_text_shows_no_match(services):
    from tests.utils.stories import make_acme

    name = make_acme(services)
    try:
        at = open_page("graph", query={"collection": name, "entity": "\x00" + "}) DETACH DELETE n //" * 400})
        assert not _errors(at)
        assert any("No entity matches" in i.value for i in at.info)
        assert services.graph.counts([services.collections.get(name).id]) == {"entities": 4, "facts": 3}
    finally:
        services.deletion.delete_collection(name)


def test_documents_page_with_an_absurd_document_id(services):
    at = open_page("documents", query={"doc": "9" * 40})
    assert any("No document with id" in e for e in _errors(at)), _errors(at)
