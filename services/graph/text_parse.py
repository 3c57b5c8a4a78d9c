"""The text as the extractor parses it, and the mentions the walk graph takes from it.

* :func:`without_parentheses`: parentheses out, offsets kept (:class:`Offsets` maps back to the original).
* :func:`parse`: spaCy's pipeline, with a multi-word topic read as one proper noun.
* :func:`mentions` and :func:`aside_mentions`: every named entity and noun-phrase concept, for the walk graph
  (services/graph/mentions.py), including the names inside the parentheses the parse left out.
"""

from __future__ import annotations

import re
from typing import Any

from services.graph.entities import display_name, entity_key
from services.graph.mentions import Mention
from services.graph.name_words import _POSTNOMINALS
from services.graph.spans import NAMED, is_name


def _mention(token: Any, doc: Any) -> tuple[str, str] | None:
    """(surface name, type) of the entity or concept a token stands for, or None (for the walk graph)."""
    if token.ent_type_:
        if token.ent_type_ not in NAMED:
            return None
        for ent in doc.ents:
            if ent.start <= token.i < ent.end:
                return ent.text, ent.label_
    if token.pos_ in ("PRON", "DET", "NUM") or token.is_stop or not token.is_alpha:
        return None
    if token.pos_ not in ("NOUN", "PROPN"):
        return None
    words = [t for t in token.subtree if t.dep_ in ("compound", "amod") and t.head == token and t.is_alpha]
    phrase = " ".join([t.text for t in words] + [token.lemma_ if token.pos_ == "NOUN" else token.text])
    return phrase, "CONCEPT" if token.pos_ == "NOUN" else "ENTITY"


def mentions(doc: Any, base: int, at: Offsets) -> list[Mention]:
    """Every named entity and noun-phrase concept the parsed text names, at its offset (for the walk graph)."""
    found = [Mention(entity_key(e.text), display_name(e.text), e.label_, base + at.start(e.start_char))
             for e in doc.ents if e.label_ in NAMED]
    for chunk in doc.noun_chunks:
        named = _mention(chunk.root, doc)
        if named and not chunk.root.ent_type_:  # named entities are counted above
            found.append(Mention(entity_key(named[0]), named[0], named[1], base + at.start(chunk.start_char)))
    return [m for m in found if m.key]


def topic_pattern(topic: str) -> str:
    """A topic's occurrences, whatever the spaces between its words ("Arthur?  Arthur!" for "Arthur? Arthur!")."""
    return r"(?<!\w)" + r"\s+".join(re.escape(w) for w in topic.split()) + r"(?!\w)"


def parse(nlp: Any, text: str, topic: str | None) -> Any:
    """The parsed text, with each occurrence of a multi-word topic read as one proper noun.

    A title that is itself a clause ("They Flew Alone", "Love Is in the Air") otherwise breaks the parse of
    every sentence that names it: its verb becomes the sentence's. So the text is tokenised, the topic's
    occurrences merged into one token, tagged a proper noun, and the rest of the pipeline runs on that.
    """
    doc = nlp.make_doc(text)
    merged: list[int] = []
    if topic and len(topic.split()) > 1:
        spans: list[Any] = []
        for m in re.finditer(topic_pattern(topic), text, flags=re.I):
            span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
            while span is not None and span.end < len(doc) and doc[span.end].text.replace(".", "") in _POSTNOMINALS:
                span = doc[span.start:span.end + 1]  # "…, 3rd Earl of Derby KG": his order's letters are his
            if span is not None and (not spans or span.start >= spans[-1].end):
                spans.append(span)
        with doc.retokenize() as retokenizer:
            for span in spans:
                retokenizer.merge(span)
        merged = [span.start - sum(len(s) - 1 for s in spans[:i]) for i, span in enumerate(spans)]
    for name, proc in nlp.pipeline:
        doc = proc(doc)
        if name == "tagger":
            for i in merged:
                doc[i].tag_ = "NNP"
    return doc


_NO_BREAK = str.maketrans({"\u00a0": " ", "\u2007": " ", "\u202f": " "})


def plain_spaces(text: str) -> str:
    """``text`` with its no-break spaces as plain ones, offsets unchanged: "New York State Route\u00a012F" is one
    name (the tokenizer makes a no-break space a token of its own, and the tagger ends the name there)."""
    return text.translate(_NO_BREAK)


def without_parentheses(text: str) -> tuple[str, list[int]]:
    """The text without its parentheses, and where each of its characters was in ``text`` (one more at the end).

    "Bonnie Tyler (born Gaynor Hopkins; 8 June 1951) is a Welsh singer": the parenthesis (an alias, a life
    span, a translation) broke the parse of most first sentences, and blanking it out confused the tagger.
    Aliases are read from the original text. A parenthesis inside quotation marks is part of a title and stays.
    So is an aside between spaced dashes.
    """
    keep = [True] * len(text)
    depth, start, quoted = 0, 0, False
    for i, ch in enumerate(text):
        if depth == 0 and ch in '"“”':
            quoted = ch == "“" or (ch == '"' and not quoted)
        if ch == "(" and quoted and depth == 0:
            continue  # inside a quoted title the parenthesis is the title's: "You Don't Love Me (No, No, No)"
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0 and i - start <= 400:
                first = start - 1 if start > 0 and text[start - 1] == " " else start
                keep[first:i + 1] = [False] * (i + 1 - first)
    for m in _DASH_ASIDE.finditer(text):  # "Cynfyn ap Gwerystan — sometimes spelled Kynvyn, Kynwyn — was …"
        keep[m.start():m.end() - 1] = [False] * (m.end() - 1 - m.start())
    for m in _LETTERS_ASIDE.finditer(text):  # "Armando Giovanni Iannucci, OBE (born …) is": the parse took "OBE"
        keep[m.start():m.end()] = [False] * (m.end() - m.start())  # for the subject
    positions = [i for i, k in enumerate(keep) if k]
    return "".join(text[i] for i in positions), [*positions, len(text)]


# An aside between two spaced dashes within a sentence is a parenthesis too (its closing dash and the space after
# it are dropped with it; the space before the first dash stays).
_DASH_ASIDE = re.compile(r"(?<=\S) [—–] [^—–.!?\n]{1,200}? [—–] (?=\S)")


# Post-nominal letters after a name and a comma (", OBE", ", KBE, FRS"), left out of the parse like an aside
_LETTERS_ASIDE = re.compile(r"(?<=[^\W\d_])(?:,\s*(?:" + "|".join(sorted(_POSTNOMINALS, key=len, reverse=True))
                            + r")\b)+(?=\s*[(;:.,])")


class Offsets:
    """Character offsets of the parsed text back in the original."""

    def __init__(self, positions: list[int]) -> None:
        self.positions = positions

    def start(self, i: int) -> int:
        return self.positions[min(i, len(self.positions) - 1)]

    def end(self, i: int) -> int:
        return self.positions[i - 1] + 1 if i > 0 else 0


def aside_mentions(nlp: Any, text: str, positions: list[int], base: int) -> list[Mention]:
    """The names inside the parentheses the parse left out ("born Gaynor Hopkins", "Hindi: …", "UN"), for the
    walk graph: named-entity recognition alone on each parenthesis, which costs a fraction of a parse."""
    kept = set(positions)
    asides, start = [], None
    for i in range(len(text) + 1):
        if i < len(text) and i not in kept:
            start = i if start is None else start
        elif start is not None:
            if any(c.isalpha() for c in text[start:i]):
                asides.append((start, text[start:i]))
            start = None
    if not asides:
        return []
    found = []
    with nlp.select_pipes(enable=["tok2vec", "ner"]):
        for (at, _aside), doc in zip(asides, nlp.pipe([a for _, a in asides]), strict=True):
            found += [Mention(entity_key(e.text), display_name(e.text), e.label_, base + at + e.start_char)
                      for e in doc.ents if e.label_ in NAMED and is_name(e.text)]
    return [m for m in found if m.key]
