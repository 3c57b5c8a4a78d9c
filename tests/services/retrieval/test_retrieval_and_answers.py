"""Graph-aware retrieval, fusion, citations and the offline (extractive) Ask path on real stores."""

from __future__ import annotations

import numpy as np
import pydantic
import pytest

from services.retrieval.answer import map_citations, quoted_sentences
from services.retrieval.fusion import mmr, round_robin, rrf
from services.retrieval.ranked_chunk import RankedChunk
from services.settings import Settings


def test_weighted_rrf_arithmetic_and_order():
    fused = rrf([([1, 2, 3], 0.6), ([3, 4], 0.3), ([4], 0.3)], 60)
    assert fused[1] == 0.6 / 61
    assert abs(fused[3] - (0.6 / 63 + 0.3 / 61)) < 1e-12
    assert abs(fused[4] - (0.3 / 62 + 0.3 / 61)) < 1e-12
    assert sorted(fused, key=fused.get, reverse=True) == [3, 1, 4, 2]  # 0.6/61 > 0.3/62 + 0.3/61


def test_round_robin_takes_each_list_in_turn_each_id_once():
    order, score = round_robin([[1, 2, 3], [2, 4], [5, 1, 6, 7]])
    assert order == [1, 2, 5, 4, 3, 6, 7]  # round 1: 1, 2, 5; round 2: (2), 4, (1); round 3: 3, 6; round 4: 7
    assert score == {1: 1.0, 2: 1.0, 5: 1.0, 4: 0.5, 3: 1 / 3, 6: 1 / 3, 7: 0.25}
    assert round_robin([]) == ([], {}) and round_robin([[], [9]]) == ([9], {9: 1.0})


def test_mmr_prefers_novelty_over_a_near_duplicate():
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    vectors = np.array([[1.0, 0.0, 0.0], [0.999, 0.045, 0.0], [0.7, 0.714, 0.0]], dtype=np.float32)
    assert mmr(q, vectors, [1.0, 0.99, 0.7], 2, lam=0.5) == [0, 2]
    assert mmr(q, vectors, [1.0, 0.99, 0.7], 2, lam=1.0) == [0, 1]


def test_citation_mapping_drops_markers_that_point_nowhere():
    context = [RankedChunk(11, 1, "a", chunk_index=0, text="x", score=1.0), RankedChunk(22, 2, "b", chunk_index=0, text="y", score=0.5)]
    text, citations, dropped = map_citations("First [1]. Second [2][7]. Third [0].", context)
    assert citations == {1: 11, 2: 22} and dropped == 2
    assert text == "First [1]. Second [2]. Third ."


def test_citations_are_numbered_in_order_of_first_use_with_the_sentence_they_quote():
    context = [RankedChunk(11, 1, "a", chunk_index=0, text="Rain fell. Alice founded Acme in 2001. Bob sells kites.", score=1.0),
               RankedChunk(22, 2, "b", chunk_index=0, text="Nothing here.", score=0.9),
               RankedChunk(33, 3, "c", chunk_index=0, text="Carol runs Acme today. It grew fast.", score=0.5)]
    text, citations, dropped = map_citations("Carol runs Acme [3]. Alice founded it [1], Carol said [3].", context)
    assert text == "Carol runs Acme [1]. Alice founded it [2], Carol said [1]."
    assert citations == {1: 33, 2: 11} and dropped == 0
    assert quoted_sentences(text, citations, context) == {1: "Carol runs Acme today.",
                                                          2: "Alice founded Acme in 2001."}


def test_graph_expansion_brings_in_a_chunk_semantic_search_misses(services, zorbex):
    name, ids = zorbex
    question = "Who founded Zorbex?"
    sims = {h.title: h.semantic_score for h in
            services.search.search(question, collections=[name], mode="semantic", threshold=-1, limit=10).hits}
    threshold = sims["Hobby"] + 0.01  # the hobby passage is below it: semantic search alone misses it
    assert sims["Founding"] >= threshold
    retriever = services.ask.retriever
    semantic_only = retriever.gather(question, [name], threshold=threshold, retrievers=("semantic",))
    assert "Hobby" not in {c.title for c in semantic_only.chunks}
    full = retriever.gather(question, [name], threshold=threshold)
    hobby = next(c for c in full.chunks if c.title == "Hobby")
    assert "graph" in hobby.list_ranks and "semantic" not in hobby.list_ranks
    assert "zorbex" in full.entities  # the walk started from the entity the question names


def test_extractive_answer_cites_its_sources(services, zorbex):
    name, ids = zorbex
    result = services.ask.ask("Who founded Zorbex?", collections=[name])
    assert result.answer.mode == "extracted"
    assert "Ivana Petrova founded Zorbex in 2001." in result.answer.sentences
    assert "**Ivana Petrova** founded Zorbex in 2001." in result.answer.text  # who: the person, marked
    cited = {c.chunk_id: c for c in result.context}
    assert result.answer.citations and all(chunk_id in cited for chunk_id in result.answer.citations.values())
    first = result.answer.citations[min(result.answer.citations)]
    assert cited[first].document_id == ids["Founding"]
    assert result.diagnostics["counts"]["semantic"] >= 1 and "total" in result.diagnostics["timings_ms"]


def test_follow_up_resolves_against_the_previous_turn(services, zorbex):
    name, ids = zorbex
    first = services.ask.ask("Who founded Zorbex?", collections=[name])
    follow = services.ask.ask("What does she grow?", conversation_id=first.conversation_id, collections=[name])
    assert follow.diagnostics["follow_up"].startswith("resolved against the previous turn's entities")
    assert "Ivana Petrova" in follow.diagnostics["follow_up"]
    assert "tomatoes" in follow.answer.text
    fresh = services.ask.ask("What does she grow?", collections=[name])
    assert fresh.diagnostics["follow_up"].startswith("not a follow-up")


def test_nothing_relevant_says_so(services, zorbex):
    name, _ = zorbex
    result = services.ask.ask("Quantum chromodynamics of neutron star crusts", collections=[name])
    assert result.answer.mode == "nothing" and "relevant" in result.answer.text
    assert result.context == [] and result.answer.citations == {}


def test_conversations_persist_across_a_restart_of_the_services(services, zorbex):
    from services.container import build_services

    name, _ = zorbex
    first = services.ask.ask("Who founded Zorbex?", collections=[name])
    services.conversations.rename(first.conversation_id, "Zorbex founders")
    again = build_services(services.settings, embedder=services.embedder)
    try:
        conv = again.conversations.get(first.conversation_id)
        turns = again.conversations.turns(first.conversation_id)
        assert conv.title == "Zorbex founders" and [t.role for t in turns] == ["user", "assistant"]
        assert turns[1].retrieved["chunks"] and turns[1].details["citations"]
    finally:
        again.close()
    services.conversations.delete(first.conversation_id)
    assert all(c.id != first.conversation_id for c in services.conversations.list())


def test_memory_commands(services):
    remembered = services.ask.ask("remember that I prefer short answers")
    assert remembered.answer.text == "Got it. I'll remember: I prefer short answers"
    listing = services.ask.ask("What do you remember about me?", conversation_id=remembered.conversation_id)
    assert "- I prefer short answers" in listing.answer.text
    fact = next(f for f in services.memory.list() if f.text == "I prefer short answers")
    services.memory.forget(fact.id)


def test_relative_score_fusion_keeps_confidence():
    from services.retrieval.fusion import relative_score_fusion

    fused = relative_score_fusion({"semantic": {1: 0.9, 2: 0.5, 3: 0.1}, "keyword": {3: 2.0, 4: 1.0}},
                                  {"semantic": 0.6, "keyword": 0.3})
    assert fused == {1: 0.6, 2: 0.6 * 0.5, 3: 0.0 + 0.3, 4: 0.0}
    assert max(fused, key=fused.get) == 1  # a strong semantic hit is not outranked by a chunk in both lists


def test_ask_fusion_setting_is_hops_or_rrf():
    assert Settings().ask_fusion == "hops"
    assert Settings(ask_fusion="rrf").ask_fusion == "rrf"
    with pytest.raises(pydantic.ValidationError):
        Settings(ask_fusion="sum")
