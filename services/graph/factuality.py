"""Whether a clause states that something happened. A fact comes only from a clause that does.

Not stated: a negated clause ("have not won", "fitted out no armament", "no country recognised"), a
hypothetical one ("would join", "if …", "Had the Nueces been regarded …"), and an infinitive under a verb or
noun of wanting, duty or plan ("the last nation to desire war", "our duty to provide"). An infinitive that
says what did happen ("went on to win", "the first woman to fly") is stated. The checks climb from a verb to
the clause it is coordinated with or complements, so "did not go and win" negates both verbs.
"""

from __future__ import annotations

from typing import Any

from services.graph.coordination import SUBJECTS

HYPOTHETICAL = {"would", "could", "might", "may", "should", "shall", "must"}
CONDITIONAL = {"if", "unless", "whether"}
# Verbs whose infinitive happened: "went on to win", "continued to play", "managed to escape".
HAPPENED = {"go", "continue", "begin", "start", "manage", "come", "happen", "proceed", "help", "use", "get",
            "return", "cease", "stop", "resume", "tend", "live"}
ORDINALS = {"first", "second", "third", "fourth", "fifth", "only", "youngest", "oldest"}


def not_stated(verb: Any) -> bool:
    """The clause does not state that it happened: negated ("have not won", "fitted out no armament", "no
    country recognised"), hypothetical ("would join", "if …", "Had the Nueces been regarded …"), or an
    infinitive under a verb or noun of wanting, duty or plan ("the last nation to desire war", "our duty to
    provide"); an infinitive that says what did happen ("went on to win", "the first woman to fly") is kept."""
    node = verb
    for _ in range(3):
        for child in node.children:
            if child.dep_ == "neg" or child.lower_ in ("never", "neither", "nor", "no"):
                return True
            if child.dep_ in ("aux", "auxpass") and child.lower_ in HYPOTHETICAL:
                return True
            if child.dep_ == "mark" and child.lower_ in CONDITIONAL:
                return True
            if child.dep_ in ("nsubj", "nsubjpass", "dobj", "attr") and any(
                    d.dep_ == "det" and d.lower_ in ("no", "neither") for d in child.children):
                return True
        if _no_longer(node) or _inverted_condition(node) or _unreal_infinitive(node) or _wished_time(node):
            return True
        if node.dep_ in ("pcomp", "pobj") and _instead(node.head):
            return True  # "elected without having ever served as a councillor", "instead of signing"
        if node.dep_ == "advcl" and any(c.dep_ == "prep" and c.i < node.i and _instead(c)
                                        and not any(g.dep_ in ("pobj", "pcomp") for g in c.children)
                                        for c in node.head.children):
            return True  # "without, unlike all his predecessors, having ever served": the parser left it empty
        if node.dep_ in ("xcomp", "conj", "ccomp") and node.head.i != node.i:
            node = node.head
        else:
            break
    return False


def _instead(prep: Any) -> bool:
    """ "without", "instead of", "rather than": the clause under it did not happen."""
    before = prep.doc[prep.i - 1].lower_ if prep.i > 0 else ""
    return bool(prep.lower_ == "without" or (prep.lower_, before) in (("of", "instead"), ("than", "rather")))


WANTING = {"wish", "hope", "desire", "plan", "intention", "dream", "ambition", "aim", "request", "demand", "want"}


def _wished_time(verb: Any) -> bool:
    """"expressed the wish to be buried in Fenghua once the Kuomintang recovered mainland China": a time clause
    beside a wished-for infinitive is the wish's (the parser hangs it on the main verb), no event."""
    if verb.dep_ != "advcl" or not any(c.dep_ == "mark" and c.lower_ in ("once", "when", "after", "until", "before")
                                        for c in verb.children):
        return False
    if _unreal_infinitive(verb.head):
        return True  # the parser hung the clause on the infinitive itself
    return any(c.dep_ in ("dobj", "attr") and c.lemma_.lower() in WANTING and any(
        g.dep_ in ("acl", "relcl") and any(a.dep_ == "aux" and a.lower_ == "to" for a in g.children)
        for g in c.children) for c in verb.head.children)


def _no_longer(verb: Any) -> bool:
    """ "as no longer constituting a part of Mexico": the tagger hangs "no longer" on the "as" before the verb."""
    before = [t for c in verb.children if c.i < verb.i for t in c.subtree]
    return any(t.lower_ in ("no", "not") and t.i + 1 < len(t.doc) and t.doc[t.i + 1].lower_ == "longer"
               for t in before)


def _inverted_condition(verb: Any) -> bool:
    """ "Had the Nueces been regarded …", "Were it not for …": an auxiliary before the subject, in a clause that
    hangs on another (a question gives no facts anyway)."""
    subject = next((c.i for c in verb.children if c.dep_ in SUBJECTS), None)
    return subject is not None and any(
        c.dep_ in ("aux", "auxpass") and c.i < subject and c.lower_ in ("had", "were", "should")
        and (verb.dep_ == "advcl" or c.is_sent_start) for c in verb.children)


def _unreal_infinitive(verb: Any) -> bool:
    if not any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children):
        return False
    head = verb.head
    if head.pos_ in ("VERB", "AUX") and head.lemma_.lower() in HAPPENED:
        return False  # "went on to win", "continued to play"
    if head.pos_ in ("NOUN", "PROPN") and any(m.lower_ in ORDINALS for m in head.children if m.dep_ == "amod"):
        return False  # "the first woman to fly across the Atlantic"
    if head.lemma_.lower() == "be" and any(c.dep_ == "attr" and any(m.lower_ in ORDINALS for m in c.children)
                                           for c in head.children):
        return False  # "she was the first to …"
    return True
