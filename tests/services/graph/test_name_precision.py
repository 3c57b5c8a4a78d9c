"""The fact graph's precision rules for names (issue 29, the judged sample's wrong items), each on the sentence
that showed the fault: office titles, title words and job titles are no entities, names are whole (hyphens,
suffixes, possessives, quotes, dashes, articles) and typed by their head noun or the class before them, and a
short form (a given name, a surname, a name after an honorific) is the person the document names in full. Every
test here failed with the extractor of the commit before these rules. The rules for facts are in
test_fact_precision.py.
"""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor, load_spacy
from services.graph.spans import name_spans
from services.graph.text_parse import parse
from tests.services.graph.test_fact_quality import _facts, extract, triples
from tests.utils.graph import ingest


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def names(extractor: SpacyTemporalExtractor, text: str) -> dict[str, str]:
    """Every name the extractor sees in ``text`` (lower-cased), with its type."""
    return {s.text.lower(): s.label for s in name_spans(parse(load_spacy(extractor.model_name), text, None))}


@pytest.mark.parametrize(("text", "key", "label"), [
    ("The Tay Bridge collapsed in 1879.", "tay bridge", "FAC"),
    ("The school was established in 1995 under the Massachusetts Education Reform Act of 1993.",
     "massachusetts education reform act", "LAW"),
])
def test_a_names_head_noun_gives_its_type(extractor, text, key, label):
    assert names(extractor, text)[key] == label  # the tagger says ORG


def test_an_office_is_no_entity(extractor):
    text = "Ivanov was Minister of Defense of Russia from March 2001 to February 2007."
    _, facts = extract(extractor, text, topic="Ivanov")
    assert "defense" not in names(extractor, text)
    assert not [f for f in triples(facts) if "defense" in f]


@pytest.mark.parametrize("text", [
    "The Postmaster-General has appointed two agents, who have proceeded to California.",
    "By a decree of a Congress subservient to the will of the Dictator the constitutions were abolished.",
    "The treaty between the United States and His Majesty the King of the Hawaiian Islands has been made public.",
])
def test_title_words_are_no_entities(extractor, text):
    assert not {"postmaster-general", "dictator", "majesty", "his majesty"} & set(names(extractor, text))


@pytest.mark.parametrize(("text", "whole", "fragment"), [
    ("Additionally, he was selected for the NFL All-Star Game from 1940–1942.", "nfl all-star game", "star game"),
    ("It stars Lon Chaney, Jr. as Bruno, the chauffeur.", "lon chaney jr.", "lon chaney"),
    ("She has played in the Turkish Women's Basketball League and the EuroLeague.",
     "turkish women's basketball league", "turkish women"),
    ('His works include paintings like "Rejtan" (1866) and "Union of Lublin" (1869).', "union of lublin", "lublin"),
])
def test_names_keep_their_hyphens_suffixes_possessives_and_quotes(extractor, text, whole, fragment):
    found = {" ".join(n.replace(",", "").split()) for n in names(extractor, text)}
    assert whole in found
    assert fragment not in found


@pytest.mark.parametrize(("text", "whole", "fragment"), [
    ("He was an assistant coach at University of Wisconsin–Stevens Point from 1991 to 1998.",
     "university of wisconsin–stevens point", "university of wisconsin"),
    ("Morrison has been a member of The Cult and Doheny.", "the cult", "cult"),
    ("After the Republic of China Government relocated to Taiwan, Chiang ordered its construction.",
     "republic of china government", "china government"),
])
def test_names_keep_their_dashes_articles_and_heads(extractor, text, whole, fragment):
    found = names(extractor, text)
    assert whole in found
    assert fragment not in found


@pytest.mark.parametrize("text", [
    "He is an ex Investment Banker having worked for the likes of ABN AMRO and HSBC.",
    "Upon his death in 1850 he was succeeded by his son, who served as Postmaster General.",
])
def test_job_titles_are_no_entities(extractor, text):
    assert not {"investment banker", "postmaster general"} & set(names(extractor, text))


def test_the_class_before_a_name_types_it(extractor):
    entities, _ = extract(extractor, "Palash Sen is best known as the founder and frontman of India's pop band "
                                     "Euphoria.", topic="Palash Sen")
    assert entities["euphoria"].label == "ORG"  # the tagger says GPE


def test_a_given_name_is_the_person_the_document_names_in_full(services, dated):
    ingest(services, dated.name, "Ben Stokes", "Ben Stokes is an English cricketer. Born in Christchurch, New Zealand, "
                                               "Ben moved to northern England at the age of 12.")
    found = {(f.source_key, f.relation, f.target_key) for f in _facts(services, dated.id, "christchurch")}
    assert found == {("ben stokes", "born_in", "christchurch")}


def test_a_one_word_name_keeps_its_honorific(extractor):
    assert "dr. dre" in names(extractor, "It was released as the B-side to the Dr. Dre and Sam Sneed single.")


def test_a_class_noun_is_no_name_at_the_start_of_a_sentence(extractor):
    assert "rulers" not in names(extractor, "Rulers superseded rulers in Mexico in rapid succession.")


def test_a_name_after_its_honorific_is_the_person_named_without_it():
    from services.graph.resolution import resolve_document

    # (key, name, type, stated, aliases, mentions, topic): the tagger calls "General Paredes" an organisation
    entities, target = resolve_document([
        ("general paredes", "General Paredes", "ORG", False, [], 2, False),
        ("paredes", "Paredes", "PERSON", False, [], 1, False),
        ("mr madison", "Mr. Madison", "PERSON", False, [], 1, False),
        ("james madison", "James Madison", "PERSON", False, [], 1, False),
        ("general motors", "General Motors", "ORG", False, [], 1, False),
    ])
    assert target["general paredes"] == "paredes" and entities["paredes"].type == "PERSON"
    assert target["mr madison"] == "james madison"
    assert target["general motors"] == "general motors"  # no "Motors" person in the document


@pytest.mark.parametrize(("title", "text", "short", "fact"), [
    ("Ceri Evans", "Ceri Evans (born 2 October 1963) is a former New Zealand association football player. Evans "
     "attended Oxford University as a Rhodes scholar. He is the son of Gwyn Evans who played for Crystal Palace.",
     "evans", ("ceri evans", "studied_at", "oxford university")),
    ("Gary Franklin", "Gary Franklin (September 22, 1928 – October 2, 2007) was a German American film critic. "
     "Franklin earned a bachelor's degree in film at the City College of New York.", "franklin", None),
    ("Sven Hannawald", "Sven Hannawald (born 9 November 1974) is a German former ski jumper. After retiring from ski "
     "jumping, Hannawald drove for Callaway Competition in the ADAC GT Masters series.", "hannawald", None),
])
def test_a_surname_alone_is_the_documents_topic(services, dated, title, text, short, fact):
    ingest(services, dated.name, title, text)
    keys = {e.key for e in services.graph.find_entities(short, [dated.id])}
    assert short not in keys, keys
    if fact:
        assert fact in {(f.source_key, f.relation, f.target_key) for f in _facts(services, dated.id, fact[0])}


def test_names_lose_the_letters_after_them_and_a_time_is_no_name(extractor, services, dated):
    ingest(services, dated.name, "Jim Mollison", 'James Allan "Jim" Mollison MBE (19 April 1905 – 30 October 1959) '
                                                 "was a Scottish pioneer aviator.")
    keys = {e.key for e in services.graph.find_entities("Mollison", [dated.id])}
    assert keys and not [k for k in keys if "mbe" in k], keys
    _, facts = extract(extractor, "It aired from October 5, 2015 until November 10, 2015 on KBS2 every Monday and "
                                  "Tuesday at 22:00 KST for 12 episodes.",
                       topic="Cheer Up!")
    assert not [f for f in triples(facts) if "kst" in f[2]]


@pytest.mark.parametrize("text", [
    "On the 30th of December, 1845, General Herrera resigned the Presidency and yielded up the Government.",
    "He spends almost his entire tenure on the show as the Principal of Summer Bay.",
])
def test_an_office_named_alone_is_no_name(extractor, text):
    found = names(extractor, text)
    assert "presidency" not in found and "principal" not in found, found


def test_a_titled_name_a_who_clause_is_about_is_a_person(extractor):
    found = names(extractor, "Every effort appears to have been made to reenforce General Clinch, who commanded the "
                             "troops then in Florida.")
    assert found.get("general clinch") == "PERSON", found


def test_an_apposition_naming_an_office_types_a_person(extractor):
    entities, facts = extract(extractor, "About the same time Santa Anna, then the Dictator of Mexico, invaded Texas "
                                         "with a numerous army.")
    assert entities["santa anna"].label == "PERSON"  # the tagger says GPE
    assert ("santa anna", "leads", "mexico") in triples(facts)


def test_a_nationality_split_off_a_groups_name_is_joined(extractor):
    text = "Chiang Ching-kuo fled to Taiwan in 1949 as the Chinese Communists took control of the Mainland."
    assert "chinese communists" in names(extractor, text)


@pytest.mark.parametrize(("text", "expected", "absent"), [
    ("Days of Wonder was co-founded by Eric Hautemont, Mark Kaufman & Yann Corno.",
     {"mark kaufman": "PERSON", "yann corno": "PERSON"}, {"mark kaufman & yann corno"}),
    ("Together with his brothers Birger and Asbjørn, he dominated ski jumping in the 1920s.", {},
     {"birger and asbjørn"}),
    ("He won titles in Maryland Championship Wrestling, Southern Championship Wrestling and Steel City Wrestling.",
     {"southern championship wrestling": "ORG", "steel city wrestling": "ORG"},
     {"southern championship wrestling and steel city wrestling"}),
    ("The company was bought by Procter & Gamble in 2005.", {"procter & gamble": "ORG"}, set()),
    ("She is fluent in English, French, Italian and some Greek.", {"french": "LANGUAGE", "italian": "LANGUAGE"},
     set()),
    ("In 1985 Chandris Cruises acquired Fantasy Cruises.", {"fantasy cruises": "ORG"}, set()),
])
def test_two_names_run_together_are_two_and_types_follow_the_text(extractor, text, expected, absent):
    found = names(extractor, text)
    assert {k: found.get(k) for k in expected} == expected and not absent & set(found), found


def test_a_place_word_ends_no_persons_name(extractor):
    text = "Pierre is the state capital and Sioux Falls, with a population of about 171,000, is South Dakota's largest city."
    assert names(extractor, text)["sioux falls"] in ("GPE", "LOC")
    assert names(extractor, "Ricki Lake hosted the show.")["ricki lake"] == "PERSON"
