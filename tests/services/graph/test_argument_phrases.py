"""Round 14d of issue 29: the wrong and vacuous facts of the round-14 judged sample (seed 29, commit cefb8e7) and
of the 150-fact draw (seed 1411), each as a general rule. Every case failed on the commit before the rule
(549c494); the guards keep right facts of the same shapes."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from services.graph.spans import is_name
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_precision import names


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


@pytest.mark.parametrize(("text", "topic", "wrong"), [
    # a comparison keeps no direction, and a copula with a preposition says no relation
    ("England has a higher population density than Scotland.", "England", ("england", "related_to", "scotland")),
    # the speaker who "called them" something is no party to it
    ('Among the highest profile acts in 1990s British popular culture, "Time" called them "arguably the most '
     'recognisable face" of Cool Britannia.', "Spice Girls", ("time", "related_to", "cool britannia")),
    # a franchise based in a city played in the league, not the city
    ("The Hamilton Skyhawks was a professional basketball franchise based in Hamilton, Ontario that played in the "
     "World Basketball League.", "Hamilton Skyhawks", ("hamilton", "related_to", "world basketball league")),
    # an MP for a seat represents it
    ("He was Liberal Member of Parliament for Oldham.", "John Stanley", ("john stanley", "member_of", "oldham")),
])
def test_a_wrong_fact_is_not_stored(extractor, text, topic, wrong):
    assert wrong not in triples(extract(extractor, text, topic)[1])


@pytest.mark.parametrize(("text", "topic", "fact"), [
    ("He was Liberal Member of Parliament for Oldham.", "John Stanley", ("john stanley", "represented", "oldham")),
    ("The Hamilton Skyhawks was a professional basketball franchise based in Hamilton, Ontario that played in the "
     "World Basketball League.", "Hamilton Skyhawks", ("hamilton skyhawks", "related_to", "world basketball league")),
    # a guard: a fronted object is still one ("To the Cherokees, … the United States have granted"); round 14's
    # first rule for a fronted scene took it
    ("To the Cherokees, whose case has excited attention, the United States have granted in fee 13,554,135 acres.",
     None, ("united states", "related_to", "cherokees")),
    ("Edward Stafford, 3rd Baron Stafford was the son of Henry Stafford, 1st Baron Stafford.",
     "Edward Stafford, 3rd Baron Stafford",
     ("edward stafford 3rd baron stafford", "child_of", "henry stafford 1st baron stafford")),
    ("Deltha O'Neal played college football for the University of California, Berkeley.", "Deltha O'Neal",
     ("deltha o'neal", "played_for", "university of california berkeley")),
    ("Shabana Azmi is an alumna of Film and Television Institute of India in Pune.", "Shabana Azmi",
     ("shabana azmi", "studied_at", "film and television institute of india")),
])
def test_the_fact_names_the_right_things(extractor, text, topic, fact):
    assert fact in triples(extract(extractor, text, topic)[1])


def test_a_given_name_before_and_shares_the_surname(extractor):
    entities, facts = extract(extractor, "Sal's Pizza was a restaurant run by Mike and George Parente until 1990.",
                              "Sal's Pizza")
    assert "mike parente" in entities and "mike" not in entities, sorted(entities)
    # and a restaurant "run by" them is theirs, not made by them; the second name shares the first's path
    assert {("sal's pizza", "owned_by", "mike parente"), ("sal's pizza", "owned_by", "george parente")} <= \
        triples(facts), triples(facts)
    entities, _ = extract(extractor, "John Lennon met John and Paul McCartney in 1957.", "The Quarrymen")
    assert "john mccartney" not in entities, sorted(entities)  # a guard: John is John Lennon here


def test_a_name_with_a_given_name_is_no_people(extractor):
    entities, _ = extract(extractor, "Jaanam Samjha Karo is a 1999 Indian film written by Girish Dhamija.",
                          "Jaanam Samjha Karo")
    assert entities["girish dhamija"].label == "PERSON", entities["girish dhamija"]  # the tagger says NORP


def test_an_award_category_runs_on_through_by_an_actress(extractor):
    entities, _ = extract(extractor, "She was nominated in 2002 for the Gemini Award for Best Performance by an Actress "
                                     "in a Continuing Leading Dramatic Role.", "Jane Doe")
    assert "gemini award for best performance by an actress in a continuing leading dramatic role" in entities, \
        sorted(entities)


def test_a_name_inside_a_quoted_description_is_no_name(extractor):
    # 'nicknamed "West Point on the Rio Grande"' gave "TMI —related_to (nicknamed Point on)→ Rio Grande"
    found = names(extractor, 'It is nicknamed "West Point on the Rio Grande", though it is far from it.')
    assert not {"west point", "rio grande"} & set(found), found
    found = names(extractor, 'His work led to his sobriquet "the modern Pre-Raphaelite".')
    assert "pre-raphaelite" not in found, found
    found = names(extractor, 'The song "Hello" was released by Adele, and "The Beatles" toured Japan.')
    assert {"hello", "the beatles"} <= set(found) or {"hello", "beatles"} <= set(found), found  # a guard: a title


def test_a_title_qualifier_is_no_part_of_the_topics_name(extractor):
    from llama_index.core.graph_stores.types import KG_NODES_KEY
    from llama_index.core.schema import TextNode

    from services.graph.service import _topic

    text = ("William Forrest Winter (born February 21, 1923) is a retired American politician who served as the "
            "58th Governor of Mississippi from 1980 to 1984.")  # the tagger reads "Winter" as a date
    node = TextNode(text=text, start_char_idx=0, metadata=_topic("William Winter (politician)", {}, text))
    extractor([node])
    names = {e.name for e in node.metadata[KG_NODES_KEY]}
    assert "William Winter" in names and "William Winter (politician)" not in names, names


# -- round 14e: the round-14d judge's causes -------------------------------------------------------------
@pytest.mark.parametrize(("text", "present", "absent"), [
    # a portfolio is no body, nor its "and"-joined fields
    ("He served as Commissioner for Crown Lands and Immigration (1890-1892) and Minister for Agriculture and "
     "Education (1892) under Thomas Playford II.", {"thomas playford ii"}, {"education", "crown lands and immigration"}),
    # a body's fields are its name
    ("The festival is run by the Ministry of Education Youth and Culture in Jamaica.",
     {"ministry of education youth and culture"}, {"ministry of education youth"}),
    # a nation and a language are two
    ("Bhalo Theko is a 2003 Indian Bengali thriller film.", {"indian", "bengali"}, {"indian bengali"}),
    # a nationality and a title before a person are no part of the name
    ("It was invented by Danish MD Lasse Hessel in 1990.", {"lasse hessel"}, {"danish md lasse hessel"}),
    # an heir's number is no name
    ("He was the son of Sir John Smith, the second Baronet, who represented Lymington.", {"john smith"}, {"baronet"}),
    # a subtitle after a colon is the title's
    ("Big Hero 6: The Series is an upcoming American animated series.", {"big hero 6: the series"}, {"the series"}),
    ("Carol White is the CEO of Beta Industries.", {"beta industries"}, set()),  # a guard: a company after an office
])
def test_names_of_the_round_14d_draw(extractor, text, present, absent):
    found = set(names(extractor, text))
    assert present <= found and not absent & found, found


def test_an_awards_own_by_is_no_agent_and_a_fronted_with_no_object(extractor):
    _, facts = extract(extractor, "Venus Terzo is a Canadian actress. She was nominated in 2002 for the Gemini Award "
                                  "for Best Performance by an Actress in a Continuing Leading Dramatic Role.",
                       "Venus Terzo")
    assert not any(s.startswith("gemini award") for s, _, _ in triples(facts)), triples(facts)
    _, facts = extract(extractor, "With The Itchy & Scratchy & Poochie Show, The Simpsons surpassed The Flintstones "
                                  "as the longest-running animated series.", "The Simpsons")
    assert not any("poochie" in t for _, _, t in triples(facts)), triples(facts)


def test_he_is_no_peerage(extractor):
    # "He was Liberal Member of Parliament for Oldham" in the article on the title gave the title the seat: the
    # title is held by one man after another, and "he" is the last one named, or no one
    _, facts = extract(extractor, "Baron Stanley of Alderley is a title in the Peerage of the United Kingdom. The "
                                  "title passed to his younger brother, the 4th Baron. He was Liberal Member of "
                                  "Parliament for Oldham.", "Baron Stanley of Alderley")
    assert not any(t == "oldham" for _, _, t in triples(facts)), triples(facts)


def test_a_time_clause_of_a_wish_is_no_event(extractor):
    # round 13b's and 14d's judges: "the Kuomintang recovered mainland China" was stored; it was only wished for
    _, facts = extract(extractor, "When Chiang Kai-shek died in 1975, he was entombed in a sarcophagus since he "
                                  "expressed the wish to be eventually buried in his native Fenghua once the "
                                  "Kuomintang (KMT) recovered mainland China from the Communists.", "Cihu Mausoleum")
    assert not any(s == "kuomintang" for s, _, _ in triples(facts)), triples(facts)
    _, facts = extract(extractor, "He went on to win the title after he moved to Paris in 1990.", "John Doe")
    assert ("john doe", "moved_to", "paris") in triples(facts)  # a guard: that happened


# -- round 14g: the round-14f judge's causes (seeds 29 and 31) -------------------------------------------
@pytest.mark.parametrize(("text", "absent"), [
    ("WRVU was originally broadcast on 91.1 FM.", "91.1 fm"),  # a frequency is no name
    ("He was Leader of the Opposition for a period in 1896.", "opposition"),  # an office's field
])
def test_no_name_of_the_round_14f_draw(extractor, text, absent):
    assert absent not in names(extractor, text)


def test_a_suffix_or_a_frequency_alone_is_no_name():
    # the graph held "III —nationality→ American" (of Herbert Weston Scott Howell III) and "91.1 FM" as a publisher
    assert not is_name("III") and not is_name("Jr.") and not is_name("91.1 FM")
    assert is_name("Scott Howell III") and is_name("WRVU")  # a guard


def test_the_nth_baron_is_a_man_not_the_title(extractor):
    found = names(extractor, "The title passed to the 6th Baron Stanley of Alderley, who sold the family seat.")
    assert "6th baron stanley of alderley" in found, found


@pytest.mark.parametrize(("text", "topic", "wrong"), [
    # a team plays its home games at a stadium, it does not play for it
    ("The Buffalo Bills are a professional American football team. The Bills play their home games at New Era "
     "Field.", "Buffalo Bills", ("buffalo bills", "played_for", "new era field")),
    # no one is founded: "creating documentaries in" a city
    ("Gary Franklin is a film critic. He began creating documentaries in New York City.", "Gary Franklin",
     ("gary franklin", "founded_in", "new york city")),
    # "Worcester, Massachusetts": the state only says which Worcester
    ("Greater Boston is a region. It includes Worcester, Massachusetts and Providence, Rhode Island.",
     "Greater Boston", ("greater boston", "contains", "massachusetts")),
])
def test_a_wrong_fact_of_the_round_14f_draw_is_not_stored(extractor, text, topic, wrong):
    assert wrong not in triples(extract(extractor, text, topic)[1])
