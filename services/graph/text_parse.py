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
    """A topic's occurrences, whatever the spaces between its words ("Arthur?  Arthur!" for "Arthur? Arthur!") and
    around a dash ("United States – Canada" for "United States–Canada")."""
    words = (re.sub(r"\s*([–—])\s*", r"\\s*\1\\s*", re.escape(w)) for w in topic.split())
    return r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)"


_QUOTED = re.compile(r'(?:"|“)([^"“”\n]{3,80}?)(?:"|”)')
_SMALL_WORDS = {"a", "an", "the", "and", "or", "nor", "but", "of", "in", "on", "at", "to", "for", "by", "with", "from",
                "as", "into", "upon", "over", "vs", "vs.", "de", "la", "le", "du", "des", "del", "von", "van"}


def _quoted_title(inner: str) -> bool:
    """A quoted stretch written as a title: two to ten words, each capitalised but the small ones ("Ophelia Thinks
    Harder", "Love Is in the Air"); not a quoted sentence ("singer-guitarist Chris Seefried steers along …"), nor a
    title with its own parenthesis ("Superman (It's Not Easy)", which the topic's rules read)."""
    words = inner.split()
    return 2 <= len(words) <= 10 and words[0][:1].isupper() and "(" not in inner and all(
        w[:1].isupper() or not w[:1].isalpha() or w.lower().strip(",:;!?()") in _SMALL_WORDS for w in words)


def parse(nlp: Any, text: str, topic: str | None) -> Any:
    """The parsed text, with each occurrence of a multi-word topic, and each quoted title, read as one proper noun.

    A title that is itself a clause ("They Flew Alone", "Love Is in the Air") otherwise breaks the parse of
    every sentence that names it: its verb becomes the sentence's ('which premiered her play "Ophelia Thinks
    Harder", and established …'). So the text is tokenised, the topic's occurrences and the titles in quotation
    marks merged into one token each, tagged a proper noun, and the rest of the pipeline runs on that.
    """
    doc = nlp.make_doc(text)
    spans: list[Any] = []
    titles: set[int] = set()  # the quoted titles' starts
    if topic and len(topic.split()) > 1:
        for m in re.finditer(topic_pattern(topic), text, flags=re.I):
            span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
            while span is not None and span.end < len(doc) and doc[span.end].text.replace(".", "") in _POSTNOMINALS:
                span = doc[span.start:span.end + 1]  # "…, 3rd Earl of Derby KG": his order's letters are his
            if span is not None and (not spans or span.start >= spans[-1].end):
                spans.append(span)
    for m in _QUOTED.finditer(text):
        inner = m.group(1).rstrip(",.;:")  # '"Wedding Bells," "I …"': the comma is the sentence's
        nickname = re.search(r"[A-Z][\w.]*\s$", text[:m.start()]) and re.match(r"\s[A-Z]", text[m.end():])
        span = doc.char_span(m.start(1), m.start(1) + len(inner)) if _quoted_title(inner) and not nickname else None
        # (not a nickname inside a name: 'William "Wild Guy" Grasso')
        if span is not None and len(span) > 1 and not any(s.start < span.end and span.start < s.end for s in spans):
            spans.append(span)  # (a title whose ends are no token's ends stays as it is)
            titles.add(span.start)
    spans.sort(key=lambda s: s.start)
    merged: list[int] = []
    if spans:
        with doc.retokenize() as retokenizer:
            for span in spans:
                # a quoted title reads to the parser as a common proper noun ("England"), where its own words,
                # unknown as one, made it an adverb or a verb ('from his album "America Town"'); of the proper
                # nouns tried on the titles of the judged samples, this one read every title as a noun
                retokenizer.merge(span, attrs={"NORM": "england"} if span.start in titles else {})
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
