"""Absurd parameters to the services: each is clamped (and said so) or refused with ValidationFailed.

Search clamps ``limit`` to 1–200 and ``threshold`` to [-1, 1] and adds a note; it
refuses what is not a finite number. Graph hops outside 1–3 are refused (a 50-hop
variable-length Cypher match is a denial of service), list limits are clamped.
"""

from __future__ import annotations

import pytest

from services.errors import NotFound, ValidationFailed
from services.ingest.pipeline import IngestRequest
from services.ingest.requests import directory_request, text_request
from tests.utils.stories import make_acme


@pytest.fixture(scope="module")
def acme(services):
    """Three documents and a small graph: Alice, Bob, then Carol CEO of Acme."""
    name = make_acme(services)
    yield name
    services.deletion.delete_collection(name)


def _search(services, acme, **kw):
    kw.setdefault("query", "CEO of Acme")
    return services.search.search(kw.pop("query"), collections=[acme], **kw)


@pytest.mark.parametrize(("params", "hits", "note"), [
    ({"limit": 10**9, "threshold": -1}, 3, "limit 1000000000 is outside 1–200; 200 was used."),
    ({"limit": 0}, 1, "limit 0 is outside 1–200; 1 was used."),
    ({"limit": -5, "mode": "keyword"}, 1, "limit -5 is outside 1–200; 1 was used."),
    ({"limit": "2", "mode": "semantic", "threshold": -1}, 2, None),
    ({"threshold": -1, "mode": "semantic"}, 3, None),
    ({"threshold": 7, "mode": "semantic"}, 0, "threshold 7 is outside -1 to 1; 1 was used."),
    ({"threshold": -7, "mode": "semantic"}, 3, "threshold -7 is outside -1 to 1; -1 was used."),
    ({"query": "Acme\x00CEO", "mode": "keyword"}, 3, None),
], ids=["limit-1e9", "limit-0", "limit-negative", "limit-numeric-string", "threshold-minus-1", "threshold-7",
        "threshold-minus-7", "nul-in-query"])
def test_search_clamps_absurd_numbers_and_says_so(services, acme, params, hits, note):
    response = _search(services, acme, **params)
    assert len(response.hits) == hits
    assert (note in response.notes) if note else not [n for n in response.notes if "outside" in n]
    assert response.hits == sorted(response.hits, key=lambda h: h.score, reverse=True)


@pytest.mark.parametrize(("params", "message"), [
    ({"limit": "ten"}, "limit must be a number, got 'ten'"),
    ({"limit": float("inf")}, "limit must be a finite number"),
    ({"limit": None}, "limit must be a number"),
    ({"threshold": float("nan")}, "threshold must be a finite number"),
    ({"threshold": True}, "threshold must be a number"),
    ({"query": "x" * 10_000}, "at most 2000 characters"),
    ({"query": " \n\t "}, "Type something"),
    ({"mode": "telepathic"}, "mode must be semantic, keyword or hybrid"),
    ({"filters": {"year": float("nan")}}, "no NaN or infinite"),
    ({"filters": {"year": {"gte": float("inf")}}}, "no NaN or infinite"),
    ({"filters": {"deep": {"in": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}},
     "nested too deeply"),
    ({"filters": {"year": {"between": [1, 2]}}}, "unknown operator 'between'"),
    ({"filters": ["year", 1990]}, "must be a JSON object"),
], ids=["limit-word", "limit-inf", "limit-none", "threshold-nan", "threshold-bool", "query-10k-word", "query-blank",
        "mode-unknown", "filter-nan", "filter-inf", "filter-deep", "filter-operator", "filter-list"])
def test_search_refuses_what_is_not_a_sane_parameter(services, acme, params, message):
    with pytest.raises(ValidationFailed, match=message.replace("(", r"\(").replace("[", r"\[")):
        _search(services, acme, **params)


def test_a_1999_character_single_word_query_runs(services, acme):
    word = "acme" * 499 + "xyz"
    assert len(word) == 1999
    for mode in ("keyword", "semantic", "hybrid"):
        assert _search(services, acme, query=word, mode=mode, threshold=0.99).hits == []


@pytest.mark.parametrize(("depth", "message"), [
    (50, "Depth must be between 1 and 3, not 50"), (0, "between 1 and 3"), (-1, "between 1 and 3"),
    ("deep", "Depth must be a whole number, got 'deep'"), (float("inf"), "whole number"),
], ids=["depth-50", "depth-0", "depth-negative", "depth-word", "depth-inf"])
def test_graph_neighbourhood_refuses_absurd_depth(services, acme, depth, message):
    cid = services.collections.get(acme).id
    with pytest.raises(ValidationFailed, match=message):
        services.graph.neighbourhood(cid, "acme", depth=depth)


def test_graph_paths_refuse_50_hops_and_clamp_limits(services, acme):
    cid = services.collections.get(acme).id
    with pytest.raises(ValidationFailed, match="max_hops must be between 1 and 3, not 50"):
        services.graph.paths(cid, "alice", "carol", max_hops=50)
    whole = services.graph.neighbourhood(cid, "acme", depth=3, limit=10**9)
    assert len(whole.facts) == 3
    assert len(services.graph.neighbourhood(cid, "acme", depth=1, limit=-4).facts) == 1
    assert len(services.graph.find_entities("", [cid], limit=10**9)) == 4
    assert len(services.graph.find_entities("", [cid], limit=0)) == 1
    assert len(services.graph.facts_of_entity("acme", [cid], limit=10**12)) == 3
    with pytest.raises(ValidationFailed, match="limit must be a whole number"):
        services.graph.find_entities("acme", [cid], limit="all")


def test_absurd_ingest_requests_are_refused_before_a_job(services, collection, tmp_path):
    with pytest.raises(ValidationFailed, match="control characters"):
        text_request(collection, title="Null\x00title", text="Body.")
    with pytest.raises(ValidationFailed, match="needs a title"):
        text_request(collection, title=" \t\n", text="Body.")
    with pytest.raises(ValidationFailed, match="The text is empty"):
        text_request(collection, title="Blank", text="\n\n   ")
    with pytest.raises(ValidationFailed, match="mode must be"):
        services.ingestion.run(IngestRequest(collection, "text", "destroy", text_request(collection, title="t",
                                                                                         text="x").items))
    with pytest.raises(NotFound):
        services.ingestion.run(text_request("no-such-collection-" + "z" * 90, title="t", text="x"))
    (tmp_path / "only.bin").write_bytes(b"x")
    with pytest.raises(ValidationFailed, match="no files matched"):
        services.ingestion.run(directory_request(collection, str(tmp_path), settings=services.settings,
                                                 include=["*.md"]))
    assert services.collections.get(collection).document_count == 0
