"""What a question asks, read from its spaCy parse: the answer type, whether it wants several sources, whether
it asks who said something, and whether it leans on the previous turn.

- **Answer type**: who/whom/whose → a person; when → a date; where → a place; how many/how much → a number;
  which/what + a head noun → that noun's type ("what city" a place, "which year" a date, "what company" an
  organisation, "which actress" a person). A question with none ("what genre…") has no type.
- **Several sources**: a plural subject or head noun ("what did presidents say", "which presidents").
- **Who said**: a person asked about with a verb of saying ("which president talked about…"): the answer is the
  source's speaker, not a person the source quotes.
- **Follow-up**: only when the question needs the previous turn: "what about …", an ellipsis with no verb, a
  third-person pronoun or a demonstrative with no antecedent of its own. A question that names its own
  subject is standalone. :func:`follow_up` says why either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PERSON, DATE, PLACE, NUMBER, ORG, WORK = "person", "date", "place", "number", "organisation", "title"
LABELS = {PERSON: {"PERSON"}, DATE: {"DATE"}, PLACE: {"GPE", "LOC", "FAC"},
          NUMBER: {"CARDINAL", "QUANTITY", "MONEY", "PERCENT"}, ORG: {"ORG"}, WORK: {"WORK_OF_ART"}}
_HEADS = {
    PLACE: "city town country state place location county province region island village nation capital continent "
           "district area municipality river mountain street address",
    DATE: "year date day month century decade era",
    PERSON: "person man woman people president actor actress singer director author writer player politician "
            "musician rapper artist composer king queen leader founder member poet producer footballer cricketer "
            "senator governor minister emperor general chancellor mayor chairman ceo wife husband son daughter "
            "father mother brother sister child novelist painter scientist inventor designer coach dj",
    ORG: "company band team organization organisation label network university college school party club group "
         "firm corporation newspaper magazine channel station airline publisher manufacturer brand agency",
    NUMBER: "number percentage amount population total",
}
HEAD_TYPES = {word: kind for kind, words in _HEADS.items() for word in words.split()}
SAYING = {"say", "talk", "speak", "write", "mention", "discuss", "argue", "claim", "state", "declare", "tell",
          "propose", "describe", "warn", "promise", "call", "urge", "address", "ask", "announce", "note"}
THIRD_PERSON = {"he", "him", "his", "she", "her", "hers", "they", "them", "their", "theirs", "it", "its"}
DEMONSTRATIVES = {"that", "this", "those", "these"}
_WHAT_ABOUT = re.compile(r"^\s*(?:and|but|so)?\s*(?:what|how)\s+about\b|^\s*(?:tell me\s+)?more\b|\bmore about\b", re.I)


@dataclass
class QuestionShape:
    text: str = ""
    answer_type: str | None = None
    several: bool = False
    who_said: bool = False
    entities: list[str] = field(default_factory=list)  # names the question itself gives (never the answer)
    speaker: str = ""  # who the question asks about as the one who said it ("presidents", "Ronald Reagan")
    why: str = ""


def shape(doc: Any) -> QuestionShape:
    """The answer type and the rest of :class:`QuestionShape` from a parsed question."""
    tokens = [t for t in doc if not t.is_punct]
    lower = [t.lower_ for t in tokens]
    out = QuestionShape(text=doc.text, entities=[e.text for e in doc.ents])
    head = _wh_head(doc)
    if "how" in lower and any(w in ("many", "much") for w in lower[lower.index("how") + 1: lower.index("how") + 2]):
        out.answer_type, out.why = NUMBER, "how many / how much: a number"
    elif head is not None and head.lemma_.lower() in HEAD_TYPES:
        out.answer_type = HEAD_TYPES[head.lemma_.lower()]
        out.why = f"which/what {head.lemma_.lower()}: a {out.answer_type}"
    elif lower and any(w in ("who", "whom", "whose") for w in lower):
        out.answer_type, out.why = PERSON, "who: a person"
    elif "when" in lower:
        out.answer_type, out.why = DATE, "when: a date"
    elif "where" in lower:
        out.answer_type, out.why = PLACE, "where: a place"
    else:
        out.why = "no answer type asked"
    plural = [t for t in doc if t.tag_ in ("NNS", "NNPS") and (t.dep_ in ("nsubj", "nsubjpass") or t is head)]
    out.several = bool(plural)
    saying = [t for t in doc if t.lemma_.lower() in SAYING and t.pos_ == "VERB"]
    for verb in saying:
        for child in verb.children:
            if child.dep_ in ("nsubj", "nsubjpass") and child.lower_ not in ("who", "which", "what", "i", "you", "we"):
                out.speaker = " ".join(t.text for t in child.subtree if t.lower_ not in ("which", "what", "whose"))
    out.who_said = out.answer_type == PERSON and bool(saying)
    return out


def _wh_head(doc: Any) -> Any:
    """The noun a which/what determines ("which president", "what year"), or None."""
    for t in doc:
        if t.lower_ in ("which", "what", "whose") and t.dep_ in ("det", "attr", "nsubj", "dobj", "pobj"):
            if t.head.pos_ in ("NOUN", "PROPN") and t.head.i > t.i:
                return t.head
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if nxt is not None and nxt.pos_ in ("NOUN", "PROPN"):
                return nxt
    return None


def follow_up(doc: Any) -> tuple[bool, str]:
    """Whether the question needs the previous turn, and why (for the diagnostics)."""
    text = doc.text
    if _WHAT_ABOUT.search(text):
        return True, "it asks 'what about …' / 'more …', which continues the previous question"
    words = [t for t in doc if not t.is_punct]
    if words and len(words) <= 4 and not any(t.pos_ in ("VERB", "AUX") for t in words):
        return True, "an ellipsis: no verb of its own"
    nouns = [t for t in doc if t.pos_ in ("NOUN", "PROPN") or t.ent_type_]
    for t in doc:
        low = t.lower_
        if low in THIRD_PERSON:
            earlier = [n for n in nouns if n.i < t.i]
            if low in ("it", "its") and (nouns or t.dep_ == "expl"):
                continue  # 'it' with a noun anywhere: its antecedent, or an expletive ('is it true that …')
            if earlier:
                continue
            return True, f"'{t.text}' has no antecedent in the question"
        if low in DEMONSTRATIVES and t.tag_ == "DT":
            if t.dep_ == "det" and t.head.pos_ in ("NOUN", "PROPN"):
                if any(n.pos_ == "PROPN" or n.ent_type_ for n in nouns if n.i != t.head.i):
                    continue  # 'this war' beside a name the question gives
                return True, f"'{t.text} {t.head.text}' points back to something the question does not name"
            return True, f"'{t.text}' points back to something the question does not name"
    named = [n.text for n in nouns if n.pos_ == "PROPN" or n.ent_type_]
    if named:
        return False, f"standalone: it names its own subject ({', '.join(dict.fromkeys(named))})"
    return False, "standalone: no pronoun or ellipsis that needs the previous turn"
