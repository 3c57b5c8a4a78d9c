"""Which words a highlight should mark: forms of a query word, not every word that shares its English stem.

PostgreSQL's English stemmer (Snowball) folds "important" and "importance" into "import", so BM25 and
ts_headline treat them as "imports". That is fine for ranking (recall), but a highlight that marks
"important" for the query "imports" tells the analyst the wrong word matched. A marked word is kept when it
and a query word share their base once inflectional endings (-s, -es, -ed, -ing, -'s) are taken off.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"\w+", re.UNICODE)
_VOWELS = set("aeiouy")


def fold(word: str) -> str:
    """Lower case, accents taken off ("Café" -> "cafe")."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def inflection_base(word: str) -> str:
    """The word without its inflectional ending: "imports", "imported", "importing" -> "import";
    "studies" -> "study"; "running" -> "run"; "houses", "house" -> "hous"; "important" stays itself."""
    w = fold(word)
    w = w[:-2] if w.endswith(("'s", "’s")) else w
    for suffix, replacement in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 2 and not (suffix == "s" and w.endswith("ss")):
            w = w[: -len(suffix)] + replacement
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in _VOWELS | {"l", "s", "z"}:
        w = w[:-1]  # "runn" (running) -> "run"
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # "house" and "houses" meet at "hous"
    return w


def query_bases(query: str) -> set[str]:
    return {inflection_base(w) for w in _WORD.findall(query)}


def is_form_of_query(marked: str, bases: set[str]) -> bool:
    """Whether a span the full-text highlighter marked is a form of one of the query's words."""
    return any(inflection_base(w) in bases for w in _WORD.findall(marked))
