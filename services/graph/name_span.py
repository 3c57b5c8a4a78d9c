"""A name found in a parsed text: its token offsets, its text and its type (read by services/graph/spans.py and
the modules that repair, join and split names)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ENTITY = "ENTITY"  # a proper name NER gave no type


@dataclass
class NameSpan:
    start: int  # token offsets in the parsed doc
    end: int
    text: str
    label: str
    root: Any = None  # the span's syntactic head token

    def __contains__(self, i: int) -> bool:
        return self.start <= i < self.end
