"""Which names of a coordination are members of one list and which opens the next clause ("Chet Atkins played
lead guitar and Ernie Newton played bass": Newton is no second thing Atkins played), read by the resolver and the
clause rules (services/graph/resolver.py, clauses.py, clause_subjects.py, path_facts.py, noun_facts.py)."""

from __future__ import annotations

from typing import Any

SUBJECTS = {"nsubj", "nsubjpass", "csubj"}


def with_conj(tokens: Any) -> list[Any]:
    """The tokens and the later members of their coordinations, without a member that opens the next clause nor
    one after a semicolon, which parts the items of an outer list ('"Cold Souls" starring Paul Giamatti; Ryan Fleck
    and Anna Boden's … film "Sugar"')."""
    out = []
    for tok in tokens:
        out.append(tok)
        out += [c for c in tok.conjuncts if c.i > tok.i and not opens_a_clause(c)
                and not any(t.text == ";" for t in tok.doc[tok.i:c.i])]
    return out


_FINITE = {"VBD", "VBZ", "VBP"}


def opens_a_clause(member: Any) -> bool:
    """A coordinated name that is the subject of the verb after it (or after its aside), which has no subject of its
    own: in "Layden resigned as NFL Commissioner and Bert Bell, co-founder of the Philadelphia Eagles, replaced him"
    Bell replaced him; he is no second thing Layden resigned as."""
    return clause_opened(member) is not None


def clause_opened(member: Any) -> Any | None:
    """The verb whose subject ``member`` is (see :func:`opens_a_clause`), or None."""
    doc = member.doc
    if member.dep_ != "conj" or member.i + 1 >= member.sent.end:
        return None
    first = member
    while first.dep_ == "conj" and first.head.i != first.i:
        first = first.head
    if first.dep_ not in ("pobj", "dobj", "attr", "oprd", "appos"):
        return None  # "My Administration and the Congress, working together, have demonstrated": a subject list
    if doc[member.i + 1].text != ",":
        return next((t for t in doc[member.i + 1:member.sent.end] if t.pos_ == "VERB" and t.tag_ in _FINITE
                     and t.left_edge.i == member.i + 1 and t.dep_ in ("conj", "advcl")
                     and not any(c.dep_ in SUBJECTS for c in t.children)), None)  # "Chet Atkins played lead guitar
        # and Ernie Newton played bass", "Olivier Panis … appears on the French edition and Jean Alesi in his
        # Benetton appears on the Japanese edition": the verb right after the member (and its own words) is his
    for tok in doc[member.i + 2:member.sent.end]:
        if tok.pos_ in ("VERB", "AUX") and tok.tag_ in _FINITE:
            verb = tok.head if tok.dep_ in ("aux", "auxpass") else tok  # "…, Woody Allen, have cited": the list's
            return verb if doc[tok.i - 1].text == "," and not any(c.dep_ in SUBJECTS for c in verb.children) else None
    return None
