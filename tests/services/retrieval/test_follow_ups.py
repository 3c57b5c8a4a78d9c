"""Follow-ups are detected, not assumed: a replayed conversation keeps every standalone question standalone,
a "remember …" turn is never an antecedent, and a pronoun follow-up still resolves (real stores and spaCy)."""

from __future__ import annotations

import pytest

from services.retrieval.question import follow_up

STANDALONE = [
    "Which president talked about the Mexican war?",
    "What did 20th-century presidents say that matters for my focus?",
    "What did presidents say about tariffs?",
    "Who founded Zorbex?",
    "Is it true that Zorbex was founded in 2001?",
    "What did Lincoln say about his generals?",
    "When was the treaty signed and who signed it?",
    "Where is Zorbex based?",
]
FOLLOW_UPS = [
    "What does she grow?",
    "Who founded it?",
    "What about 1990?",
    "And in Oslo?",
    "What happened after that?",
    "Tell me more about him.",
    "Why did they do this?",
]


@pytest.fixture(scope="module")
def nlp(services):
    return services.ask.answerer.nlp()


@pytest.mark.parametrize("question", STANDALONE)
def test_a_question_that_needs_no_earlier_turn_is_standalone(nlp, question):
    needs, why = follow_up(nlp(question))
    assert not needs, why
    assert why.startswith("standalone")


@pytest.mark.parametrize("question", FOLLOW_UPS)
def test_a_pronoun_or_ellipsis_without_antecedent_is_a_follow_up(nlp, question):
    needs, why = follow_up(nlp(question))
    assert needs, why


def test_a_replayed_conversation_keeps_standalone_questions_standalone(services, zorbex):
    name, _ = zorbex
    turns = ["Who founded Zorbex?", "remember that I focus on industrial sensors",
             "What does Zorbex design?", "Where does Ivana Petrova grow tomatoes?",
             "What did founders say that matters for my focus?", "Is it true that Zorbex was founded in 2001?"]
    conversation = None
    for question in turns:
        result = services.ask.ask(question, conversation_id=conversation, collections=[name])
        conversation = result.conversation_id
        if result.answer.mode == "memory":
            continue
        why = result.diagnostics["follow_up"]
        assert why.startswith("not a follow-up"), (question, why)
    follow = services.ask.ask("What does she grow?", conversation_id=conversation, collections=[name])
    assert follow.diagnostics["follow_up"].startswith("resolved against the previous turn's entities"), \
        follow.diagnostics["follow_up"]
    assert "'she' has no antecedent" in follow.diagnostics["follow_up"]
    assert "tomatoes" in follow.answer.text


def test_a_remember_turn_is_never_the_antecedent(services, zorbex):
    name, _ = zorbex
    first = services.ask.ask("Who founded Zorbex?", collections=[name])
    services.ask.ask("remember that I grow peppers", conversation_id=first.conversation_id, collections=[name])
    follow = services.ask.ask("What does she grow?", conversation_id=first.conversation_id, collections=[name])
    assert "Ivana Petrova" in follow.diagnostics["follow_up"]  # the answered turn before it, not the memory
    assert "tomatoes" in follow.answer.text
    fact = next(f for f in services.memory.list() if f.text == "I grow peppers")
    services.memory.forget(fact.id)
