"""Ask's offline answer, end to end: the question's shape, the evidence from the stores, the composed answer.

No sentence is embedded (the stored chunk vectors stand for their sentences' meaning, and the question's vector
is the one retrieval computed without torch), spaCy reads the question and a dozen candidate sentences, and
PostgreSQL splits the sentences into BM25's index terms in one statement. :mod:`services.retrieval.compose`
says how the sentences are chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from sqlalchemy.engine import Engine

from services.retrieval.answer import Answer, map_citations
from services.retrieval.compose import Candidate, Evidence, candidate_sentences, choose, context_order, render
from services.retrieval.question import QuestionShape, shape
from services.retrieval.ranked_chunk import RankedChunk
from services.stores import answer_terms

if TYPE_CHECKING:
    from services.stores.embeddings import TextEmbedder

NER_OFF = ["parser", "tagger", "attribute_ruler", "lemmatizer", "senter"]


class ExtractiveAnswerer:
    def __init__(self, engine: Engine, embedder: TextEmbedder, nlp: Callable[[], Any]) -> None:
        self.engine = engine
        self.embedder = embedder
        self._nlp = nlp  # spaCy's pipeline (loaded once per process by services.graph.nlp.load_spacy)

    def nlp(self) -> Any:
        return self._nlp()

    def shape(self, question: str) -> QuestionShape:
        return shape(self.nlp()(question))

    def ner(self, texts: list[str]) -> list[Any]:
        nlp = self.nlp()
        return list(nlp.pipe(texts, disable=[n for n in NER_OFF if n in nlp.pipe_names]))

    def evidence(self, query: str, candidates: list[Candidate], context: list[RankedChunk],
                 collection_ids: list[int], speaker: str = "") -> Evidence:
        titles = list(dict.fromkeys(c.title for c in context))
        with self.engine.connect() as conn:
            metadata = answer_terms.document_metadata(conn, list({c.document_id for c in context}))
            docs = list(metadata)
            described = [" ".join(f"{k} {v}" for k, v in metadata[d].items() if isinstance(v, (str, int))) for d in docs]
            texts = [query, speaker, *titles, *described, *(c.text for c in candidates)]
            terms = answer_terms.index_terms(conn, texts)
            question_terms = terms[0]
            k = 2 + len(titles)
            by_title = dict(zip(titles, terms[2:k], strict=True))
            idf = answer_terms.idf(conn, question_terms, collection_ids)
            vectors = answer_terms.chunk_vectors(conn, [c.chunk_id for c in context])
        q = self.embedder.embed_query(query)
        similarity = {cid: float(np.dot(v, q)) for cid, v in vectors.items() if v.shape == q.shape}
        return Evidence(question_terms, idf, terms[k + len(docs):],
                        {n: by_title[c.title] for n, c in enumerate(context, start=1)}, similarity, metadata,
                        terms[1] & question_terms, dict(zip(docs, terms[k: k + len(docs)], strict=True)))

    def answer(self, question: str, query: str, context: list[RankedChunk], collection_ids: list[int],
               diagnostics: dict[str, Any] | None = None) -> Answer:
        asked = self.shape(question)
        candidates = candidate_sentences(context)
        if not candidates:
            return Answer("", "nothing")
        ev = self.evidence(query, candidates, context, collection_ids, asked.speaker)
        picked = choose(asked, candidates, ev, self.ner)
        if diagnostics is not None:
            diagnostics["question"] = {"answer_type": asked.answer_type, "why": asked.why, "several": asked.several,
                                       "who_said": asked.who_said, "speaker": asked.speaker}
        if not picked:
            return Answer("", "nothing")
        lines, preface = render(asked, picked, ev)
        text, citations, dropped = map_citations("\n".join(([preface] if preface else []) + lines), context)
        first: dict[int, str] = {}
        for c in picked:
            first.setdefault(c.chunk.chunk_id, c.text)
        quotes = {n: first[cid] for n, cid in citations.items() if cid in first}
        return Answer(text, "extracted", citations, dropped, quotes, sentences=[c.text for c in picked])

    def order(self, query: str, context: list[RankedChunk], collection_ids: list[int]) -> list[RankedChunk]:
        """The context in the order the offline answer would rank it (the LLM's prompt gets this order)."""
        candidates = candidate_sentences(context)
        if not candidates:
            return context
        return context_order(candidates, self.evidence(query, candidates, context, collection_ids), context)
