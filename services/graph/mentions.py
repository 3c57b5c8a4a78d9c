"""Which chunks name which entities: the passage side of the entity–chunk graph the walk runs on.

Extractors leave their mentions in each node's metadata under :data:`MENTIONS_KEY`: the spaCy extractor
with exact offsets (named entities and noun-phrase concepts); for an extractor that gives none (the
LLM one), the names of the entities it listed are found in the text. The document's title is an entity
of every chunk, under its own name and, for a Wikipedia-style "Name (qualifier)" title, under the name
alone too.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from llama_index.core.graph_stores.types import KG_NODES_KEY
from llama_index.core.schema import BaseNode

from services.graph.entities import display_name, entity_key
from services.stores.walk_store import DocumentGraph

MENTIONS_KEY = "rag_mentions"
TITLE = "TITLE"
_QUALIFIER = re.compile(r"^(.+?)\s*\([^()]+\)$")
_FILE_SUFFIX = re.compile(r"\.(txt|md|markdown|html?|docx|pdf)$", re.I)


@dataclass(frozen=True)
class Mention:
    key: str
    name: str
    type: str
    start: int  # character offset in the document


def title_names(title: str, metadata: dict[str, Any]) -> list[str]:
    """The names a document's title gives it: the title (without a file suffix), a page title, unqualified forms."""
    names = []
    for raw in (title, metadata.get("title"), metadata.get("source_title")):
        if not isinstance(raw, str) or not raw.strip() or "://" in raw:
            continue
        raw = raw.strip()
        path = "/" in raw and (_FILE_SUFFIX.search(raw) is not None or raw.startswith(("/", "./", "~")))
        # a file's path names the file; a slash in a title is the title's ("The Black Album/Come On Feel …")
        name = _FILE_SUFFIX.sub("", PurePosixPath(raw).name if path else raw)
        name = " ".join(name.replace("_", " ").split())
        names.append(name)
        bare = _QUALIFIER.match(name)
        if bare:
            names.append(bare.group(1))
    return list(dict.fromkeys(n for n in names if entity_key(n)))


def located(text: str, base: int, entities: Iterable[tuple[str, str, str]]) -> list[Mention]:
    """Mentions of named entities found by their names in ``text`` (case-insensitive, whole words)."""
    found = []
    for key, name, type_ in entities:
        pattern = re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)", re.I)
        for m in pattern.finditer(text):
            found.append(Mention(key, name, type_, base + m.start()))
    return found


def node_mentions(node: BaseNode) -> list[Mention]:
    """A node's mentions: the extractor's own, or its listed entities located in the node's text."""
    own = node.metadata.get(MENTIONS_KEY)
    if own is not None:
        return list(own)
    base = getattr(node, "start_char_idx", None) or 0
    listed = [(e.properties["key"], e.name, e.label) for e in node.metadata.get(KG_NODES_KEY, [])]
    return located(node.get_content(), base, listed)


def document_graph(*, collection_id: int, document_id: int, title: str, metadata: dict[str, Any],
                   nodes: Sequence[BaseNode], chunks: list[tuple[int, int]],
                   facts: Iterable[tuple[str, str, int | None]]) -> DocumentGraph:
    """The document's entities, its chunks' mentions (title entities in every chunk) and its fact links.

    ``chunks`` are (chunk id, char_start) in text order; ``facts`` are (source key, target key, chunk id).
    """
    starts, ids = [s for _, s in chunks], [i for i, _ in chunks]
    entities: dict[str, tuple[str, str]] = {}
    mentions: set[tuple[str, int]] = set()
    for node in nodes:
        for mention in node_mentions(node):
            at = bisect.bisect_right(starts, mention.start) - 1
            if not mention.key or at < 0:
                continue
            entities.setdefault(mention.key, (display_name(mention.name), mention.type))
            mentions.add((mention.key, ids[at]))
    for name in title_names(title, metadata):
        key = entity_key(name)
        entities[key] = (name, TITLE)  # a title names the document itself, whatever else the key was typed
        mentions.update((key, chunk_id) for chunk_id in ids)
    links = {(a, b, c) for a, b, c in facts if c is not None and a in entities and b in entities and a != b}
    return DocumentGraph(collection_id, document_id, entities, mentions, links)
