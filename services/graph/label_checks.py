"""A fact's label checked against what its two ends are: a label the ends refute is only ``related_to``.

A verb trigger reads one sense of its verb, and the ends tell which sense the sentence meant: "play in" is a
role in a work ("played in Titanic") but a team's league or home ground ("played in the National Football
League", "play in the Titanium Security Arena"); "cover" is a song's new recording but a reporter's event
("covered the White House Correspondents Association Dinner"); "director of" is a film's director or an
agency's head. A wrong label also retypes both ends by what it wants them to be, so a refuted one is dropped
to ``related_to``, which keeps the raw phrase and says only that the two are related.

What an end is comes from its name's head noun first ("… Arena", "… World Cup", "University of …"), then from
the tagger's type; an untyped name refutes nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace

from services.graph.classes import head_label
from services.graph.coreference import Ref
from services.graph.gazetteer import place_names
from services.graph.resolver import Triple
from services.graph.spans import ENTITY, kind
from services.graph.vocabulary import ARGUMENT_KINDS, RELATED_TO

# Kinds a label's end cannot have: by the tagger's type (only the person/place confusion is safe to trust:
# the tagger calls a club by its city), and by the name's own head noun ("… Stadium", "University of …").
_NEVER_BY_TAG = {"person": {"place"}, "place": {"person", "group"}, "event": {"person", "place"}}
_NEVER_BY_HEAD = {"person": {"org", "place", "work", "event"}, "org": {"place", "work", "event"},
                  "place": {"person", "org", "work", "event"}, "event": {"person", "place"}}
# Labels checked but not used to type their ends ("competed in the NBA" does not make the NBA an event).
# A person "serves" a team or an office, not a route ("served the head football coach at Trinity College").
# A person does not come from another person ("came under attack from his rival, James Boswell").
_CHECKED_KINDS = {**ARGUMENT_KINDS, "competed_in": (None, "EVENT"), "borders": ("GPE", "GPE"), "connects": ("FAC", None),
                  "comes_from": (None, "GPE")}

# What a label's subject and object are never, by head noun or by a tag the tagger rarely gets wrong that way.
_NO_WORK = {"place", "org", "event", "person"}
_NEVER_ENDS: dict[str, tuple[set[str], set[str]]] = {
    "starred_in": ({"place", "event", "work"}, _NO_WORK | {"group", "language"}),  # "play in the Titanium Security
    # Arena", "in the NFL"; "starred in both English and Chinese shows" (the shows' language)
    "performed": ({"place", "event", "work"}, _NO_WORK - {"person"}),  # "covered the … Dinner" (a character is
    # played: "Norman Coburn played Donald Fisher")
    "played_for": ({"place", "event", "work"}, {"person", "work", "event", "place"}),  # "the game was played at
    # Wrigley Field", "plays their home games at New Era Field" (a place by its head or a facility's tag; a city's
    # tag is no place here: the tagger calls a club by its city)
    "founded_in": ({"person"}, set()),  # "began creating documentaries in New York City": no one is founded
    "leads": (set(), {"work", "event"}),  # "the director of 'Scenes of a Sexual Nature'" directed it
    "held_in": (set(), {"person", "org", "work", "language", "group"}),  # "a disaster in Hindi"
    "based_in": (set(), {"person", "work", "event", "language"}),  # "a character in 'Home and Away'"
    "served_in": ({"event", "work", "place"}, {"person"}),  # "the Championship serves as qualifier for the World
    # Cup"; "served as a senior partner in the Rose Law Firm … with Hillary Clinton": in the firm, not in her
    "killed": (set(), {"work", "place"}),  # "The film was shot in Todd-AO by Dean Cundey": filmed, no one killed
    "collaborated_with": ({"work", "place", "event"}, {"work", "place", "event"}),  # "It [a song] was recorded …
    # with Jerry Rivers (fiddle), Don Helms": the players recorded it; a song works with no one
}
# A tag that means a place says little of a team or a venue (the tagger calls a club by its city)
_SAFE_TAGS = {"PERSON", "EVENT", "WORK_OF_ART", "LANGUAGE", "NORP", "FAC", "LOC"}
# Labels between two of one kind: a film does not succeed a person ("it follows Damin Wolfblade")
_SAME_KIND = {"succeeded", "preceded", "successor_of", "predecessor_of"}
_EVENT_HEADS = {"dinner", "gala", "banquet", "parade", "ceremony", "game", "match", "concert", "season", "tour"}


def checked_label(t: Triple) -> Triple:
    """``t`` with a label its ends refute turned to ``related_to`` ("Mexico child_of Spain" from "that Mexico had
    borne to Spain", "played_for Kenan Memorial Stadium", "competed_in Berlin"), or a sense its ends choose
    ("the Lakers signed Mitch Richmond": employs, no treaty; "the director of a film": directed)."""
    words = t.raw.lower().split()
    if t.label == "founded" and end_kind(t.object) == "event":
        if any(w.startswith(("organis", "organiz", "stag")) for w in words):
            return replace(t, label="hosted")  # "Hong Kong successfully organised the V East Asian Games": it hosted
        if any(w.startswith(("start", "began", "begin", "begun")) for w in words):
            return replace(t, label=RELATED_TO)  # "the Magic started the season": no one founds a season
        return t  # "the ACBL established an official World Computer-Bridge Championship": it founded it
    if t.label == "founded" and any(w.startswith(("creator", "co-creator", "designer", "inventor")) for w in words) \
            and end_kind(t.object) not in ("org", "group", "place"):
        return replace(t, label="created")  # 'the co-creator of "Walker, Texas Ranger"': one founds no series
    if t.label == "founded" and any(w.startswith(("organis", "organiz")) for w in words):
        return replace(t, label=RELATED_TO)  # "the league …, organised by the Malaysia Basketball Association": it
        # runs the league, which it need not have founded
    if t.label == "published_by":
        sense = _published_sense(t, words)
        if sense is not None:
            return replace(t, label=sense)
    if t.label == "influenced_by" and t.raw.lower().endswith("based on") and _a_place(t.object):
        return replace(t, label="based_in")  # "the first NFL team based on the West Coast": a place, no novel
    if (t.label == "stars" and end_kind(t.subject) == "work" and end_kind(t.object) in ("work", "place", "event")) \
            or (t.label == "portrayed" and end_kind(t.object) == "work" and t.raw.startswith("starring")):
        # two singles the parse ran into one list ('"Mic Jack" featuring Adam Levine, … and "Kill Jill"'); a title
        # after an "as" that was the remake's ('remade … in Kannada as "Bal Nan Maga" starring …'): no relation
        return replace(t, label=RELATED_TO, unsaid=True)
    if t.label == "stars" and end_kind(t.object) == "work" and end_kind(t.subject) in ("person", None):
        return replace(t, label="starred_in")  # "the films in which he starred: 'The Life and Death of Colonel Blimp'"
    if t.label == "released" and end_kind(t.object) == "person" and end_kind(t.subject) != "person":
        # "the debut EP by … singer, Jung Joon-young, released by CJ E&M": the participle was the EP's; a label
        # releases records, not the singer (who is still its artist: related)
        return replace(t, label=RELATED_TO)
    if t.label == "released_in" and end_kind(t.subject) == "person":
        # a person is not released: "she made her big screen debut in the film Bhagyadevatha" is a role in it;
        # "Yoko Ono performs in English" says nothing of a release
        return replace(t, label="starred_in" if end_kind(t.object) == "work" else RELATED_TO)
    if t.label == "starred_in" and t.subject.label == "ORG" and end_kind(t.subject) in ("org", None):
        return replace(t, label=RELATED_TO)  # "a basketball team that plays in the Basketball Bundesliga": no role
    if t.label == "part_of" and end_kind(t.subject) == "work" and t.object.label in ("ORG", "PERSON") \
            and words[:2] in (["single", "from"], ["song", "from"], ["track", "from"]):
        return replace(t, subject=t.object, label="created", object=t.subject)  # "the debut single from Death Row
        # Records duo Tha Dogg Pound": the duo's single, no part of the duo
    if t.label == "starred_in" and t.object.label == "ORG" and end_kind(t.object) is None and words[:1] \
            and words[0].startswith("play"):
        return replace(t, label=RELATED_TO)  # "a footballer who played with Carlton in the VFL": a league, no show
    if t.label == "portrayed" and end_kind(t.subject) == "work" and end_kind(t.object) == "person":
        return replace(t, label="stars")  # "It stars Sandra Oh as a sex researcher and Suzy Nakamura as a
        # subject": the film stars her; a film plays no one
    if t.label == "won" and t.object.label == "WORK_OF_ART" and words[:1] and words[0].startswith(("achiev", "gain")):
        return replace(t, label=RELATED_TO, unsaid=True)  # "achieved chart success with the singles … "Jet Set"",
        # "gained recognition in … "Superstar K4"": a work made or shown in, no prize, and the verb alone says nothing
    if t.label == "won" and words[-1:] in (["her"], ["him"], ["them"]):
        return replace(t, label=RELATED_TO)  # "the Government of India awarded her": the one awarded is no prize
        # won (but "won an Oscar", the prize tagged a person, is won)
    if t.label == "portrayed" and t.subject.label == "ORG" and t.object.label == "ORG" and words[:1] \
            and words[0] in ("play", "played", "began", "begin", "competed"):
        return replace(t, label="known_as")  # "The team originally began play … as the Detroit Spirits": its name
    if t.label == "married" and t.object.label == "ORG" and words[:1] == ["partner"]:
        return replace(t, label="member_of")  # "a partner of Wright, Lindsey & Jennings, a … law firm"
    if t.label == "signed" and end_kind(t.subject) == "work" and not any(w.startswith("sign") for w in words):
        return replace(t, label=RELATED_TO)  # "The film also re-introduces Rags Ragland": no law, no contract
    if t.label == "signed" and kind(t.object.label) == "person":
        if not any(w.startswith("sign") for w in words):
            return replace(t, label=RELATED_TO)  # "the film introduces Selina Kyle": no treaty, and no one hired
        return replace(t, label="employs")  # "the Lakers signed All-Star guard Mitch Richmond": a player, no treaty
    for wanted, ref in zip(_CHECKED_KINDS.get(t.label, (None, None)), (t.subject, t.object), strict=True):
        if wanted and _contradicts(kind(wanted), ref):
            return replace(t, label=RELATED_TO)
    never = _NEVER_ENDS.get(t.label)
    if never is not None:
        for kinds, ref in zip(never, (t.subject, t.object), strict=True):
            end = end_kind(ref)
            if end in kinds:
                if t.label == "leads" and end == "work" and t.raw.lower().startswith("director"):
                    return replace(t, label="directed")
                return replace(t, label=RELATED_TO)
    if t.label == "acquired" and "over" in words and (end_kind(t.object) == "work"
                                                      or "person" in (end_kind(t.subject), end_kind(t.object))):
        return replace(t, label=RELATED_TO)  # "he took over the role of Jason Stevens in … The Ultimate Life": a
        # part, a post, a show taken over is no purchase
    if t.label in _SAME_KIND:
        a, b = end_kind(t.subject), end_kind(t.object)
        if (a and b and a != b) or (words[:1] and words[0].startswith("follow") and b == "person" and a != "person"):
            # "the series follows R'shiel Tenragan": its story, no successor; "The series previously published by
            # Tre Publishing House, followed Van Hoa Sai Gon Publishing House": a past succession between a work
            # and a body says nothing the text means
            return replace(t, label=RELATED_TO, unsaid=words[-1:] in (["followed"], ["succeeded"], ["preceded"])
                           and b not in ("person", None))
    if t.label == "connects" and words[:1] and words[0].startswith("serv") and not _a_route(t.subject):
        return replace(t, label=RELATED_TO)  # "WRVU serves Vanderbilt University", "the largest airport serving
        # Northern California": a station's or an airport's public, no route between places
    return t


def _published_sense(t: Triple, words: list[str]) -> str | None:
    """The label a "published by / released on" fact takes from what its object is, or None to keep it."""
    if t.object.label == "WORK_OF_ART" or head_label(t.object.name.split()) == "WORK_OF_ART":
        # 'first released on her 1973 album "Approximately Infinite Universe"'; not "debuted on Billboard" (a chart)
        return "part_of" if any(w.startswith(("releas", "issu")) for w in words) else RELATED_TO
    if "on" in words and t.object.label in ("PRODUCT", "ORG", ENTITY) and head_label(t.object.name.split()) != "ORG" \
            and not any(w.startswith(("air", "broadcast", "show", "screen", "televis", "stream")) for w in words):
        return RELATED_TO  # "released in 1997 on the PlayStation and Microsoft Windows": a platform as likely as a
        # label ("released on Columbia Records", whose head says so)
    if _a_place(t.object):
        return "released_in"  # "aired on the Fox network in the United States", "in Europe"
    return None


_ROUTES = {"route", "road", "highway", "interstate", "motorway", "freeway", "expressway", "turnpike", "line", "railway",
           "railroad", "street", "avenue", "boulevard", "parkway", "bridge", "tunnel", "trail", "canal", "ferry"}


def _a_route(ref: Ref) -> bool:
    """A road, a railway line, a bridge: by a word of its name, or a road's number ("NY 12F", "US 11", "A1")."""
    words = ref.name.lower().split()
    return any(w in _ROUTES for w in words) or bool(re.search(r"\b[A-Z]{1,4}[- ]?\d{1,4}[A-Z]?\b", ref.name))


def _a_place(ref: Ref) -> bool:
    """A place by its head or a trustworthy tag, or a name of the gazetteer (the tagger calls a club by its city,
    so a GPE tag alone says nothing)."""
    return end_kind(ref) == "place" or ref.name.lower() in place_names()


def end_kind(ref: Ref) -> str | None:
    """What a fact's end is, where its name's head noun or a trustworthy tag says it; None otherwise."""
    words = ref.name.split()
    head = head_label(words)
    if head is not None:
        return kind(head)
    if len(words) > 1 and words[-1].lower() in _EVENT_HEADS:
        return "event"  # "the White House Correspondents Association Dinner", "the 1939 … All-Star Game"
    if ref.label != ENTITY and ref.label in _SAFE_TAGS:
        return kind(ref.label)
    return None


def _contradicts(wanted: str, ref: Ref) -> bool:
    head = head_label(ref.name.split())
    if head is not None:
        return kind(head) in _NEVER_BY_HEAD.get(wanted, set())
    return ref.label != ENTITY and kind(ref.label) in _NEVER_BY_TAG.get(wanted, set())


_BE = {"is", "was", "are", "were", "be", "been", "being"}
_PREPOSITIONS = {"in", "at", "on", "of", "to", "from", "with", "by", "for", "into", "onto", "near", "as", "about"}


def says_nothing(t: Triple) -> bool:
    """A ``related_to`` whose raw phrase says no relation: a copula and a preposition ("was in"), or a comparison
    ("having density than": which way it compares is lost)."""
    if t.label != RELATED_TO:
        return False
    words = t.raw.lower().split()
    return "than" in words or (bool(words) and all(w in _BE or w in _PREPOSITIONS for w in words))
