"""Names the tagger cuts apart or mistypes, kept whole by their own shape (services/graph/special_names.py and
spans.py), each on the sentence of issue 29's round-11 judged sample that showed the fault. Every case of a
name kept whole failed with the extractor of the commit before these rules; the guards (no key without a form,
no year as a route's number, no nationality from a city) keep the rules narrow."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_precision import names
from tests.utils.graph import ingest


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


@pytest.mark.parametrize(("text", "name", "label"), [
    ("Toccata, Adagio, and Fugue in C major (BWV 564) is an organ composition by Johann Sebastian Bach.",
     "toccata, adagio, and fugue in c major", "WORK_OF_ART"),
    ("The Sonata in B-flat minor was written by Chopin in 1839.", "sonata in b-flat minor", "WORK_OF_ART"),
    ("Rhys ap Tewdwr was the last king of Deheubarth.", "rhys ap tewdwr", "PERSON"),
    ("His wife was Gwladys ferch Rhiwallon ap Cynfyn.", "gwladys ferch rhiwallon ap cynfyn", "PERSON"),
    ("It is the flagship school of the Episcopal Diocese of West Texas.", "episcopal diocese of west texas", "ORG"),
    ("He was an assistant coach at University of Wisconsin–Stevens Point.", "university of wisconsin–stevens point",
     "ORG"),
    ("The Tay Bridge crosses the Firth of Tay between Dundee and Wormit.", "firth of tay", "LOC"),
    ("Malc Macmillan, author of the Encyclopaedia of New Wave of British Heavy Metal, described the track.",
     "encyclopaedia of new wave of british heavy metal", None),
    ("Mozart's Piano Sonata No. 1 in C major, K. 279 / 189d, was composed in 1774.", "piano sonata no. 1 in c major",
     "WORK_OF_ART"),
    ("It lies on the slopes of the Wai’anae Mountain Range.", "wai’anae mountain range", "LOC"),
    ("Harris, Forbes & Co. was an investment banking affiliate of the Chase National Bank.", "harris, forbes & co.",
     "ORG"),
    ('Amazon Women on the Moon was parodied in "Throw Momma from the Train" (1987).', "throw momma from the train",
     "WORK_OF_ART"),
    ("It lies along Hawaii Route 750 northwest of downtown Honolulu.", "hawaii route 750", None),
    ('"Big Hero 6" won the Oscar for Best Animated Feature in 2015.', "oscar for best animated feature", None),
    # round 14 (the 150-fact draw, seed 1411): each was cut in the stored graph
    ("He is a member of the hip hop group A$AP Mob, from which he adopted his moniker.", "a$ap mob", None),
    ("The airport is operated by the England Authority, also known as the England Economic and Industrial Development "
     "District, an independent political subdivision.", "england economic and industrial development district", None),
    ('His albums include "Notioanatolitika Tou Kosmou" (1994) and "5o Vima" (1996).', "5o vima", "WORK_OF_ART"),
    ("St Mary's Church is a church. The Church of St James and St Paul is in Marton.",
     "church of st james and st paul", None),
    ("The Representation of the People Act 1832 was an Act of Parliament of the United Kingdom.",
     "representation of the people act 1832", None),
    ("The Representation of the People Act 1832 was an Act of Parliament of the United Kingdom.",
     "parliament of the united kingdom", None),
    # round 15 (round 14g's second draw, seed 31): each was cut in the stored graph
    ("He was a Formula One driver between 1993 and 2002.", "formula one", None),
    ("The Heinkel HD 32 was a trainer developed in Germany in the 1920s, a derivative of the HD 21.", "hd 21", None),
    ("The Heinkel HD 32 was a trainer developed in Germany in the 1920s, a derivative of the HD 21.", "heinkel hd 32",
     None),
    ("Baron Stanley of Alderley, in the County of Chester, is a title in the Peerage of the United Kingdom.",
     "peerage of the united kingdom", None),
    # round 15b (round 15's draws, seeds 31 and 37)
    ("Piedboeuf Brewery (Brasserie Piedboeuf) is a brewery in Jupille-sur-Meuse, Belgium.", "jupille-sur-meuse", None),
    ("He moved to Oregon City High School in Oregon City, Oregon in 1962, serving as head football coach.",
     "oregon city high school", None),
    ("The Universities Funding Council was a UK body established under the Education Reform Act 1988 replacing the "
     "University Grants Committee.", "education reform act 1988", None),
    # round 15b's draws (seeds 37 and 41)
    ("In 2013, Michelle Lensink MLC questioned the efficacy of the Premier's Climate Change Council.", "michelle lensink",
     "PERSON"),
    # names cut at "and" (round 15b's seeds 31 and 37, round 14g's seed 31)
    ("He was born in Port of Spain, Trinidad and Tobago, in 1950.", "trinidad and tobago", "GPE"),
    ("The band signed with the Heartache and Sorrow Company in 2001.", "heartache and sorrow company", "ORG"),
    ("It is the location of the United Trades and Labour Council of South Australia, also known as SA Unions.",
     "united trades and labour council of south australia", "ORG"),
])
def test_a_name_is_whole(extractor, text, name, label):
    found = names(extractor, text)
    assert name in found, found
    assert label is None or found[name] == label, found


def test_a_key_or_a_form_is_needed_before_a_letter(extractor):
    assert not any(n.endswith(" in d") for n in names(extractor, "The Board met in D block of the Capitol."))


def test_a_year_does_not_number_a_route(extractor):
    found = names(extractor, "The Lincoln Highway 1913 alignment runs west.")
    assert not any(n.endswith("1913") for n in found), found


def test_a_quoted_titles_parenthesis_is_the_titles(extractor):
    text = ('"You Don\'t Love Me (No, No, No)" is a song by Jamaican recording artist Dawn Penn from her debut '
            'studio album, "No, No, No" (1994).')
    _, facts = extract(extractor, text, topic="You Don't Love Me (No, No, No)")
    assert ("dawn penn", "created", "you don't love me no no no") in triples(facts), triples(facts)


def test_a_one_word_nationality_the_tagger_calls_an_organisation(extractor):
    _, facts = extract(extractor, "Bonnie Tyler (born Gaynor Hopkins; 8 June 1951) is a Welsh singer.",
                       topic="Bonnie Tyler")
    assert ("bonnie tyler", "nationality", "welsh") in triples(facts), triples(facts)
    _, facts = extract(extractor, "Ivan Petrov is a Munich resident.", topic="Ivan Petrov")
    assert not [f for f in triples(facts) if f[1] == "nationality"], triples(facts)


@pytest.mark.parametrize(("text", "prize"), [
    ("For her portrayal of Kate, Ashleigh Brewer earned a nomination for Most Popular New Female Talent at the 2010 "
     "Logie Awards.", "most popular new female talent"),
    ("Canada's Brittany Timko won the Golden Shoe with 7 goals in 4 games.", "golden shoe"),
])
def test_what_is_only_won_is_a_prize_not_an_organisation_or_a_building(extractor, text, prize):
    entities, _ = extract(extractor, text)
    assert entities[prize].label == "ENTITY", entities[prize]
    entities, _ = extract(extractor, "Obama won Ohio in 2012.")
    assert entities["ohio"].label == "GPE"  # a place won keeps its type


@pytest.mark.parametrize(("text", "name", "label"), [
    ("The causeway is a four-lane road between downtown Clearwater and Clearwater Beach, Florida.", "clearwater", "GPE"),
    ("That part of the territory lies between the Nueces and the Rio Grande.", "rio grande", "LOC"),
    ("She graduated from Mount Holyoke College in 1990.", "mount holyoke college", "ORG"),  # the last word first
])
def test_a_place_is_typed_by_the_words_around_it(extractor, text, name, label):
    assert names(extractor, text)[name] == label


def test_a_nickname_inside_a_name_is_no_title_and_the_surname_is_the_whole_name(extractor, services, dated):
    """'Robert A. "Bob" Starr' is one person, named without the nickname, and "Starr" alone later in the text is
    he (round 11's judge found "Starr" alone holding the wrestling facts)."""
    assert names(extractor, 'Robert A. "Bob" Starr is an American wrestler.') == {
        "robert a. starr": "PERSON", "american": "NORP"}
    text = ('Robert A. "Bob" Starr (born 1955) is an American wrestler. Starr also wrestled as a preliminary wrestler '
            "in both World Championship Wrestling and the World Wrestling Federation throughout the 1990s.")
    ingest(services, dated.name, "Bob Starr", text)
    objects = {f.target for f in services.graph.facts_of_entity("robert a starr", [dated.id])}
    assert "World Wrestling Federation" in objects, objects
    assert not services.graph.facts_of_entity("starr", [dated.id])


def test_a_job_before_a_persons_name_and_an_office_named_alone_are_no_name(extractor):
    found = names(extractor, "Businessman Ross Perot ran as candidate for the Reform Party.")
    assert "ross perot" in found and "businessman ross perot" not in found, found
    found = names(extractor, "The school currently has around 260 pupils and the Head Master is Christian Pritchard.")
    assert "head master" not in found and "christian pritchard" in found, found


def test_a_catalogue_number_is_no_name(extractor):
    found = names(extractor, "The Symphony No. 5 in C minor, Op. 67, was written by Beethoven.")
    assert "symphony no. 5 in c minor" in found and "op" not in found, found


@pytest.mark.parametrize(("text", "name", "label"), [
    ("Zeitgeist Films is an American independent film distributor based in New York City.", "zeitgeist films", "ORG"),
    ('It is a film about the acoustic space duo "Future Folk".', "future folk", "ORG"),
    ('The film marked the debut of famous comedian "Dharmavarapu Subramanyam" into film industry.',
     "dharmavarapu subramanyam", "PERSON"),
    ('He wrote the novel "Dune" in 1965.', "dune", "WORK_OF_ART"),
])
def test_a_company_head_or_the_class_before_a_quoted_name_types_it(extractor, text, name, label):
    assert names(extractor, text)[name] == label


def test_a_short_given_name_is_the_person_the_text_names_in_full(services, dated):
    """Round 12's judge: "Ben" `born_in` Christchurch beside "Benjamin Andrew Stokes"; "Ben" is he."""
    text = ("Benjamin Andrew Stokes (born 4 June 1991) is an English cricketer. Born in Christchurch, New Zealand, Ben "
            "moved to Cockermouth in England at the age of twelve.")
    ingest(services, dated.name, "Ben Stokes", text)
    facts = {(f.relation, f.target) for f in services.graph.facts_of_entity("benjamin andrew stokes", [dated.id])}
    assert not services.graph.facts_of_entity("ben", [dated.id])
    assert any(target == "Christchurch" for _, target in facts), facts


def test_things_counted_are_no_names(extractor):
    found = names(extractor, "He has played 81 Tests and 223 ODIs for England.")
    assert "tests" not in found and "england" in found, found  # round 12's judge: "Tests" (NORP)


def test_an_escaped_title_is_the_topic_the_text_names(extractor):
    from llama_index.core.graph_stores.types import KG_NODES_KEY
    from llama_index.core.schema import TextNode

    from services.graph.service import _topic

    text = ("Saturday Nights & Sunday Mornings is the fifth studio album by Counting Crows, released in the United "
            "States on March 25, 2008.")
    topic = _topic("Saturday Nights &amp; Sunday Mornings", {}, text)  # a title as HTML gave it
    assert topic == {"rag_topic": "Saturday Nights & Sunday Mornings",
                     "rag_title": "Saturday Nights &amp; Sunday Mornings"}, topic
    node = TextNode(text=text, start_char_idx=0, metadata=topic)
    extractor([node])
    by_key = {e.properties["key"]: e for e in node.metadata[KG_NODES_KEY]}
    assert "saturday nights" not in by_key, set(by_key)
    # the title as the metadata writes it stays an alias, so a look-up by the document's title finds it
    assert "Saturday Nights &amp; Sunday Mornings" in by_key["saturday nights & sunday mornings"].properties["aliases"]


def test_a_patronymics_last_name_is_a_parents_not_a_surname():
    from services.graph.resolution import resolve_document

    # (key, name, type, stated, aliases, mentions, topic): round 13b's graph gave Bleddyn ap Cynfyn his father's name
    _, target = resolve_document([("bleddyn ap cynfyn", "Bleddyn ap Cynfyn", "PERSON", False, [], 2, False),
                                  ("cynfyn", "Cynfyn", "PERSON", False, [], 1, False),
                                  ("smith", "Smith", "PERSON", False, [], 1, False),
                                  ("john smith", "John Smith", "PERSON", False, [], 1, False)])
    assert target["cynfyn"] == "cynfyn" and target["smith"] == "john smith", target


def test_a_surname_alone_is_the_biographys_subject_though_the_full_name_has_no_fact(extractor):
    from tests.services.graph.test_fact_quality import extract, triples

    # the first sentence gives the full name no fact (its infobox residue breaks the parse), so resolution had no
    # node to fold "Ulrich" into: round 13b's judge found "Ulrich" alone, founding Metallica
    text = ("Lars Ulrich {'1': \", '2': \", '3': 'R', '4': \"} ( ; ] ; born December 26, 1963) is a Danish musician. "
            "The son of tennis player Torben Ulrich, he also played tennis in his youth. After publishing an "
            "advertisement in \"The Recycler\", Ulrich met vocalist/guitarist James Hetfield and formed Metallica.")
    _, facts = extract(extractor, text, "Lars Ulrich")
    assert ("lars ulrich", "founded", "metallica") in triples(facts), triples(facts)
    _, facts = extract(extractor, "New York is a city in the United States. York lies in England.", "New York")
    assert not [f for f in triples(facts) if f[0] == "new york" and f[2] == "england"], triples(facts)


@pytest.mark.parametrize(("text", "name", "cut"), [
    ('Premier Jay Weatherill has commended the board for "supporting South Australia’s growth sectors".',
     "jay weatherill", "premier jay weatherill"),
    ("He formerly served as chief of staff and campaign manager to Utah State Senate Minority Leader Scott Howell, a "
     "Democrat.", "scott howell", "minority leader scott howell"),
])
def test_an_office_before_a_name_is_not_the_name(extractor, text, name, cut):
    found = names(extractor, text)
    assert name in found and cut not in found, found


def test_a_title_before_one_name_stays(extractor):
    # guard: no given name and a surname after the title, so the title is part of what names her
    assert "queen victoria" in names(extractor, "Queen Victoria opened the bridge in 1850.")


def test_a_count_after_a_name_is_not_its_number(extractor):
    # guard: "10" counts the teams ("the NFL 10 teams"); a model's number belongs to the name it follows
    assert "nfl" in names(extractor, "In the NFL 10 teams qualified for the playoffs.")


def test_the_letters_of_an_order_are_no_name(extractor):
    text = ("Edward Stanley, 3rd Earl of Derby KG (c. 10 May 1509 – 24 October 1572) was an English nobleman and "
            "politician.")
    entities, facts = extract(extractor, text, topic="Edward Stanley, 3rd Earl of Derby")
    assert "kg" not in entities, list(entities)
    assert ("edward stanley 3rd earl of derby", "nationality", "english") in triples(facts), triples(facts)


def test_a_compass_adjective_is_no_nationality(extractor):
    found = names(extractor, "They were directed by Bill Willingham, a veteran Western movie actor, writer, and stuntman.")
    assert "western" not in found, found


def test_a_capital_the_inside_a_sentence_is_no_persons(extractor):
    found = names(extractor, "She began her career at The Bill as story editor from 2005–06.")
    assert found.get("the bill") != "PERSON", found


def test_letters_after_a_name_and_a_comma_leave_the_subject_to_the_name(extractor):
    text = ("Armando Giovanni Iannucci, OBE (born 28 November 1963) is a Scottish satirist, writer, television director, "
            "and radio producer.")
    entities, facts = extract(extractor, text)
    assert "obe" not in entities, list(entities)
    assert ("armando giovanni iannucci", "nationality", "scottish") in triples(facts), triples(facts)


def test_an_office_after_a_comma_stays_in_the_text(extractor):
    # guard: "MP for Oldham" is an office with its seat, not letters after a name
    from services.graph.text_parse import without_parentheses
    assert without_parentheses("He met John Smith, MP for Oldham, and Jones.")[0] == "He met John Smith, MP for Oldham, and Jones."


def test_a_no_break_space_inside_a_name_is_a_space(extractor):
    text = ("New York State Route\u00a012F (NY 12F) is an east–west state highway in Jefferson County, New York. It "
            "extends to a junction with U.S. Route\u00a011 (US 11) in the city of Watertown.")
    entities, _ = extract(extractor, text)
    assert {"new york state route 12f", "u s route 11"} <= set(entities), list(entities)


def test_a_given_name_alone_is_the_untyped_topic_it_starts(services, dated):
    """Round 15b's judge: "Sigmund" `competed_in` the Winter Olympics beside the topic Sigmund Ruud, whom no class
    types ("a Norwegian ski jumper")."""
    text = ("Sigmund Ruud (30 December 1907 – 7 April 1994) was a Norwegian ski jumper. Together with his brothers "
            "Birger and Asbjørn, he dominated ski jumping in the 1920s and 1930s. At the 1928 Winter Olympics in St. "
            "Moritz, Sigmund earned a silver medal.")
    ingest(services, dated.name, "Sigmund Ruud", text)
    assert not services.graph.facts_of_entity("sigmund", [dated.id])
    facts = {(f.relation, f.target) for f in services.graph.facts_of_entity("sigmund ruud", [dated.id])}
    assert ("competed_in", "Winter Olympics") in facts, facts


def test_a_given_name_alone_is_the_person_named_in_full_in_no_fact(services, dated):
    """Round 15b's judge: "Audrey" `related_to` "Wedding Bells" beside "his wife Audrey Williams", a name in no
    fact; and the surname "Williams" stays the one of the two the facts know (Hank)."""
    text = ('"On the Evening Train" is a song by Hank Williams. It is the only song whose authorship is credited to '
            'Hank Williams and his wife Audrey Williams, although Audrey maintained that she made contributions to the '
            'song "Wedding Bells," which is credited to Williams and his publisher Fred Rose.')
    ingest(services, dated.name, "On the Evening Train", text)
    assert not services.graph.facts_of_entity("audrey", [dated.id])
    facts = {(f.source, f.relation, f.target) for f in services.graph.facts_of_entity("wedding bells", [dated.id])}
    assert ("Audrey Williams", "related_to", "Wedding Bells") in facts, facts
    assert ("Wedding Bells", "related_to", "Hank Williams") in facts, facts


def test_two_companies_over_and_stay_two(extractor):
    # guard: with no article before them, two names over "and" are two
    found = names(extractor, "Microsoft and Apple Inc. compete for the market.")
    assert "microsoft" in found and "apple inc." in found, found
