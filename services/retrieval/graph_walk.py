"""The graph walk: personalized PageRank over the entity–chunk graph, to find the second hop.

The method is HippoRAG's (Gutiérrez et al., NeurIPS 2024; HippoRAG 2, 2025), offline:

1. **Seeds.** The question's named entities are linked to the graph by name: every run of up to six of its
   words is looked up as an entity key (accent-folded), keeping the longest matches, so "Kiss and Tell" links
   the film and not "kiss" and "tell" too; of those, named entities and titles are seeds. Concepts are not
   (HippoRAG links the question's named entities only): a question's descriptive words ("genre", "position",
   "pop band") match concepts that are rare in the corpus only by accident of phrasing, and their
   specificity would pull the walk to passages that merely use the word. A linked entity must also be
   *supported*: at least one chunk that names it is among the dense hits the walk is given (HippoRAG 2's
   recognition step, done by retrieval instead of an LLM), which drops a spaCy mislabel ("based" as a place)
   and a name the question uses in another sense. Without dense hits there is nothing to check against and
   every linked entity is kept. Entities carried over from the previous turn are kept as given. Each seed's
   weight is its specificity, one over the number of chunks that name it (HippoRAG's node specificity). The
   top dense hits are seeds too, with their min-max normalised similarity times a small passage weight, as
   in HippoRAG 2.

   Measured on hotpotqa-100 (docs/evaluation.md): concept seeds and unsupported seeds cost the walk 0.04
   recall@5 on the first 50 questions, where the rule was chosen (0.81 → 0.85), and 0.04 on the other 50.

   **Feedback seeds.** The named entities (not concepts, not generic, not hubs) of the ``feedback`` chunks,
   the first hop's best passages, are seeds too, weighted like the question's. It is pseudo-relevance
   feedback on the graph, as RM3 is on words: the passage that answers a multi-hop question's first hop names
   the bridge entity, and the walk then starts from it as if the question had named it (the iterative
   retrieval of IRCoT and HippoRAG's multi-step variant, without an LLM). The walk's recall@5 on the first 50
   questions: 0.85 → 0.92.
2. **Neighbourhood.** Seed chunks, feedback chunks and the chunks that name an entity of the question; the
   entities those chunks name (without generic concepts, and without hubs named by more than ``hub_chunks``
   chunks, through which a walk's mass spreads to nothing in particular); the chunks that name those
   entities, most specific entities first, up to ``second_hop_mentions`` mentions (the feedback seeds'
   chunks among them); and the fact links among the entities. That is two hops from the question: chunk →
   entity → chunk. A feedback seed's chunks are not expanded further: it is a hop from the question already,
   and expanding them made the walk's median on the 233 addresses 73 ms instead of 26 (21 without feedback)
   for 0.01 of the walk's own recall@5 on the first 50 questions and nothing of the full fusion's.
3. **Walk.** Personalized PageRank on that undirected graph (damping 0.5, HippoRAG's), by power iteration;
   a chunk's score is the probability mass it ends with. A fact's edge weighs a quarter of a mention's
   (``link_weight``): a document's facts all leave its topic, and at full weight they drew the walk's mass
   back to the topic's own passage.

Every step reads PostgreSQL (services/stores/walk_store.py); a walk takes milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from sqlalchemy.engine import Engine

from services.graph.entities import entity_key
from services.graph.generic import CONCEPT, is_generic
from services.stores import walk_store
from services.stores.walk_store import WalkEntity

MAX_NGRAM = 6
_WORD = re.compile(r"[\w'’&.-]+")


@dataclass(frozen=True)
class WalkSettings:
    damping: float = 0.5  # probability of following an edge rather than jumping back to a seed
    passage_weight: float = 0.05  # dense seeds' share against entity seeds (HippoRAG 2)
    dense_seeds: int = 10
    hub_chunks: int = 200  # an entity named by more chunks than this is not walked through
    # The second hop's size: the walkable entities, most specific first, until the chunks they are named in
    # add up to this. A less specific entity spreads its mass over more chunks (1/degree each), so the ones
    # left out would have moved little; the bound keeps a walk in milliseconds on a large collection.
    second_hop_mentions: int = 4000
    iterations: int = 50
    tolerance: float = 1e-8
    # A fact between two entities is an edge of this weight; a chunk naming an entity, of weight 1. Chosen on the
    # first 50 questions when the fact graph became the topic's facts (docs/evaluation.md): at 1 the walk's
    # recall@5 was 0.870 there, at 0.5 / 0.25 / 0 it was 0.890, and the full fusion's 0.900, 0.920, 0.920, 0.920.
    link_weight: float = 0.25


@dataclass
class WalkResult:
    scores: dict[int, float]  # chunk id → probability mass
    seeds: list[WalkEntity]  # the question's entities the walk started from
    nodes: int = 0
    edges: int = 0
    notes: list[str] = field(default_factory=list)
    feedback: list[WalkEntity] = field(default_factory=list)  # seeds named by the feedback chunks only


def question_keys(question: str) -> list[tuple[int, int, str]]:
    """(start word, end word, key) for every run of up to MAX_NGRAM words of the question."""
    words = _WORD.findall(question)
    spans = []
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + MAX_NGRAM) + 1):
            key = entity_key(" ".join(words[i:j]).strip(".-"))
            if key:
                spans.append((i, j, key))
    return spans


def longest_matches(spans: list[tuple[int, int, str]], known: set[str]) -> list[str]:
    """Keys of the matched spans that no longer matched span contains."""
    matched = [(i, j, k) for i, j, k in spans if k in known]
    keep = [k for i, j, k in matched
            if not any(a <= i and j <= b and (b - a) > (j - i) for a, b, _ in matched)]
    return list(dict.fromkeys(keep))


def personalized_pagerank(adjacency: dict[int, dict[int, float]], reset: np.ndarray, *, damping: float,
                          iterations: int, tolerance: float) -> np.ndarray:
    """PPR on an undirected weighted graph given as adjacency lists over nodes 0..n-1."""
    pairs = [(a, b, w) for a, nbrs in adjacency.items() for b, w in nbrs.items()]
    src = np.array([a for a, _, _ in pairs], dtype=np.int64)
    dst = np.array([b for _, b, _ in pairs], dtype=np.int64)
    weight = np.array([w for _, _, w in pairs], dtype=float)
    return pagerank_on_edges(src, dst, weight, reset, damping=damping, iterations=iterations, tolerance=tolerance)


def pagerank_on_edges(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, reset: np.ndarray, *, damping: float,
                      iterations: int, tolerance: float) -> np.ndarray:
    """PPR over directed edges ``src[i] → dst[i]`` with ``weight[i]`` (give both directions for an undirected
    graph), by power iteration: mass at a node spreads over its out-edges in proportion to their weights;
    a node without out-edges gives its mass back to the reset distribution."""
    from scipy.sparse import csr_matrix

    n = len(reset)
    out = np.bincount(src, weights=weight, minlength=n)
    transition = csr_matrix((weight / out[src], (dst, src)), shape=(n, n))  # column-stochastic
    reset = reset / reset.sum()
    x = reset.copy()
    dangling = out == 0
    for _ in range(iterations):
        nxt: np.ndarray = damping * (transition @ x + x[dangling].sum() * reset) + (1 - damping) * reset
        if np.abs(nxt - x).sum() < tolerance:
            return nxt
        x = nxt
    return x


def _within(entities: dict[str, WalkEntity], seeds: list[WalkEntity], mentions: int, hub: int) -> dict[str, WalkEntity]:
    """The seeds, then the most specific other entities (fewest chunks, then key) while their chunks add up
    to at most ``mentions`` (a seed that is a hub is kept, but its chunks are not fetched: not counted)."""
    kept = {e.key: e for e in seeds}
    total = sum(e.chunks for e in kept.values() if e.chunks <= hub)
    for e in sorted(entities.values(), key=lambda e: (e.chunks, e.key)):
        if e.key in kept:
            continue
        if total + e.chunks > mentions:
            break
        kept[e.key] = e
        total += e.chunks
    return kept


class GraphWalk:
    def __init__(self, *, engine: Engine, settings: WalkSettings | None = None) -> None:
        self.engine = engine
        self.settings = settings or WalkSettings()

    def walk(self, question: str, collection_ids: list[int], *, dense: dict[int, float] | None = None,
             extra_keys: list[str] | None = None, feedback: list[int] | None = None) -> WalkResult:
        """Chunk scores for ``question`` from a walk seeded by its entities, ``dense`` (chunk id → similarity)
        and the named entities of the ``feedback`` chunks (the first hop's best, best first)."""
        s = self.settings
        hits = set(dense or {})
        dense = dict(sorted((dense or {}).items(), key=lambda kv: -kv[1])[: s.dense_seeds])
        with self.engine.connect() as conn:
            documents = walk_store.document_count(conn, collection_ids)
            spans = question_keys(question)
            fed_keys = list(dict.fromkeys(e.key for _, e in walk_store.mentions_of_chunks(conn, feedback or [])))
            found = walk_store.entities_by_keys(conn, collection_ids,
                                                [k for _, _, k in spans] + (extra_keys or []) + fed_keys)
            by_key = {e.key: e for e in found}
            named = [by_key[k] for k in longest_matches(spans, set(by_key))
                     if by_key[k].type != CONCEPT and by_key[k].chunks > 0]
            if hits and named:
                supported = {k for k, c in walk_store.chunks_of_entities(conn, collection_ids, [e.key for e in named])
                             if c in hits}
                named = [e for e in named if e.key in supported]
            carried = [by_key[k] for k in extra_keys or [] if k in by_key and by_key[k].chunks > 0
                       and not is_generic(by_key[k].type, by_key[k].documents, documents)]
            asked = {e.key for e in named + carried}
            fed = [by_key[k] for k in fed_keys if k in by_key and k not in asked and by_key[k].type != CONCEPT
                   and 0 < by_key[k].chunks <= s.hub_chunks
                   and not is_generic(by_key[k].type, by_key[k].documents, documents)]
            seeds = list({e.key: e for e in named + carried + fed}.values())
            if not seeds and not dense:
                return WalkResult({}, [])
            # The neighbourhood grows from the dense seeds, the feedback chunks and the chunks that name the
            # question's entities. A feedback seed's own chunks join in the second hop (seeds are always
            # walkable), without their mentions: it is already a hop from the question.
            first = set(dense) | set(feedback or [])
            seed_chunks = walk_store.chunks_of_entities(conn, collection_ids, [e.key for e in seeds
                                                                               if e.key in asked and e.chunks <= s.hub_chunks])
            first.update(c for _, c in seed_chunks)
            # Entities named by more than hub_chunks chunks are not walked through (unless seeds): not fetched.
            mentioned = walk_store.mentions_of_chunks(conn, sorted(first), max_chunks=s.hub_chunks,
                                                      keep=[e.key for e in seeds])
            walkable = {e.key: e for _, e in mentioned if e.chunks <= s.hub_chunks
                        and not is_generic(e.type, e.documents, documents)}
            walkable.update({e.key: e for e in seeds})
            walkable = _within(walkable, seeds, s.second_hop_mentions, s.hub_chunks)
            second = walk_store.chunks_of_entities(conn, collection_ids, sorted(k for k, e in walkable.items()
                                                                                 if e.chunks <= s.hub_chunks))
            facts = walk_store.links(conn, collection_ids, sorted(walkable)) if s.link_weight > 0 else []
        result = self._rank(seeds, dense, walkable, mentioned + [(c, walkable[k]) for k, c in second], facts)
        result.seeds, result.feedback = [e for e in seeds if e.key in asked], fed
        return result

    def _rank(self, seeds: list[WalkEntity], dense: dict[int, float], entities: dict[str, WalkEntity],
              mentions: list[tuple[int, WalkEntity]], facts: list[tuple[str, str]]) -> WalkResult:
        """Build the undirected chunk–entity graph (each edge once, weight 1) as arrays and walk it."""
        s = self.settings
        chunk_ids = sorted({c for c, e in mentions if e.key in entities} | set(dense))
        keys = sorted(set(entities) | {e.key for e in seeds} | {k for pair in facts for k in pair})
        chunk_at = {c: i for i, c in enumerate(chunk_ids)}
        entity_at = {k: len(chunk_ids) + i for i, k in enumerate(keys)}
        n = len(chunk_ids) + len(keys)
        ends = [(chunk_at[c], entity_at[e.key]) for c, e in mentions if e.key in entities]
        ends += [(entity_at[a], entity_at[b]) for a, b in facts if a != b]
        pairs = np.array(ends, dtype=np.int64).reshape(-1, 2)
        codes = np.unique(np.concatenate([pairs[:, 0] * n + pairs[:, 1], pairs[:, 1] * n + pairs[:, 0]]))
        src, dst = codes // n, codes % n
        # an entity-entity edge (a fact) weighs link_weight, a chunk-entity edge (a mention) 1
        weight = np.where((src >= len(chunk_ids)) & (dst >= len(chunk_ids)), s.link_weight, 1.0)
        reset = np.zeros(n)
        if seeds:
            weights = np.array([1.0 / max(e.chunks, 1) for e in seeds])
            for e, w in zip(seeds, weights / weights.sum(), strict=True):
                reset[entity_at[e.key]] += w
        if dense:
            values = np.array(list(dense.values()))
            span = values.max() - values.min()
            normed = (values - values.min()) / span if span > 0 else np.ones_like(values)
            share = s.passage_weight if seeds else 1.0
            if normed.sum() > 0:
                for chunk_id, v in zip(dense, normed / normed.sum(), strict=True):
                    reset[chunk_at[chunk_id]] += share * v
        if reset.sum() <= 0:
            return WalkResult({}, seeds)
        mass = pagerank_on_edges(src, dst, weight, reset, damping=s.damping, iterations=s.iterations,
                                 tolerance=s.tolerance)
        scores = {c: float(mass[i]) for c, i in chunk_at.items() if mass[i] > 0}
        return WalkResult(scores, seeds, n, len(src) // 2)
