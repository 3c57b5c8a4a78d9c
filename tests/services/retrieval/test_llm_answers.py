"""The LLM answer path against a local OpenAI-compatible server: streaming, grounding, citations, memory."""

from __future__ import annotations

import pytest

from services.retrieval.ask import AskService
from services.settings import Settings
from services.stores.llm import LLMClient
from tests.utils.fake_openai import FakeOpenAI


def _ask_service(services, base_url, **overrides):
    settings = services.settings.model_copy(update=overrides)
    llm = LLMClient(Settings(openai_base_url=base_url, llm_model="fake-chat"))
    return AskService(settings=settings, retriever=services.ask.retriever, conversations=services.conversations,
                      memory=services.memory, embedder=services.embedder, llm=llm, diagrams=services.diagrams)


def test_streamed_grounded_answer_with_citations(services, zorbex):
    name, ids = zorbex
    with FakeOpenAI(lambda messages, request: "Ivana Petrova founded Zorbex [1]. She also ran for mayor [9].") as server:
        ask = _ask_service(services, server.base_url)
        pieces = []
        result = ask.ask("Who founded Zorbex?", collections=[name], on_token=pieces.append)
        body = server.requests[-1]["body"]
    assert body["stream"] is True
    assert "ONLY the numbered context" in body["messages"][0]["content"]
    assert "[1] (Founding) Ivana Petrova founded Zorbex" in body["messages"][-1]["content"]
    assert len(pieces) > 3 and "".join(pieces).startswith("Ivana Petrova founded Zorbex [1]")
    assert result.answer.mode == "generated"
    assert result.answer.text == "Ivana Petrova founded Zorbex [1]. She also ran for mayor ."
    assert result.answer.citations == {1: result.context[0].chunk_id} and result.answer.dropped_citations == 1


def test_nothing_relevant_does_not_call_the_model(services, zorbex):
    name, _ = zorbex
    with FakeOpenAI(lambda messages, request: "should not be asked") as server:
        result = _ask_service(services, server.base_url).ask("Neutron star crust chromodynamics", collections=[name])
        assert server.requests == []
    assert result.answer.mode == "nothing"


@pytest.mark.parametrize("offset, injected", [(0.0, True), (0.01, False)])
def test_memory_fact_is_injected_at_the_threshold_and_not_below(services, zorbex, offset, injected):
    name, _ = zorbex
    question = "Who founded Zorbex, the sensor company?"
    fact = services.memory.remember("I am researching the sensor company Zorbex")
    try:
        similarity = next(f.similarity for f in services.memory.recall(question) if f.id == fact.id)
        with FakeOpenAI(lambda messages, request: "Ivana Petrova [1].") as server:
            ask = _ask_service(services, server.base_url, memory_threshold=similarity + offset)
            result = ask.ask(question, collections=[name])
            messages = server.requests[-1]["body"]["messages"]
        note = {"role": "user", "content": "Just so you know, I am researching the sensor company Zorbex"}
        assert (note in messages) is injected
        if injected:
            assert messages[messages.index(note) + 1] == {"role": "assistant", "content": "Got it."}
            assert result.diagnostics["memory"].startswith("injected")
        else:
            assert result.diagnostics["memory"].startswith("not injected")
        assert "researching" not in messages[0]["content"]  # never in the system prompt
    finally:
        services.memory.forget(fact.id)
