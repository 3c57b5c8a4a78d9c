"""What a document is about, in the parsed text: the topic's occurrences as names, and the topic of an untitled
document (the named subject of a first sentence that defines it)."""

from __future__ import annotations

import re
from typing import Any

from services.graph.name_bounds import ORDINAL, PEERAGES
from services.graph.name_words import COMPANY_SUFFIXES
from services.graph.spans import ENTITY, NameSpan
from services.graph.text_parse import topic_pattern

_SMALL = {"the", "of", "and", "a", "an", "in", "on", "at", "for", "to", "de", "la", "le", "ltd", "inc", "co"}


def topic_spans(doc: Any, topic: str, spans: list[NameSpan]) -> list[NameSpan]:
    """The spans with the topic's occurrences in the text added (they win over overlapping NER spans)."""
    found: list[NameSpan] = []
    for m in re.finditer(topic_pattern(topic), doc.text, flags=re.I):
        span = doc.char_span(m.start(), m.end(), alignment_mode="expand")
        if span is not None and len(span) and span.start > 0 and topic.split()[0].lower() in PEERAGES \
                and ORDINAL.fullmatch(doc[span.start - 1].text):
            held = doc[span.start - 1:span.end]  # "His eldest son, the 6th Baron Stanley of Alderley, sold …": one
            found.append(NameSpan(held.start, held.end, held.text, "PERSON", held.root))  # holder, not the title
        elif span is not None and len(span):
            found.append(NameSpan(span.start, span.end, topic, ENTITY, span.root))
    # an occurrence inside a longer name ("Acme" in "Acme Corp.") is that name's, not the topic's
    found = [t for t in found if not any(s.start <= t.start and t.end <= s.end and s.end - s.start > t.end - t.start
                                         for s in spans)]
    if not found:
        return spans
    ends = {t.end: k for k, t in enumerate(found)}
    for s in spans:  # "Dunkin' Brands" + "Group, Inc.": the topic's legal name, no company of its own
        if s.start in ends and all(w.lower().strip(".,") in _LEGAL_WORDS for w in s.text.split()):
            t = found[ends[s.start]]
            found[ends[s.start]] = NameSpan(t.start, s.end, t.text, t.label, t.root)
    covered = {i for s in found for i in range(s.start, s.end)}
    kept = [s for s in spans if not covered & set(range(s.start, s.end))]
    return sorted(kept + found, key=lambda s: s.start)


# Words that end a company's legal name after its common name ("Dunkin' Brands Group, Inc.")
_LEGAL_WORDS = COMPANY_SUFFIXES | {"group", "holdings", "incorporated", "corporation", "company", "limited", "sa", "nv",
                                   "bv", "pty", "&"}


_QUALIFIED = re.compile(r"\s*\([^()]*\)$")


def first_subject(doc: Any, spans: list[NameSpan], title: str | None) -> tuple[str | None, NameSpan | None]:
    """What an untitled document is about: the named subject of its first sentence, when that sentence defines it
    ("Cotula is a genus …") or the subject shares a word with the title. When the subject is a
    description that shares a word with the title ("The United States presidential election of 1792" under
    "United States presidential election, 1792"), the title, with the description as its first mention."""
    first = next(iter(doc.sents), None)
    if first is None:
        return None, None
    root = first.root
    if not any(t.dep_ in ("nsubj", "nsubjpass") for t in root.children):  # "Sandra Miju Oh is", "Oh" an interjection
        for span in spans:
            if span.start == first.start and all(t.is_space for t in doc[span.end:root.i]) and root.pos_ in ("AUX",
                                                                                                          "VERB"):
                return span.text, None
    for tok in first:
        if tok.dep_ in ("nsubj", "nsubjpass"):
            for span in spans:
                if tok.i in span:  # a definition ("X is a …") or the title's own name; not a speech's first actor
                    whole = _title_start(doc, span, first.start, title)
                    if whole is not None:  # "Leston Peter Paul" under "Leston Paul": the tagger's "Peter Paul"
                        return whole.text, whole
                    defines = tok.head.lemma_ == "be"  # "X is a conglomerate, the filing says" too
                    phrase = doc[first.start:tok.head.i] if tok.head.i > tok.i else None
                    if title and phrase is not None and not share_a_word(span.text, title) \
                            and _a_peerage(title) and share_a_word(phrase.text, title):
                        # "The Jackson, later Duckett Baronetcy, of Hartham House …, was a title", titled "Duckett
                        # baronets": the title the phrase names, not the first family's name in it
                        bare = _QUALIFIED.sub("", title).strip() or title
                        return bare, NameSpan(phrase.start, phrase.end, bare, ENTITY, tok)
                    return (span.text, None) if defines or (title and share_a_word(span.text, title)) else (None, None)
            chunk = next((c for c in doc.noun_chunks if c.root.i == tok.i), None)
            if title and chunk is not None and tok.pos_ in ("NOUN", "PROPN") and share_a_word(chunk.text, title):
                bare = _QUALIFIED.sub("", title).strip() or title  # not "William Winter (politician)"
                return bare, NameSpan(chunk.start, chunk.end, bare, ENTITY, chunk.root)
            return None, None
    return None, None


def _a_peerage(title: str) -> bool:
    words = title.lower().split()
    return bool(words) and (words[-1].rstrip("s") in ("baronet", "baronetcy", "barony", "baron", "earl", "earldom",
                                                      "viscount", "marquess", "duke", "dukedom")
                            or words[0] in ("baron", "earl", "viscount", "marquess", "duke", "baronet"))


def _title_start(doc: Any, span: NameSpan, start: int, title: str | None) -> NameSpan | None:
    """The first sentence's subject with the capitalised words before it that open the title: the tagger reads
    "Leston Peter Paul" (titled "Leston Paul") as "Peter Paul", "King Wallis Vidor" (titled "King Vidor") as
    "Wallis Vidor". Both ends of the title must be there; None otherwise."""
    words = (_QUALIFIED.sub("", title).strip() if title else "").split()
    head = doc[start:span.start]
    if not 0 < len(head) < len(words) or not all(t.is_title and t.is_alpha and t.pos_ != "DET" for t in head):
        return None
    if [t.text for t in head] != words[:len(head)] or doc[span.end - 1].text != words[-1]:
        return None
    return NameSpan(start, span.end, doc[start:span.end].text, span.label, span.root)


def share_a_word(a: str, b: str) -> bool:
    words = [{w for w in re.findall(r"\w+", x.casefold()) if w not in _SMALL and len(w) > 1} for x in (a, b)]
    return bool(words[0] & words[1])
