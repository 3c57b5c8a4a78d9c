"""Issue 29, round 18: labels that stated a false relation in a census of 480 facts, and the objects a modifier
stood in for. Every case failed on the commit before its rule; the guards keep right facts of the same shapes."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_extents import assert_facts


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a body that organises a league runs it; it need not have founded it
    ("The Malaysia National Basketball League is the pre-eminent men's basketball league in Malaysia, organised by "
     "the Malaysia Basketball Association (MABA).", "Malaysia National Basketball League",
     ("malaysia basketball association", "founded", "malaysia national basketball league"),
     ("malaysia basketball association", "related_to", "malaysia national basketball league")),
    # a candidate for a seat is no member of it
    ("David Cruz Thayne was a candidate for California's 26th Congressional District in 2012.", "David Cruz Thayne",
     ("david cruz thayne", "member_of", "california's 26th congressional district"),
     ("david cruz thayne", "nominated_for", "california's 26th congressional district")),
    # a song recorded with players works with no one
    ("I Won't Be Home No More is a song by Hank Williams. It was recorded at Castle Studio in Nashville with Jerry "
     "Rivers (fiddle), Don Helms (steel guitar), and Harold Bradley (rhythm guitar).", "I Won't Be Home No More",
     ("i won't be home no more", "collaborated_with", "don helms"),
     ("i won't be home no more", "related_to", "don helms")),
    # a company's producer works for it and did not produce it
    ("Iván was discovered by CBS producer Oscar Gómez, and recorded a self-titled album.", "Iván",
     ("oscar gómez", "produced", "cbs"), ("oscar gómez", "worked_for", "cbs")),
    # "the US state of Massachusetts" is Massachusetts
    ("Greater Boston is the metropolitan region of New England encompassing the municipality of Boston, the capital "
     "of the US state of Massachusetts.", "Greater Boston", ("boston", "capital_of", "us"),
     ("boston", "capital_of", "massachusetts")),
    # the guard: "the Music division of Future US" is the division, no other name for Future US
    ("In 2012, NewBay Media bought the Music division of Future US.", "NewBay Media",
     ("newbay media", "acquired", "future us"), None),
    # a name before a hyphenated participle qualifies its own noun ("war"), not the film
    ("In Love and War (1987) is a Vietnam war-based thriller/drama television film starring James Woods.",
     "In Love and War", ("in love and war", "comes_from", "vietnam"), ("in love and war", "stars", "james woods")),
    # the guards: a people's adjective before "singer-songwriter" or "non-profit executive" is a nationality
    ("Holly Williams is an American singer-songwriter.", "Holly Williams", None,
     ("holly williams", "nationality", "american")),
    ("Bari Lurie is an American non-profit executive.", "Bari Lurie", None, ("bari lurie", "nationality", "american")),
])
def test_a_label_says_what_the_sentence_says(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


@pytest.mark.parametrize(("text", "school", "year"), [
    ("Andrews graduated from Harvard University in 1880 and served as an instructor in chemistry.",
     "harvard university", "1880-01-01"),
    ("She grew up in Havertown, PA, graduating from Haverford High School in 1972.", "haverford high school",
     "1972-01-01"),
])
def test_a_graduation_year_ends_the_study(extractor, text, school, year):
    _, facts = extract(extractor, text, "Clement Walker Andrews")
    dated = [(p["valid_from"], p["valid_until"]) for s, r, t, p in facts if r == "studied_at" and t == school]
    assert dated == [(None, year)], facts


def test_a_year_of_attending_still_starts_it(extractor):
    # the guard: "attended … from 1876" starts the study
    _, facts = extract(extractor, "Andrews attended Harvard University from 1876.", "Clement Walker Andrews")
    dated = [(p["valid_from"], p["valid_until"]) for s, r, t, p in facts if r == "studied_at"]
    assert dated == [("1876-01-01", None)], facts


def test_the_longest_known_ending_of_an_office_names_it(extractor):
    # "a previous Prime Minister of Israel": a prime minister, no minister (secretary_of)
    assert_facts(extractor, "Moshe Katsav, a prominent Likud politician, ran against Shimon Peres, a previous Prime "
                            "Minister of Israel.", "Israeli presidential election, 2000",
                 ("shimon peres", "secretary_of", "israel"), ("shimon peres", "prime_minister_of", "israel"))


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # "a director of", "a retired captain of": one of its officers, no leader of it
    ("He was a director of CQX Group of Transport Companies for 18 years.", "Scott Buchholz",
     ("scott buchholz", "leads", "cqx group of transport companies"),
     ("scott buchholz", "member_of", "cqx group of transport companies")),
    ("The story was written by Dale Brown, a retired captain of the US Air Force and a bestselling author.",
     "Act of War: Direct Action", ("dale brown", "leads", "us air force"), ("dale brown", "member_of", "us air force")),
    # the guard: "the director of" leads it
    ("Jane Smith is the director of the Tate Gallery.", "Jane Smith", None, ("jane smith", "leads", "tate gallery")),
    # a league's team is its member, not its property
    ("George Wilson was a coach for the National Football League's Detroit Lions.", "George Wilson",
     ("detroit lions", "owned_by", "national football league"),
     ("detroit lions", "member_of", "national football league")),
    # a town on the road to another is not in it
    ("Serejeqa is a town in Eritrea. It is located about 20 km northwest of Asmara on the asphalt road to Keren.",
     "Serejeqa", ("serejeqa", "located_in", "keren"), None),
])
def test_a_rank_a_league_and_a_road_say_what_they_say(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


@pytest.mark.parametrize(("text", "topic", "right"), [
    ("In Love and War is a 1987 television film. The film is based on the true story of James Stockdale and Sybil "
     "Stockdale.", "In Love and War", ("in love and war", "depicts", "james stockdale")),
    # an active "based": the work is its object, not the writer who based it
    ("My Name Is Bill W. is a 1989 television film. William G. Borchert, who wrote the film for television, based it "
     "on the true story of William Griffith Wilson.", "My Name Is Bill W.",
     ("my name is bill w", "depicts", "william griffith wilson")),
])
def test_a_work_based_on_a_story_depicts_its_subject(extractor, text, topic, right):
    assert_facts(extractor, text, topic, None, right)
    _, facts = extract(extractor, text, topic)
    assert not [f for f in triples(facts) if f[1] == "influenced_by"], facts  # he based it: no influence on him


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a maker before a work's class noun made the work ("his debut solo GRICE album PROPELLER")
    ("Grice Peters (born Martin Charles Grice Peters) aka GRICE, is a London-born English art rock musician. In 2012 "
     "he released his debut solo GRICE album PROPELLER which featured saxophonist Raphael Ravenscroft.", "Grice Peters",
     ("propeller", "created", "grice"), ("grice", "created", "propeller")),
    # a people's adjective the tagger called an organisation is a nationality
    ("General Moses Ali (born 5 April 1939) is a Ugandan politician and retired general.", "Moses Ali",
     ("moses ali", "member_of", "ugandan"), ("moses ali", "nationality", "ugandan")),
])
def test_a_maker_and_a_people_before_a_class_noun(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)
