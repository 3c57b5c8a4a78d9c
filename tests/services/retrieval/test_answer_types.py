"""The offline answer is composed for the question (real stores, real model, real spaCy): the answer type picks
the sentence and marks its span, a quoted speaker is not the speaker, a question about several takes several
sources, each named by its metadata, and an answer says plainly when no sentence of the asked type is there."""

from __future__ import annotations

import re
import uuid

import pytest

from services.ingest.requests import text_request
from services.retrieval.ranked_chunk import RankedChunk

SPEECHES = [
    ("Annual message 1846", "James K. Polk", 1846,
     "The existing war with Mexico was neither desired nor provoked by the United States. "
     "As President Van Buren declared to Congress in 1837, the wrongs we had suffered from Mexico would justify "
     "in the eyes of all nations immediate war. Our army has since advanced to the Rio Grande."),
    ("Annual message 1897", "William McKinley", 1897,
     "A protective tariff has built up our manufactures and given work to millions of our people. "
     "The new tariff law will raise revenue enough to meet the expenses of the Government."),
    ("Annual message 1909", "William Howard Taft", 1909,
     "The revision of the tariff which Congress has completed lowered the duties on many articles of common use. "
     "The postal deficit remains a burden that economy in the service must remove."),
    ("Annual message 1986", "Ronald Reagan", 1986,
     "Protectionist tariffs would cost American jobs and raise prices for every family. "
     "We will press our trading partners to open their markets instead of raising tariffs of our own."),
    ("Company profile", None, None,
     "Zorbex was founded by Ivana Petrova in 2001. The company is based in Oslo, Norway. "
     "Zorbex employs 340 engineers in three factories. Its sensors measure the pressure in oil pipelines."),
]
SCHEMA = {"custom": {"president": {"type": "string"}, "year": {"type": "integer"}}}


@pytest.fixture(scope="module")
def speeches(services):
    name = f"speeches-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="Answer types.", metadata_schema=SCHEMA)
    for title, president, year, text in SPEECHES:
        metadata = {"president": president, "year": year} if president else {}
        services.ingestion.run(text_request(name, title=title, text=text, metadata=metadata))
    yield name
    services.deletion.delete_collection(name)


def first_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("- "))


@pytest.mark.parametrize(("question", "span"), [
    ("Who founded Zorbex?", "Ivana Petrova"),
    ("When was Zorbex founded?", "2001"),
    ("Where is Zorbex based?", "Oslo"),
    ("How many engineers does Zorbex employ?", "340"),
])
def test_the_answer_type_picks_the_sentence_and_marks_its_span(services, speeches, question, span):
    result = services.ask.ask(question, collections=[speeches])
    assert result.answer.mode == "extracted", result.answer.text
    assert f"**{span}**" in first_line(result.answer.text), result.answer.text
    assert "name no" not in result.answer.text


def test_each_sentence_names_its_source_by_metadata(services, speeches):
    result = services.ask.ask("When was Zorbex founded?", collections=[speeches])
    assert first_line(result.answer.text).startswith("- Company profile: ")  # no metadata: the title
    tariff = services.ask.ask("What did Ronald Reagan say about protectionist tariffs?", collections=[speeches])
    assert first_line(tariff.answer.text).startswith("- Ronald Reagan, 1986: "), tariff.answer.text


def test_a_quoted_speaker_is_not_the_speaker(services, speeches):
    result = services.ask.ask("Which president talked about the war with Mexico?", collections=[speeches])
    line = first_line(result.answer.text)
    assert line.startswith("- **James K. Polk**, 1846: "), result.answer.text
    assert "**Van Buren**" not in result.answer.text and "**President Van Buren**" not in result.answer.text
    assert result.diagnostics["question"]["who_said"] is True
    quoting = [ln for ln in result.answer.text.splitlines() if "Van Buren declared" in ln]
    assert quoting and "(quoting" in quoting[0] and "Van Buren" in quoting[0].split("(quoting")[1]


def test_what_did_several_say_takes_several_sources(services, speeches):
    result = services.ask.ask("What did presidents say about tariffs?", collections=[speeches])
    lines = [ln for ln in result.answer.text.splitlines() if ln.startswith("- ")]
    speakers = [re.match(r"- ([^:]+), \d{4}: ", ln).group(1) for ln in lines if re.match(r"- ([^:]+), \d{4}: ", ln)]
    assert len(lines) == 3 and len(set(speakers)) == 3, result.answer.text
    assert set(speakers) == {"William McKinley", "William Howard Taft", "Ronald Reagan"}, result.answer.text
    assert result.diagnostics["question"]["several"] is True
    assert len(set(result.answer.citations.values())) == 3


def test_no_sentence_of_the_asked_type_is_said_plainly(services):
    name = f"opera-{uuid.uuid4().hex[:8]}"
    services.collections.create(name=name, description="No person here.")
    try:
        services.ingestion.run(text_request(name, title="Opera house", text=(
            "The opera house on the waterfront opened in 2008 after five years of building. "
            "Its white marble roof slopes down into the fjord, so visitors can walk up onto it.")))
        result = services.ask.ask("Who designed the opera house on the waterfront?", collections=[name])
        assert result.answer.text.startswith("The passages found name no person that answers this question"), \
            result.answer.text
        assert "[1]" in result.answer.text  # the closest sentences still come, cited
        typed = services.ask.ask("When did the opera house on the waterfront open?", collections=[name])
        assert "**2008**" in typed.answer.text and "name no" not in typed.answer.text
    finally:
        services.deletion.delete_collection(name)


def test_an_extractive_answer_quotes_a_repeated_sentence_once(services):
    """Overlapping chunks hold the same sentence: the answer quotes it once, cited to its first chunk."""
    same = "Long before the advance of our Army to the Rio Grande we had ample cause of war against Mexico."
    context = [RankedChunk(1, 1, "1846", chunk_index=0, text=f"The session opened. {same}", score=1.0),
               RankedChunk(2, 1, "1846", chunk_index=1, text=f"{same} Congress was told so.", score=0.9)]
    question = "Why was there war with Mexico?"
    answer = services.ask.answerer.answer(question, question, context, [])
    assert answer.text.count(same) == 1 and answer.citations[1] == 1, answer.text
    assert answer.sentences.count(same) == 1
