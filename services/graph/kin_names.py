"""A sibling's or a child's given name takes the family's surname: "Kate was introduced along with her siblings
Harry and Sophie" names Harry Ramsay and Sophie Ramsay when "her" is Kate Ramsay; "He succeeded his brother John"
names John Stourton when "he" is Edward Stourton, 10th Baron Stourton. A given name alone is no one's whole name
(read by :class:`services.graph.resolver.Resolver`). Spouses and parents keep what the text says: they need not
share the name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.graph.coreference import Ref
from services.graph.name_span import NameSpan
from services.graph.name_words import NAME_SUFFIXES, given_names

_KIN = {"brother", "brothers", "sister", "sisters", "sibling", "siblings", "son", "sons", "daughter", "daughters",
        "twin", "twins", "half-brother", "half-sister"}


def kin_name(span: NameSpan, owner_of: Callable[[Any], list[Ref]]) -> str | None:
    """The whole name of a one-word given name set beside a kin noun whose owner is a person named by a given name
    and a surname ("her siblings Harry … and Sophie"), or None."""
    if span.end - span.start != 1 or span.label not in ("PERSON", "ORG", "GPE", "ENTITY") \
            or span.text.lower() not in given_names():
        return None
    tok = span.root
    if tok.dep_ == "conj" and tok.head.lower_ in _KIN and any(c.dep_ == "compound" and c.lower_ in _KIN
                                                              for c in tok.children):
        kin = tok.head  # "her brother Harry and sister Kate"
    else:
        while tok.dep_ == "conj" and tok.head.i < tok.i:
            tok = tok.head
        kin = tok.head if tok.dep_ == "appos" else None
    if kin is None or kin.lower_ not in _KIN:
        return None
    while kin.dep_ == "conj" and kin.head.lower_ in _KIN and not any(c.dep_ == "poss" for c in kin.children):
        kin = kin.head  # "her brother Harry and sister Kate"
    owner = next((c for c in kin.children if c.dep_ == "poss"), None)
    people = owner_of(owner) if owner is not None else []
    if len(people) != 1 or people[0].label not in ("PERSON", "ENTITY"):
        return None
    words = people[0].name.split(",")[0].split()
    if people[0].label != "PERSON" and (not words or words[0].lower() not in given_names()):
        return None  # (the topic still untyped: "Edward Stourton, 10th Baron Stourton")
    while words and words[-1].lower().rstrip(".") in NAME_SUFFIXES:
        words.pop()
    if len(words) < 2 or not words[-1][:1].isupper() or words[-1].lower() in given_names() \
            or words[0] == span.text:
        return None
    return f"{span.text} {words[-1]}"
