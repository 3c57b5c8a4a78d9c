"""Ask: a question in a conversation → retrieval → a cited answer, facts, a diagram and diagnostics.

- "remember …" stores a memory fact; "what do you remember about me?" lists them.
- Memory facts above the threshold (at most 2) go into the prompt as earlier
  conversation turns ("Just so you know, …" / "Got it."), not as system text.
- A follow-up is detected, not assumed (services/retrieval/question.py): only a question that needs the
  previous turn ("what does she grow?", "what about 1990?", "what happened after that?") is resolved against
  the entities that turn retrieved; one that names its own subject is standalone, and a "remember …" turn is
  never an antecedent. The diagnostics say why either way.
- Offline, the answer is composed for the question (services/retrieval/extractive.py); with an LLM, the
  prompt's context comes in the order the offline answer would rank it.
- ``on_phase`` hears each phase as it starts (retrieving, walking the graph, composing), for a progress display.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from services.errors import ValidationFailed
from services.graph.mermaid import subgraph_to_mermaid
from services.graph.model import Fact
from services.page_ref import page_ref
from services.retrieval.answer import Answer, build_messages, generate
from services.retrieval.conversations import ConversationService
from services.retrieval.extractive import ExtractiveAnswerer
from services.retrieval.memory import MemoryService
from services.retrieval.question import follow_up
from services.retrieval.ranked_chunk import RankedChunk
from services.retrieval.retriever import GraphAwareRetriever
from services.settings import Settings
from services.stores.embeddings import in_background

if TYPE_CHECKING:
    from services.graph.diagrams import DiagramService
    from services.stores.embeddings import TextEmbedder
    from services.stores.llm import LLMClient

_REMEMBER = re.compile(r"^\s*(?:please\s+)?remember(?:\s+that)?[:,]?\s+(?P<fact>.+)$", re.I | re.S)
_RECALL = re.compile(r"\bwhat do you (?:remember|know) about me\b", re.I)
MAX_QUESTION = 2000
_NOT_STORED = {"text", "segments", "metadata"}  # a turn stores its context without the texts and document metadata
# Keyword evidence that makes passages relevant whatever their similarity (a question in another language
# than the text): the best keyword hit holds at least two of the question's words, carrying at least 60% of
# the weight (IDF) of the question's words that the collections hold at all.
KEYWORD_WORDS = 2
KEYWORD_SHARE = 0.6


@dataclass
class AskResult:
    conversation_id: int
    question: str
    answer: Answer
    context: list[RankedChunk] = field(default_factory=list)
    facts: list[Any] = field(default_factory=list)
    mermaid: str | None = None
    diagram_id: str | None = None
    diagnostics: dict[str, Any] = field(default_factory=dict)


class AskService:
    def __init__(self, *, settings: Settings, retriever: GraphAwareRetriever, conversations: ConversationService,
                 memory: MemoryService, embedder: TextEmbedder, llm: LLMClient | None = None,
                 diagrams: DiagramService | None = None) -> None:
        self.settings = settings
        self.retriever = retriever
        self.conversations = conversations
        self.memory = memory
        self.embedder = embedder
        self.llm = llm
        self.diagrams = diagrams
        self.answerer = ExtractiveAnswerer(retriever.core.engine, embedder, self._spacy)

    def of(self, *, conversations: ConversationService, memory: MemoryService) -> AskService:
        """The same Ask (retrieval, models) over one person's conversations and memory facts."""
        mine = copy.copy(self)
        mine.conversations, mine.memory = conversations, memory
        return mine

    def _spacy(self) -> Any:
        from services.graph.nlp import load_spacy

        return load_spacy(self.settings.spacy_model)

    def ask(self, question: str, *, conversation_id: int | None = None, collections: list[str] | None = None,
            on_token: Callable[[str], None] | None = None, on_phase: Callable[[str], None] | None = None) -> AskResult:
        question = (question or "").strip()
        if not question:
            raise ValidationFailed("Ask a question.")
        if len(question) > MAX_QUESTION:
            raise ValidationFailed(f"A question is at most {MAX_QUESTION} characters.")
        if conversation_id is None:
            conversation_id = self.conversations.create(title=question[:60], collections=collections or []).id
        history = self.conversations.turns(conversation_id, last=2 * self.settings.ask_history_turns)
        self.conversations.add_turn(conversation_id, "user", question)
        command = self._memory_command(question)
        if command is not None:
            result = AskResult(conversation_id, question, Answer(command, "memory"))
            self._record(result)
            return result
        diagnostics: dict[str, Any] = {}
        started = time.perf_counter()
        if self.llm is None or history:  # spaCy reads the question (and, offline, the answer's sentences)
            in_background(self._spacy, name="load-spacy")  # loads once per process, beside retrieval
        phase = on_phase or (lambda name: None)
        phase("retrieving")
        query, carried = self._resolve_follow_up(question, history, diagnostics)
        retrieval = self.retriever.gather(query, collections, limit=self.settings.ask_context_chunks,
                                          threshold=self.settings.search_threshold, extra_entities=carried,
                                          on_phase=phase)
        diagnostics.update(counts=retrieval.counts, timings_ms=retrieval.timings_ms,
                           best_similarity=retrieval.best_similarity, graph_entities=retrieval.entities)
        held, share = retrieval.keyword_evidence
        diagnostics["keyword_evidence"] = {"words": held, "idf_share": round(share, 3)}
        relevant = (retrieval.best_similarity is not None and retrieval.best_similarity >= self.settings.search_threshold) \
            or retrieval.strict_keyword_hits > 0 or (held >= KEYWORD_WORDS and share >= KEYWORD_SHARE) or bool(carried)
        context = retrieval.chunks if relevant else []
        used_facts = [f for f in retrieval.facts if f.chunk_id in {c.chunk_id for c in context}][:12]
        phase("composing")
        t0 = time.perf_counter()
        if not context:
            answer = Answer("Nothing in the selected collections is relevant enough to answer this "
                            f"(best similarity {retrieval.best_similarity or 0:.2f}, threshold "
                            f"{self.settings.search_threshold:.2f}). Try other words or other collections.", "nothing")
        elif self.llm is not None:
            memory_turns, why = self._memory_turns(question)
            diagnostics["memory"] = why
            history_msgs = memory_turns + [{"role": t.role, "content": t.content} for t in history]
            facts_text = "\n".join(f"- {f.source} {f.relation.replace('_', ' ')} {f.target}{_validity(f)}"
                                   for f in used_facts)
            context = self.answerer.order(query, context, retrieval.collection_ids)
            answer = generate(self.llm, build_messages(question, context, facts_text, history_msgs), context, on_token)
        else:
            diagnostics["memory"] = "not injected: no LLM configured (the extractive answer uses no prompt)"
            answer = self.answerer.answer(question, query, context, retrieval.collection_ids, diagnostics)
            if answer.mode == "nothing":
                answer.text = "The retrieved passages contain no sentence close enough to the question to quote."
        diagnostics["timings_ms"]["answer"] = (time.perf_counter() - t0) * 1000
        diagnostics["timings_ms"]["total"] = (time.perf_counter() - started) * 1000
        diagnostics["dropped_citations"] = answer.dropped_citations
        result = AskResult(conversation_id, question, answer, context, used_facts, diagnostics=diagnostics)
        self._diagram(result)
        self._record(result, entities=self._turn_entities(retrieval.entities, answer, retrieval.collection_ids))
        return result

    def _turn_entities(self, seeds: list[str], answer: Answer, collection_ids: list[int]) -> list[str]:
        """What a turn was about, for the next turn's follow-up: the question's entities, then those of the
        passages the answer cited, in citation order ("she" after "who founded Zorbex?" is its founder)."""
        graph = self.retriever.graph
        cited = list(dict.fromkeys(answer.citations.values())) if answer.citations else []
        keys = list(seeds)
        if graph is not None and cited:
            scores = {chunk: 1.0 / rank for rank, chunk in enumerate(cited, start=1)}
            keys += [e.key for e in graph.entities_for_chunks(scores, collection_ids, limit=5) if e.key not in keys]
        return keys

    def _memory_command(self, question: str) -> str | None:
        remember = _REMEMBER.match(question)
        if remember:
            fact = self.memory.remember(remember.group("fact").strip().rstrip("."))
            return f"Got it. I'll remember: {fact.text}"
        if _RECALL.search(question):
            facts = self.memory.list()
            if not facts:
                return "I don't remember anything about you yet. Say \"remember …\" to tell me something."
            return "Here is what I remember about you:\n" + "\n".join(f"- {f.text}" for f in facts)
        return None

    def _memory_turns(self, question: str) -> tuple[list[dict[str, str]], str]:
        threshold = self.settings.memory_threshold
        facts = self.memory.recall(question, threshold=threshold, limit=self.settings.memory_max_facts)
        if not facts:
            return [], f"not injected: no memory fact reaches similarity {threshold:.2f}"
        turns: list[dict[str, str]] = []
        for fact in facts:
            turns += [{"role": "user", "content": f"Just so you know, {fact.text}"},
                      {"role": "assistant", "content": "Got it."}]
        return turns, "injected: " + "; ".join(f"{f.text!r} ({f.similarity:.2f})" for f in facts)

    def _resolve_follow_up(self, question: str, history: list[Any], diagnostics: dict[str, Any]) -> tuple[str, list[str]]:
        """The query to retrieve with and the entities carried over: the previous answered turn's, only when the
        question needs them. A "remember …" turn records no entities, so it is never the antecedent."""
        last = next((t for t in reversed(history) if t.role == "assistant" and t.retrieved.get("entities")), None)
        if last is None:
            diagnostics["follow_up"] = "not a follow-up: no earlier answered turn"
            return question, []
        needs, why = follow_up(self._spacy()(question))
        if not needs:
            diagnostics["follow_up"] = f"not a follow-up: {why}"
            return question, []
        entities = list(last.retrieved["entities"])[:3]
        names = list(last.retrieved.get("entity_names", entities))[:3]
        diagnostics["follow_up"] = f"resolved against the previous turn's entities: {', '.join(names)} ({why})"
        return f"{question} ({', '.join(names)})", entities

    def _diagram(self, result: AskResult) -> None:
        for chunk in result.context[:3]:
            diagram_id = chunk.chunk_metadata.get("associated_diagram_id")
            if diagram_id and self.diagrams is not None:
                view = self.diagrams.get(diagram_id)
                if view.mermaid:
                    result.mermaid, result.diagram_id = view.mermaid, diagram_id
                    return
        if 2 <= len(result.facts) <= 15:
            from services.graph.model import Subgraph

            graph = Subgraph()
            for fact in result.facts:
                graph.add(fact)
            result.mermaid = subgraph_to_mermaid(graph)

    def _record(self, result: AskResult, entities: list[str] | None = None) -> None:
        names = []
        for key in entities or []:
            name = next((f.source if f.source_key == key else f.target for f in result.facts
                         if key in (f.source_key, f.target_key)), key)
            names.append(name)
        retrieved = {"chunks": [c.chunk_id for c in result.context], "entities": entities or [],
                     "entity_names": names, "facts": [f.id for f in result.facts]}
        import dataclasses

        details = {"mode": result.answer.mode, "citations": result.answer.citations, "quotes": result.answer.quotes,
                   "diagnostics": result.diagnostics, "diagram_id": result.diagram_id, "mermaid": result.mermaid,
                   "context": [{k: v for k, v in dataclasses.asdict(c).items() if k not in _NOT_STORED}
                               for c in result.context],
                   "facts": [dataclasses.asdict(f) for f in result.facts]}
        self.conversations.add_turn(result.conversation_id, "assistant", result.answer.text,
                                    retrieved=retrieved, details=details)


def cited_sources(result: AskResult) -> list[dict[str, Any]]:
    """The passages an answer cites, as the CLI and MCP give them: n, title, document, chunk and page
    ("p. 18", "" when the document has no pages; ``pages``: [first, last] physical pages or None)."""
    by_id = {c.chunk_id: c for c in result.context}
    return [{"n": n, "title": by_id[cid].title, "document_id": by_id[cid].document_id,
             "chunk_index": by_id[cid].chunk_index, "page": page_ref(by_id[cid].chunk_metadata),
             "pages": by_id[cid].chunk_metadata.get("pages")}
            for n, cid in result.answer.citations.items() if cid in by_id]


def _validity(fact: Fact) -> str:
    """How long a fact held, as the prompt says it: its clause's dates, else when its document stated it."""
    if fact.valid_from or fact.valid_until:
        return f" (valid {fact.shown('valid_from') or '?'} to {fact.shown('valid_until') or 'now'})"
    return f" (stated {fact.shown('stated_on')})" if fact.stated_on else ""
