"""The reference keyword ranker for `make eval`: a textbook Okapi BM25 outside the database.

rank_bm25's ``BM25Okapi`` (k1 1.5, b 0.75) over each chunk's title + heading path + text, tokenised
independently of PostgreSQL: lower-cased words, English stop words removed, Snowball (Porter 2) stems.
It only serves as the yardstick the shipped keyword search is compared with.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import snowballstemmer
from rank_bm25 import BM25Okapi

# PostgreSQL's english.stop (the Snowball English stop list), so both sides drop the same words.
STOP_WORDS = frozenset("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
it its itself they them their theirs themselves what which who whom this that these those am is are was were be
been being have has had having do does did doing a an the and but if or because as until while of at by for with
about against between into through during before after above below to from up down in out on off over under again
further then once here there when where why how all any both each few more most other some such no nor not only
own same so than too very s t can will just don should now
""".split())
_WORD = re.compile(r"[a-z0-9]+")
_stemmer = snowballstemmer.stemmer("english")


def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    words = [w for w in _WORD.findall(fold(text).lower()) if w not in STOP_WORDS]
    return _stemmer.stemWords(words)


class ReferenceBM25:
    """Top-k document titles for a question, by BM25 over the given (title, heading, text) chunks."""

    def __init__(self, chunks: Sequence[tuple[str, str, str]], k1: float = 1.5, b: float = 0.75) -> None:
        self.titles = [title for title, _, _ in chunks]
        self.model = BM25Okapi([tokens(f"{t} {h} {x}") for t, h, x in chunks], k1=k1, b=b)

    def rank(self, question: str, k: int = 20) -> list[str]:
        scores = self.model.get_scores(tokens(question))
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]
        return [self.titles[i] for i in order]
