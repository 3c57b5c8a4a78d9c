"""Who does what to whom (services/graph/clauses.py, vocabulary.py, extraction.py), on the sentences of issue
29's round-11 judged sample that gave a wrong fact (shortened where the old extractor's other faults hid it).
Each case failed with the extractor of the commit before these rules, except the guards, which keep the rules
narrow (a "discovered by", a band "of" a city, a fronted "with" that is company, a bridge that crosses)."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract, triples


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def _found(extractor, text, topic=None):
    return triples(extract(extractor, text, topic=topic)[1])


@pytest.mark.parametrize(("text", "topic", "wrong"), [
    # identifying, describing and claiming are not finding or winning
    ("Vulnerable Native Breeds are a group of dog breeds originating in the United Kingdom and Ireland, and "
     "identified by The Kennel Club (KC) as having annual registration numbers of 300 puppies or fewer.",
     "Vulnerable Native Breeds", ("kennel club", "discovered", "vulnerable native breeds")),
    ("Malc Macmillan described their track 'Blind Fury' as one of the classic tracks of the genre.", "Satan",
     ("malc macmillan", "discovered", "blind fury")),
    ("Texas always claimed the Rio Grande as her western boundary.", None, ("texas", "won", "rio grande")),
    # "the first band of the Big Four" is not based there
    ("Metallica also became the first band of the Big Four to cross the Iron Curtain.", "Metallica",
     ("metallica", "based_in", "big four")),
    # a participle after "part of … of that State" is the part's, not the clause subject's
    ("It required the United States to dismember Texas by surrendering to Mexico that part of the territory of that "
     "State lying between the Nueces and the Rio Grande.", None, ("united states", "related_to", "rio grande")),
    # "as far west as X was confirmed": the territory was, X is its limit
    ("By the Florida treaty of 1819 the territory as far west as the Rio Grande was confirmed to Spain.", None,
     ("rio grande", "related_to", "spain")),
    # "With X in jail": X is the circumstance, not the verb's object
    ("With Zannino in jail, Grasso became underboss.", "William Grasso", ("grasso", "related_to", "zannino")),
    # a person serves as a coach somewhere; only a route connects places
    ("Chuck Priore is an American football coach. He served the head football coach at Trinity College in Hartford, "
     "Connecticut from 2000 to 2005.", "Chuck Priore", ("chuck priore", "connects", "connecticut")),
])
def test_no_wrong_fact(extractor, text, topic, wrong):
    found = _found(extractor, text, topic)
    assert wrong not in found, found


@pytest.mark.parametrize(("text", "topic", "fact"), [
    ("Penicillin was discovered by Alexander Fleming in 1928.", None, ("alexander fleming", "discovered", "penicillin")),
    ("Metallica is a band of San Francisco.", "Metallica", ("metallica", "based_in", "san francisco")),
    ('"Big Hero 6" won the Oscar for Best Animated Feature in 2015.', "Big Hero 6",
     ("big hero 6", "won", "oscar for best animated feature")),
    ("With his brother Jim, Paul founded Acme Records in 1990.", "Paul Smith", ("paul", "founded", "acme records")),
    ("He came to America as early as 1900, as Ford was founded in Detroit.", None, ("ford", "founded_in", "detroit")),
    ("The Tay Bridge crosses the Firth of Tay between Dundee and Wormit.", None,
     ("tay bridge", "connects", "firth of tay")),
])
def test_guards_keep_the_right_fact(extractor, text, topic, fact):
    found = _found(extractor, text, topic)
    assert fact in found, found


def test_one_labelled_fact_per_pair(extractor):
    """"won the Oscar for Best Animated Feature" is won, and not also related_to through "for"."""
    found = _found(extractor, '"Big Hero 6" won the Oscar for Best Animated Feature in 2015.', "Big Hero 6")
    assert {f for f in found if f[0] == "big hero 6"} == {("big hero 6", "won", "oscar for best animated feature")}


def test_near_a_place_is_in_the_places_after_it(extractor):
    found = _found(extractor, "Kaintuck Territory was a theme park located near Benton, Kentucky, United States.",
                   "Kaintuck Territory")
    assert {("kaintuck territory", "located_near", "benton"), ("kaintuck territory", "located_in", "kentucky"),
            ("kaintuck territory", "located_in", "united states")} <= found, found


def test_a_verb_inside_a_title_says_nothing(extractor):
    text = ('Some of Warrior King\'s best known hits include "Virtuous Woman" (2001), "Hold Da Faith" (2005) and '
            '"My Life" (2005).')
    found = _found(extractor, text, "Warrior King")
    assert not [f for f in found if f[0] == "virtuous woman"], found


def test_round_12c_who_is_related_to_whom(extractor):
    """From a look at 45 facts of the round-12 graph: "friends of Johnson" are the friends; a rival one comes
    "from" is no place; a team signs a player (no treaty); a name before a noun modifies it ("All-Star guard");
    a preposition inside a name is the name's ("at Chapel Hill")."""
    found = _found(extractor, 'Hawkins\'s "Life of Samuel Johnson" came under swift attack from critics, from friends '
                              "of Johnson, and from his literary rival, James Boswell.", "Life of Samuel Johnson")
    assert not [f for f in found if f[2] == "johnson" or f[1] == "comes_from"], found
    found = _found(extractor, "During the offseason, the Lakers signed All-Star guard Mitch Richmond.",
                   "2001–02 Los Angeles Lakers season")
    assert found == {("lakers", "employs", "mitch richmond")}, found
    found = _found(extractor, "The 1986 North Carolina Tar Heels football team represented the University of North "
                              "Carolina at Chapel Hill during the 1986 season.", "1986 North Carolina Tar Heels football team")
    assert {f[1:] for f in found} == {("represented", "university of north carolina at chapel hill")}, found


def test_a_name_hung_on_a_noun_from_a_clause_away_is_no_apposition(extractor):
    """Round 12's judge: "Argentina `borders` Brazil" from a sentence about Paraguay."""
    found = _found(extractor, "Paraguay is a landlocked country in central South America, bordered by Argentina to "
                              "the south and southwest, Brazil to the east and northeast, and Bolivia to the "
                              "northwest.", "Paraguay")
    assert ("argentina", "borders", "paraguay") in found, found
    assert not [f for f in found if f[0] == "argentina" and f[2] == "brazil"], found
    assert not [f for f in found if f[2] == "brazil" and f[1] == "related_to"], found


def test_a_participles_clause_is_passive(extractor):
    """The round-12 canvas: "Texas `granted_to` United States" from "…, ceded to the United States by France": what
    was ceded to the United States, it acquired."""
    found = _found(extractor, "Texas constituted a portion of the ancient Province of Louisiana, ceded to the United "
                              "States by France in the year 1803.")
    assert ("united states", "acquired", "texas") in found and ("texas", "granted_to", "united states") not in found, found
