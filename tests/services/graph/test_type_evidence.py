"""A tagged type is kept only with evidence beyond the tag (services/graph/type_evidence.py), on the sentences of
issue 29's round-12 judged sample whose entities carried a wrong type. Each "untyped" case failed on the commit
before: the tagger's guess was stored. The guards keep the right types of the same sample."""

from __future__ import annotations

import pytest
from llama_index.core.schema import TextNode

from services.graph.document_facts import _found
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.gazetteer import place_names
from services.graph.resolution import resolve_document
from services.graph.type_evidence import shape_says, written_as_term
from tests.services.graph.test_fact_quality import extract, triples


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def types(extractor: SpacyTemporalExtractor, text: str, topic: str) -> dict[str, str]:
    """The document's entities (by name) with the type the document settles on."""
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_topic": topic})
    extractor([node])
    entities, _ = resolve_document(_found([node]))
    return {e.name: e.type for e in entities.values()}


@pytest.mark.parametrize(("text", "topic", "name", "tagged"), [
    ("Based in Mexico City, they are led by guitarist and songwriter José Manuel Aguilera, who previously and "
     "concurrently worked with Sangre Azteka, Jaguares, Cecilia Toussaint, Steven Brown/Nine Rain (Tuxedomoon), and "
     "more.", "Los Jaigüey", "Jaguares", "PERSON"),
    ("Guitar World published a spin-off title, Guitar Legends, in 1990.", "Guitar World", "Guitar Legends", "PERSON"),
    # (the passage's "Brazil's Marta was the adidas Golden Ball recipient, as tournament MVP" gives no fact since
    # round 14: "was as" says nothing; the type rule is the same)
    ("Brazil's Marta won the adidas Golden Ball as tournament MVP.", "2002 FIFA U-19 Women's World Championship",
     "Marta", "GPE"),
    ("Maha Sona is the most feared demon in Sri Lanka.", "Maha Sona", "Maha Sona", "GPE"),
    ("Wamboin is a rural residential area in the Southern Tablelands of New South Wales, Australia.", "Wamboin",
     "Wamboin", "ORG"),
    ("The church is recorded in the National Heritage List for England as a designated Grade I listed building.",
     "Church of St James", "National Heritage List for England", "ORG"),
    ('Franklin Street Church was also located on "Cathedral Hill" in the southern part of Baltimore.',
     "Franklin Street Church", "Cathedral Hill", "WORK_OF_ART"),
    ("L'Amour was a rock club in Brooklyn. It was promoted as the \"Rock Capitol of Brooklyn\".", "L'Amour",
     "Rock Capitol of Brooklyn", "WORK_OF_ART"),
])
def test_a_tag_without_evidence_leaves_the_name_untyped(extractor, text, topic, name, tagged):
    found = types(extractor, text, topic)
    assert found[name] == "ENTITY", found  # the tagger says `tagged`


def test_a_term_the_text_writes_in_lower_case_takes_no_type(extractor):
    found = types(extractor, "An aircraft carrier is a warship that serves as a seagoing airbase.", "Aircraft carrier")
    assert found["Aircraft carrier"] == "ENTITY", found  # was PRODUCT, from "warship"
    assert written_as_term("Primary rock", "Primary rock is an early term in geology.")
    assert not written_as_term("Iron Maiden", "Iron Maiden are an English band. The iron maiden was a device.")


def test_a_class_noun_before_a_name_types_it(extractor):
    found = types(extractor, "Neighbours was bought by rival network Ten in 1986.", "Neighbours")
    assert found["Ten"] == "ORG", found


@pytest.mark.parametrize(("text", "topic", "name", "label"), [
    ("Killer: A Journal of Murder is a 1995 American drama film written and directed by Tim Metcalfe.",
     "Killer: A Journal of Murder", "Tim Metcalfe", "PERSON"),  # a given name; the agent of "written by"
    ("Fatal Instinct is a 2014 American action film, written, directed and produced by Luciano Saber, starring Ivan "
     "Sergei, Masiela Lusha, Richard Burgi, Drew Fuller.", "Fatal Instinct", "Masiela Lusha", "PERSON"),  # a list
    ("Thodallullu is a 1988 Telugu comedy film, produced by G. V. G. Raju and directed by Relangi Narasimha Rao.",
     "Thodallullu", "G. V. G. Raju", "PERSON"),  # initials
    ("He was born in Faversham, Kent, and died in Santa Barbara, California.", "David Smith", "Faversham", "GPE"),
    ("Frozen is a 2013 American film produced by Walt Disney Animation Studios.", "Frozen",
     "Walt Disney Animation Studios", "ORG"),
    ('It was released in April 2001 as the second single from his album "America Town".', "Superman", "America Town",
     "WORK_OF_ART"),
    ('In North America, he also had chart successes with "After the Lovin" (1976) and "This Moment in Time" (1979).',
     "Engelbert Humperdinck", "This Moment in Time", "WORK_OF_ART"),
    ("Baltimore Orioles F.C. were a soccer club based in Baltimore, Maryland.", "Baltimore Orioles F.C.", "Baltimore",
     "GPE"),
])
def test_a_type_with_evidence_is_kept(extractor, text, topic, name, label):
    found = types(extractor, text, topic)
    assert found[name] == label, found


def test_the_shapes_and_the_gazetteer():
    assert shape_says("Harris, Forbes & Co.", "ORG") and shape_says("BeijingDance / LDTX", "ORG")
    assert shape_says("Rhys ap Tewdwr", "PERSON") and shape_says("President Lincoln", "PERSON")
    assert shape_says("University at Albany", "ORG") and shape_says("Special Operations Command", "ORG")
    assert shape_says("Calgary Flames", "ORG") and shape_says("Piano Sonata in C major", "WORK_OF_ART")
    assert shape_says("Ridley Scott", "PERSON") and shape_says("Johann Sebastian Bach", "PERSON")
    assert not shape_says("Zeitgeist Films", "PERSON") and not shape_says("Guitar Legends", "PERSON")
    assert not shape_says("Plott Hound", "PERSON") and not shape_says("San Miguel Brewery Hong Kong", "PERSON")
    assert {"ostrava", "kent", "taiwan", "europe", "oklahoma"} <= place_names()
    assert not {"maha sona", "ten", "marta"} & place_names()


def test_the_llm_paths_types_are_not_checked():
    # (key, name, type, stated, aliases, mentions, topic): no `confirmed`, as the LLM extractor gives none
    entities, _ = resolve_document([("jaguares", "Jaguares", "ORG", False, [], 1, False)])
    assert entities["jaguares"].type == "ORG"


# -- round 13b: the causes the round-13 judged sample found ------------------------------------------------
def test_the_class_is_the_coordinated_head_not_the_modifier_before_it(extractor):
    # the parser heads "film and theatrical producer" with "film": he was stated a work, and "These films" him
    text = ("Peter Schneider is an American film and theatrical producer, notable as the first president of Walt "
            "Disney Feature Animation. These films included \"Who Framed Roger Rabbit\" (1988) and \"The Lion King\" "
            "(1994).")
    found = types(extractor, text, "Peter Schneider (film executive)")
    assert found["Peter Schneider"] == "PERSON", found
    _, facts = extract(extractor, text, "Peter Schneider (film executive)")
    assert not [f for f in triples(facts) if f[0] == "peter schneider" and "rabbit" in f[2]], triples(facts)


def test_a_quoted_track_is_a_work_not_a_race_track(extractor):
    found = types(extractor, "In 2013 The track 'Highly Strung' was remixed by Richard Barbieri.", "Highly Strung")
    assert found["Highly Strung"] == "WORK_OF_ART", found  # was FAC: "track" is also a facility's class


def test_a_law_needs_a_laws_head(extractor):
    found = types(extractor, "The standard is set out in its influential British style guide Hart's Rules, first "
                             "published in 1893.", "Oxford spelling")
    assert found.get("Hart's Rules", "ENTITY") == "ENTITY", found  # the tagger says LAW
    assert shape_says("Massachusetts Education Reform Act", "LAW") and shape_says("Roe v. Wade", "LAW")


def test_an_untagged_name_takes_the_one_kind_its_context_gives(extractor):
    found = types(extractor, "Jane Doe is an American film and television actress. She starred in Heat in 1995.",
                  "Jane Doe")
    assert found["Heat"] == "WORK_OF_ART" and found["Jane Doe"] == "PERSON", found


def test_spellings_in_a_dash_aside_are_aliases_and_the_aside_no_subject(extractor):
    text = ("Cynfyn ap Gwerystan (born c. 990) — sometimes spelled Kynvyn, Kynwyn, Cynvyn, or Kynfyn — was a Welsh "
            "nobleman.")
    entities, _ = extract(extractor, text)
    assert "kynwyn" not in entities and "cynfyn ap gwerystan" in entities, set(entities)  # was the subject
    aliases = entities["cynfyn ap gwerystan"].properties["aliases"]
    assert {"Kynvyn", "Kynwyn", "Cynvyn", "Kynfyn"} <= set(aliases), aliases


def test_a_list_articles_title_is_no_alias_of_its_subject(extractor):
    node = TextNode(text="Metallica is an American heavy metal band, founded in 1981 in Los Angeles.",
                    start_char_idx=0, metadata={"rag_title": "List of Metallica concert tours"})
    extractor([node])
    entities, _ = resolve_document(_found([node]))
    assert entities["metallica"].aliases == [], entities["metallica"]


def test_a_name_after_his_acts_in_nothing(extractor):
    _, facts = extract(extractor, 'Kavin Dave is an Indian actor. Dave made his Tollywood debut with the Telugu film '
                                  '"Money Money, More Money".', "Kavin Dave")
    assert not [f for f in triples(facts) if f[0] == "tollywood"], triples(facts)  # the parser's subject of "debut"


def test_an_occupation_in_capitals_is_no_name(extractor):
    _, facts = extract(extractor, "Asad Shan is a British Actor, Fashion Model, TV presenter.", "Asad Shan")
    assert not [f for f in triples(facts) if "fashion model" in f], triples(facts)



def test_the_main_act_is_a_performer_not_a_law(extractor):
    text = ("Metallica supported Ozzy Osbourne from March to August, and were the main act throughout the fall "
            "with support from Anthrax and Metal Church.")
    entities, _ = extract(extractor, text, "Damage, Inc. Tour")
    # "were the main act" stated it a law, and a stated type keeps a second Metallica node in the collection
    assert not entities["metallica"].properties["stated"] and entities["metallica"].label != "LAW", entities
    assert types(extractor, "The Stamp Act was an act of the Parliament of Great Britain.", "Stamp Act")[
        "Stamp Act"] == "LAW"
