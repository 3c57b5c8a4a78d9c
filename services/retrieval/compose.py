"""The offline answer, composed for the question from the context's sentences.

Each sentence is scored for what the question asks (:mod:`services.retrieval.question`):

- **coverage** of the question's index terms, each weighted by its BM25 IDF in the collections (a term the
  passage's title holds counts half: "It was directed by …" in the passage titled after the film). Sentences are
  picked greedily; a term an earlier pick covered counts 0.3, so later picks cover what is still missing
  (the second hop of a multi-hop question);
- the **semantic similarity** of its chunk to the question, from the stored chunk vectors (no sentence is
  embedded: a sentence's meaning beyond its words is its passage's);
- the **answer type**: a sentence naming a person, date, place, number, organisation or title of the asked
  kind, other than those the question names, scores higher, and that name is marked in bold as the span that
  answers. When no sentence of the context names one, the answer says so before the closest sentences;
- **diversity**: a question about several ("what did presidents say …") takes each document once before any
  twice; any other takes a second sentence of a document only when it adds enough;
- a passage whose title an earlier pick or the question names (a bridge entity) scores a little higher.

Each line names its source by metadata (:mod:`services.retrieval.sources`). For "who said" questions the
speaker is the source's, and a person the sentence quotes is said to be quoted, never given as the speaker.
spaCy's NER runs on the 8 best candidates only (of the 20 the choice is made among), so the phase stays in tens of milliseconds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.retrieval import sources
from services.retrieval.question import LABELS, QuestionShape
from services.retrieval.ranked_chunk import RankedChunk

_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(“])")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
NER_CANDIDATES = 8
POOL = 20
MAX_SENTENCES = 3
COVERED_AGAIN = 0.3
TITLE_WEIGHT = 0.5
SIMILARITY_WEIGHT = 0.5
TYPE_BONUS = 0.35
BRIDGE_BONUS = 0.15
SAME_DOCUMENT = 0.15
SAME_DOCUMENT_SEVERAL = 0.6


@dataclass
class Candidate:
    text: str
    n: int  # 1-based position of its chunk in the context
    chunk: RankedChunk
    terms: set[str] = field(default_factory=set)
    span: str | None = None  # the name of the asked type that answers, if any
    quoted: list[str] = field(default_factory=list)
    typed: bool = False


@dataclass
class Evidence:
    """What the composer reads from the stores (services.stores.answer_terms), gathered by AskService."""

    question_terms: set[str]
    idf: dict[str, float]
    sentence_terms: list[set[str]]
    title_terms: dict[int, set[str]]  # context position n -> its title's terms
    similarity: dict[int, float]  # chunk id -> cosine with the question
    metadata: dict[int, dict[str, Any]]  # document id -> metadata
    speaker_terms: set[str] = field(default_factory=set)  # the question's terms naming who said it
    source_terms: dict[int, set[str]] = field(default_factory=dict)  # document id -> its metadata's terms


def candidate_sentences(context: list[RankedChunk], *, limit: int = 120) -> list[Candidate]:
    """The context's sentences (25–600 characters, headings out), each once, in context order."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for n, chunk in enumerate(context, start=1):
        body = "\n".join(line for line in chunk.text.splitlines() if not line.lstrip().startswith("#"))
        for sentence in _SENTENCES.split(body):
            sentence = " ".join(sentence.split())
            if 25 <= len(sentence) <= 600 and sentence.casefold() not in seen:
                seen.add(sentence.casefold())
                out.append(Candidate(sentence, n, chunk))
    return out[:limit]


def _gain(c: Candidate, ev: Evidence, covered: set[str]) -> float:
    total = sum(ev.idf.get(t, 1.0) for t in ev.question_terms) or 1.0
    title = ev.title_terms.get(c.n, set())
    source = ev.source_terms.get(c.chunk.document_id, set())
    gain = 0.0
    for t in ev.question_terms:
        if t in ev.speaker_terms:  # who said it: the source's metadata says so; a sentence naming them, barely
            gain += ev.idf.get(t, 1.0) * (1.0 if t in source else COVERED_AGAIN if t in c.terms else 0.0)
            continue
        w = ev.idf.get(t, 1.0) * (COVERED_AGAIN if t in covered else 1.0)
        gain += w if t in c.terms else TITLE_WEIGHT * w if t in title else 0.0
    return gain / total


def _base(c: Candidate, ev: Evidence) -> float:
    return SIMILARITY_WEIGHT * ev.similarity.get(c.chunk.chunk_id, 0.0) + 0.05 / c.n


def _type_spans(shape: QuestionShape, candidates: list[Candidate], ev: Evidence,
                ner: Callable[[list[str]], list[Any]]) -> None:
    """Mark each candidate's answering name of the asked type (and the people it quotes), by spaCy's NER."""
    asked = _norm(shape.text)
    wanted = LABELS.get(shape.answer_type or "", set())
    for c, doc in zip(candidates, ner([c.text for c in candidates]), strict=True):
        people = [(e.start_char, e.end_char, e.text) for e in doc.ents if e.label_ == "PERSON"]
        c.quoted = sources.quoted_people(c.text, people)
        speaker = sources.speaker(ev.metadata.get(c.chunk.document_id, {}))
        if shape.who_said and speaker:
            c.typed, c.span = True, None  # the answer is the source's speaker, named in the label
            c.quoted = [p for p in c.quoted if not sources.same_person(p, speaker)]
            continue
        for e in doc.ents:
            if e.label_ in wanted and f" {_norm(e.text)} " not in f" {asked} ":
                if shape.who_said and e.text in c.quoted:
                    continue
                c.typed, c.span = True, e.text
                break


def _norm(text: str) -> str:
    return " ".join(_ARTICLE.sub("", re.sub(r"[^\w\s]", " ", text.lower())).split())


def choose(shape: QuestionShape, candidates: list[Candidate], ev: Evidence,
           ner: Callable[[list[str]], list[Any]] | None) -> list[Candidate]:
    """The sentences that answer, best first (at most MAX_SENTENCES)."""
    for c, terms in zip(candidates, ev.sentence_terms, strict=True):
        c.terms = terms
    pre = sorted(candidates, key=lambda c: -(_gain(c, ev, set()) + _base(c, ev)))
    pool = [c for c in pre if _gain(c, ev, set()) > 0 or ev.similarity.get(c.chunk.chunk_id, 0.0) >= 0.4]
    pool = pool[:POOL]
    if ner is not None and pool and (shape.answer_type or shape.who_said):
        _type_spans(shape, pool[:NER_CANDIDATES], ev, ner)
    picked: list[Candidate] = []
    covered: set[str] = set()
    while pool and len(picked) < MAX_SENTENCES:
        named = " ".join(c.text for c in picked).lower()
        best, best_score = None, float("-inf")
        for c in pool:
            s = _gain(c, ev, covered) + _base(c, ev) + (TYPE_BONUS if c.typed else 0.0)
            title = c.chunk.title.lower()
            if title and (title in named or title in " ".join(shape.entities).lower()) and \
                    all(p.chunk.document_id != c.chunk.document_id for p in picked):
                s += BRIDGE_BONUS
            same = sum(p.chunk.document_id == c.chunk.document_id for p in picked)
            s -= same * (SAME_DOCUMENT_SEVERAL if shape.several else SAME_DOCUMENT)
            if s > best_score:
                best, best_score = c, s
        assert best is not None
        if picked and best_score < 0.15:
            break
        picked.append(best)
        pool.remove(best)
        covered |= best.terms & ev.question_terms
    return picked


def render(shape: QuestionShape, picked: list[Candidate], ev: Evidence) -> tuple[list[str], str]:
    """The answer's lines (each cited as [n], its source named, its answering span in bold) and a preface
    saying plainly when no sentence names what the question asks for."""
    lines = []
    for c in picked:
        meta = ev.metadata.get(c.chunk.document_id, {})
        name = sources.label(meta, c.chunk.title)
        text = c.text
        if c.span:
            text = text.replace(c.span, f"**{c.span}**", 1)
        if shape.who_said and sources.speaker(meta):
            name = f"**{sources.speaker(meta)}**" + name[len(sources.speaker(meta) or ""):]
        note = f" (quoting {', '.join(c.quoted)})" if c.quoted else ""
        lines.append(f"- {name}: {text} [{c.n}]{note}")
    preface = ""
    if shape.answer_type and not any(c.typed for c in picked):
        preface = f"The passages found name no {shape.answer_type} that answers this question; the closest sentences:"
    return lines, preface


def context_order(candidates: list[Candidate], ev: Evidence, context: list[RankedChunk]) -> list[RankedChunk]:
    """The context reordered by its best sentence's score for the question (the LLM's prompt takes this order)."""
    for c, terms in zip(candidates, ev.sentence_terms, strict=True):
        c.terms = terms
    best: dict[int, float] = {}
    for c in candidates:
        best[c.chunk.chunk_id] = max(best.get(c.chunk.chunk_id, float("-inf")), _gain(c, ev, set()) + _base(c, ev))
    return sorted(context, key=lambda chunk: -best.get(chunk.chunk_id, float("-inf")))
