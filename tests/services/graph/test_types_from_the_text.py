"""Issue 29, round 21: the type the text gives a name, from the wrong types of round 20's five judged draws (seeds
157 to 173). Every fix case failed on the commit before its rule: the stored type was the tagger's guess or a class
read from the wrong noun. The guards keep right types of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.schema import TextNode

from services.graph.document_facts import _found
from services.graph.entities import display_name
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.resolution import resolve_document
from services.graph.text_parse import topic_pattern
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_extents import assert_facts
from tests.services.graph.test_name_precision import names
from tests.services.graph.test_type_evidence import types


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


_FROM_CLASSES = [
    # a lemma the lemmatiser cut short ("miniseries" -> "miniserie") still names its class
    ("Marco Polo is an American-Italian television miniseries originally broadcast by NBC in the United States. "
     "It starred Kenneth Marshall as Marco Polo.", "Marco Polo", "Marco Polo", "WORK_OF_ART", "PERSON"),
    # a playing position is a person's class …
    ("Shelton Eugene Quarles (born September 11, 1971) is a former linebacker for the Tampa Bay Buccaneers, the "
     "team he played for in his ten-year career from 1997 to 2006.", "Shelton Quarles", "Shelton Eugene Quarles",
     "PERSON", "ORG"),
    # … and a second complement after a comma and a name is that name's appositive: the team is the Buccaneers
    ("Shelton Eugene Quarles (born September 11, 1971) is a former linebacker for the Tampa Bay Buccaneers, the "
     "team he played for in his ten-year career from 1997 to 2006.", "Shelton Quarles", "Tampa Bay Buccaneers",
     "ORG", "ENTITY"),
    # a member of a family of things is no person
    ("The A-flat (A♭ ) clarinet is a member of the clarinet family, smaller and sounding a perfect fourth higher "
     "than the E♭ clarinet.", "A-flat clarinet", "A-flat clarinet", "ENTITY", "PERSON"),
    # a media franchise is a work, no organisation
    ("Jungledyret Hugo is a Danish media franchise featuring the cartoon adventures of an anthropomorphic mammal "
     "named Hugo.", "Jungledyret Hugo", "Jungledyret Hugo", "WORK_OF_ART", "ORG"),
    # "a series of tornado outbreaks" are outbreaks, no television series
    ("The Tornado outbreak sequence of May 2004 was a series of tornado outbreaks that affected much of southern "
     "Ontario.", "Tornado outbreak sequence of May 2004", "Tornado outbreak sequence of May 2004", "EVENT",
     "WORK_OF_ART"),
    # capitals before a model number are no organisation's acronym
    ("The Heinkel HD 36 was a trainer developed in Germany in the 1920s at the request of the Swedish Air Force.",
     "Heinkel HD 36", "Heinkel HD 36", "ENTITY", "ORG"),
]


_SAME_SHAPES = [
    # guards: a member of a family of people is one; a series of things no class names stays a series (a work);
    # "the team" after a name that is no appositive keeps its own reading
    ("John Smith is a member of the Kennedy family and a senator from Massachusetts.", "John Smith", "John Smith",
     "PERSON"),
    ("Barn Jams are a series of instrumental pieces written by David Gilmour.", "Barn Jams", "Barn Jams",
     "WORK_OF_ART"),
    ("The Heinkel HD 38 was a fighter aircraft developed in Germany in the late 1920s.", "Heinkel HD 38",
     "Heinkel HD 38", "PRODUCT"),
    ("Marco Polo was broadcast by NBC in 1982.", "Marco Polo", "NBC", "ORG"),
]


def test_a_person_mention_whose_words_name_a_company_holds_no_short_form(extractor):
    """ "Chandris Fantasy Cruises", tagged a person and named in no fact, took "Fantasy Cruises" (the company
    Chandris acquired) for its short form, so the fact's object was a person."""
    text = ("In 1985 Chandris Cruises acquired Fantasy Cruises, and subsequently their North American operations were "
            "rebranded as Chandris Fantasy Cruises.")
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_topic": "Chandris Line"})
    extractor([node])
    entities, target = resolve_document(_found([node]))
    assert target.get("fantasy cruises") == "fantasy cruises", target
    assert entities["fantasy cruises"].type == "ORG"


def test_a_topic_written_with_spaces_around_its_dash_is_found(extractor):
    assert_facts(extractor, "The 1985 United States – Canada tornado outbreak was a major tornado outbreak that "
                 "occurred in Ohio and Ontario on May 31, 1985.", "1985 United States–Canada tornado outbreak",
                 ("united states", "held_in", "canada"),
                 ("1985 united states canada tornado outbreak", "held_in", "ohio"))
    assert topic_pattern("Arthur? Arthur!") == r"(?<!\w)Arthur\?\s+Arthur!(?!\w)"


def test_a_topic_events_short_form_is_the_topic(extractor):
    """ "the Late-May 1998 Tornado Outbreak and Derecho", cut by the tagger, left "Tornado Outbreak", which ends the
    topic's name: no fact of it. (A guard: before the round the topic was untyped and took its short forms as
    an untyped name does; typed an event by "outbreak", it must still take them.)"""
    text = ("The 1998 Eastern Tornado Outbreak of June 2, 1998, was one of the most significant tornado outbreaks in "
            "the history of Pennsylvania. It immediately followed the Late-May 1998 Tornado Outbreak and Derecho on "
            "May 30–31, 1998.")
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_topic": "1998 Eastern tornado outbreak"})
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get("tornado outbreak", "tornado outbreak") == "1998 eastern tornado outbreak", target


_FROM_HEADS_AND_DEEDS = [
    # a person's class never types a name whose own head says what it is
    ("Worksop College Preparatory School, Ranby House is a co-educational independent preparatory, day and boarding, "
     "school for boys and girls aged 3 to 13.  It was founded by Nathaniel Woodard and is a member of the Woodard "
     "Schools.",
     "Worksop College Preparatory School", "Worksop College Preparatory School", "ORG", "PERSON"),
    ("Cihu Mausoleum (), officially known as the Mausoleum of Late President Chiang () or President Chiang Kai-shek "
     "Mausoleum is the temporary resting place of President Chiang Kai-shek.", "Cihu Mausoleum", "Cihu Mausoleum",
     "FAC", "PERSON"),
    # a studio that develops or publishes a work is no event, whatever "Games" says
    ("Rush 2: Extreme Racing USA is a racing video game developed by Atari Games and published by Midway Games.",
     "Rush 2: Extreme Racing USA", "Midway Games", "ORG", "EVENT"),
    # a game played is an event: "an all-star game", "a bowl game", and a bowl or a year's game named as a work
    ("The Pro Bowl is the all-star game of the National Football League (NFL).", "Pro Bowl", "Pro Bowl", "EVENT",
     "WORK_OF_ART"),
    ("The 2013 Little Caesars Pizza Bowl is an American college football bowl game that was played on December 26, "
     "2013 at Ford Field.", "2013 Little Caesars Pizza Bowl", "2013 Little Caesars Pizza Bowl", "EVENT",
     "WORK_OF_ART"),
    ("Texas vs The Nation was an American college football all-star bowl game played from 2007 to 2013. In 2012, "
     "the NFLPA began its own all-star game, the NFLPA Collegiate Bowl, and the Texas vs The Nation game was not "
     "held.", "Texas vs The Nation", "NFLPA Collegiate Bowl", "EVENT", "WORK_OF_ART"),
    # an athletic conference is a body, no meeting
    ("The Oahu Interscholastic Association (OIA) is an athletic conference composed of all public secondary schools "
     "on the island of Oahu, Hawaii.", "Oahu Interscholastic Association", "Oahu Interscholastic Association", "ORG",
     "EVENT"),
    # "the" and a plural name a team, even one the tagger calls an event
    ("During the offseason, the Lakers signed Samaki Walker, while acquiring Lindsey Hunter from the Milwaukee Bucks.",
     "2001–02 Los Angeles Lakers season", "Milwaukee Bucks", "ORG", "EVENT"),
    # a network or a boulevard by its head
    ("Neighbours is an Australian television soap opera. It was first broadcast on the Seven Network on 18 March "
     "1985.", "Neighbours", "Seven Network", "ORG", "EVENT"),
    ('"Rexford" was located at 9250 Olympic Boulevard, Beverly Hills, California 90210 in a Classic Spanish style '
     "Duplex.", "Rexford College Preparatory School", "Olympic Boulevard", "FAC", "EVENT"),
]


@pytest.mark.parametrize(("text", "topic", "name", "right", "wrong"), _FROM_CLASSES + _FROM_HEADS_AND_DEEDS)
def test_the_text_types_the_name(extractor, text, topic, name, right, wrong):
    found = types(extractor, text, topic)
    assert found.get(name) == right and found.get(name) != wrong, found


@pytest.mark.parametrize(("text", "topic", "name", "right"), _SAME_SHAPES + [
    # guards: a two-word person's name may end in a place's head; games that are played stay events; a work that
    # is a game keeps its class
    ("John Lake is an English actor and a member of the Royal Shakespeare Company.", "John Lake", "John Lake",
     "PERSON"),
    ("The 1998 Commonwealth Games were held in Kuala Lumpur, Malaysia.", "1998 Commonwealth Games",
     "1998 Commonwealth Games", "EVENT"),
    ("The Most Dangerous Game is a 1932 American film directed by Irving Pichel.", "The Most Dangerous Game",
     "The Most Dangerous Game", "WORK_OF_ART"),
])
def test_right_types_of_the_same_shapes_stay(extractor, text, topic, name, right):
    assert types(extractor, text, topic).get(name) == right


# -- names cut or run on: from the entity census of round 21 (300 entities never judged, two helpers) ---------
_CUT_OR_RUN_ON = [
    # a party's initials before its wing, which the tagger calls a person
    ("Roopa Ganguly is an Indian actress and politician. She served as the President of BJP Mahila Morcha in West "
     "Bengal.", "bjp mahila morcha", "mahila morcha"),
    # a given name the tagger called a people
    ("This is known in India as the Tibetan OV Bible.  Eliya Tsetan Phuntshog published a New Testament in 1970.",
     "eliya tsetan phuntshog", "tsetan phuntshog"),
    # one common word after "and" ends the body's name
    ("The Club later moved, and the building was renovated as the Mount Vernon Hotel and Cafe.",
     "mount vernon hotel and cafe", "cafe"),
    # a whole name after "of", not its first word
    ("The DeCavalcante crime family is an Italian-American Mafia crime family. It operates on the other side of the "
     "Hudson River from the Five Families of New York, but it maintains strong relations with many of them.",
     "five families of new york", "five families of new"),
]


def test_a_sentences_full_stop_is_no_part_of_a_name():
    assert [display_name(n) for n in ("Relangi Narasimha Rao.", "Jay-Z.", "Hank Williams, Jr.", "U.S.", "Bill W.",
                                      "Little Caesar Enterprises Inc.", "Beneath... Between... Beyond...")] == [
        "Relangi Narasimha Rao", "Jay-Z", "Hank Williams, Jr.", "U.S.", "Bill W.", "Little Caesar Enterprises Inc.",
        "Beneath... Between... Beyond..."]


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a prize's category is no class of the prize
    ("King Wallis Vidor was an American film director. He was nominated five times for a Best Director Oscar.",
     "King Vidor", None, ("king vidor", "nominated_for", "oscar")),
    # a capitalised field before a body's unit is no name (and, a guard, the buyer of the unit bought no whole)
    ("Guitar World is a monthly music magazine. In 2012, NewBay Media bought the Music division of Future US.",
     "Guitar World", ("newbay media", "acquired", "future us"), ("newbay media", "related_to", "future us")),
    ("Guitar World is a monthly music magazine. In 2012, NewBay Media bought the Music division of Future US.",
     "Guitar World", ("newbay media", "acquired", "music"), None),
])
def test_a_category_or_a_field_is_no_thing(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_a_prize_named_by_its_category_is_no_person(extractor):
    assert types(extractor, "King Wallis Vidor was an American film director. He was nominated five times for a "
                            "Best Director Oscar.", "King Vidor").get("Oscar") == "ENTITY"


# -- names cut under round 20's wrong facts ------------------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "fragment"), _CUT_OR_RUN_ON + [
    # an exclamation inside a sentence is the name's
    ("Pizza Hut is a subsidiary of Yum!  Brands, Inc., one of the world's largest restaurant companies.",
     "yum! brands", "yum"),
    # a capitalised word that is no English adjective opens the name
    ("Return of the Vampire is a compilation album of rare demo tracks by Mercyful Fate recorded before their first, "
     "official release in 1982.", "mercyful fate", "fate"),
    # a state named after its city is no city
    ("After independence, the city was a part of Bombay state.", "bombay state", "bombay"),
    # a given name the parser took for a noun
    ("Cecil Schwabe (3 September 1897 – 20 April 1971) who performed under the stage name Cecil Parker was an "
     "English character and comedy actor.", "cecil schwabe", "schwabe"),
])
def test_the_whole_name_is_kept(extractor, text, whole, fragment):
    found = names(extractor, text)
    assert whole in found and fragment not in found, found


@pytest.mark.parametrize(("text", "name"), [
    # guards: a state that is its own region keeps its name; "the U.S. state of New York" is New York
    ("Seattle is a city in Washington state.", "washington"),
    ("Gardiners Bay is a small arm of the Atlantic Ocean in the U.S. state of New York.", "new york"),
])
def test_a_region_before_state_keeps_its_name(extractor, text, name):
    assert name in names(extractor, text)


def test_a_place_before_a_based_band_is_no_author(extractor):
    assert_facts(extractor, "Capricorn One: Singles & Rarities is a compilation album by the Santa Cruz, "
                 "California-based punk rock band Good Riddance, released through Fat Wreck Chords July 6, 2010.",
                 "Capricorn One: Singles & Rarities", ("santa cruz", "created", "capricorn one singles & rarities"),
                 ("good riddance", "created", "capricorn one singles & rarities"))


def test_a_subtitles_of_and_the_name_after_it_are_the_titles(extractor):
    assert_facts(extractor, 'Love to Love You Bradys: The Bizarre Story of The Brady Bunch Variety Hour is a 2009 coffee '
                 'table book written by "The Brady Bunch" actress Susan Olsen.', "Love to Love You Bradys",
                 ("susan olsen", "wrote", "love to love you bradys the bizarre story"),
                 ("susan olsen", "wrote", "love to love you bradys the bizarre story of the brady bunch variety hour"))


def test_a_brand_after_its_owners_possessive_is_one_name(extractor):
    found = names(extractor, "It is the third-largest pizza chain in the United States, behind Pizza Hut and "
                             "Domino's Pizza.")
    assert "domino's pizza" in found and "pizza" not in found, found


def test_a_show_at_an_awards_night_is_no_competition(extractor):
    found = triples(extract(extractor, "Sophie Ellis performed live at the 1995 Source Awards.", "Sophie Ellis")[1])
    assert ("sophie ellis", "competed_in", "source awards") not in found, found


def test_a_peerage_the_document_is_about_is_no_man(extractor):
    """Its holders are men ("the 5th Baron Stanley of Alderley"), whose facts (a son of) type it a person."""
    text = ("Baron Stanley of Alderley, in the County of Chester, is a title in the Peerage of the United Kingdom.  "
            "Oliver Hugh Stanley was the youngest son of the 5th Baron Stanley of Alderley.")
    assert types(extractor, text, "Baron Stanley of Alderley").get("Baron Stanley of Alderley") == "ENTITY"


def test_peoples_listed_after_a_language_are_languages(extractor):
    found = names(extractor, "Days of Wonder has published games in English, French, German, Dutch, Hungarian and "
                             "Greek.")
    assert found.get("hungarian") == "LANGUAGE" and found.get("german") == "LANGUAGE", found
    # the guard: a people after a language in another role stays a people
    assert names(extractor, "He speaks English and his wife is French, a Parisian.").get("french") == "NORP"


def test_a_topics_legal_name_is_the_topic(extractor):
    """The topic "Dunkin' Brands", found in "Dunkin' Brands Group, Inc. is …", left "Group, Inc." a company."""
    assert_facts(extractor, "Dunkin' Brands Group, Inc. is an American restaurant holding company which runs two "
                 "chains of fast-food restaurants: Dunkin' Donuts and Baskin-Robbins.", "Dunkin' Brands",
                 ("group inc", "nationality", "american"), ("dunkin' brands", "nationality", "american"))


def test_the_name_right_before_a_subjectless_verb_is_its_subject(extractor):
    assert_facts(extractor, "Most destinations served from the airport are in Africa but TAP Portugal operates a "
                 "service to Lisbon, Portugal, Turkish Airlines operates flights to Istanbul, and Qatar Airways "
                 "operates flights to Doha.", "Maputo International Airport",
                 ("tap portugal", "related_to", "istanbul"), ("turkish airlines", "related_to", "istanbul"))


def test_given_names_after_a_family_named_by_its_surname_take_it(extractor):
    assert_facts(extractor, "Charmed is an American television series. The series initially focuses on the three "
                 "Halliwell sisters, Prue (Shannen Doherty), Piper (Holly Marie Combs) and Phoebe (Alyssa Milano).",
                 "Charmed", ("charmed", "related_to", "prue"), ("charmed", "related_to", "prue halliwell"))
    # the guard: a family noun without a surname leaves the given name as it is
    assert "prue halliwell" not in names(extractor, "The series focuses on the three sisters, Prue, Piper and Phoebe.")
