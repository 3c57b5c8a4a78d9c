"""Issue 29, round 19: references the extractor cannot settle, or settled on the wrong thing, from the wrong facts
still produced of round 18's judged draws and censuses. Every case failed on the commit before its rule; the
guards keep right facts of the same shapes."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_name_extents import assert_facts
from tests.utils.graph import ingest


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


_PALE_HORSE = ('"The Pale Horse and His Rider" is a hymn written by Ervin Staggs and Johnnie Bailes. It was recorded in '
               "1951 as a duet by Hank Williams and his wife Audrey Williams. It is likely that Williams learned the "
               "song from its co-writer Johnny Bailes. Hank and Audrey were backed on the session by Jerry Rivers.")


def test_a_surname_two_people_of_the_text_bear_gives_no_fact(services, dated):
    """Census 18: "Williams learned the song from … Johnny Bailes", in a text of Hank and Audrey Williams: the
    surname alone cannot say which, so no fact is written on it; the two full names keep theirs."""
    ingest(services, dated.name, "The Pale Horse and His Rider", _PALE_HORSE)
    assert not services.graph.facts_of_entity("williams", [dated.id])
    backed = {f.target for f in services.graph.facts_of_entity("jerry rivers", [dated.id])}
    assert {"Hank Williams", "Audrey Williams"} <= backed, backed


def test_a_surname_of_one_person_still_resolves(services, dated):
    # the guard: one Williams in the text, and the surname is him
    text = ('"Cold, Cold Heart" is a song written by Hank Williams. It is likely that Williams learned the tune from '
            "a record by T. Texas Tyler.")
    ingest(services, dated.name, "Cold, Cold Heart", text)
    assert not services.graph.facts_of_entity("williams", [dated.id])
    facts = {(f.relation, f.target) for f in services.graph.facts_of_entity("hank williams", [dated.id])}
    assert ("wrote", "Cold, Cold Heart") in facts, facts


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a description with a year of its own is another thing than the topic: the revolution ousted him
    ("A presidential election was held in Egypt in two rounds, the first on 23 and 24 May 2012 and the second on 16 "
     "and 17 June 2012. It was the second presidential election in Egypt's history with more than one candidate, "
     "following the 2005 election, and the first presidential election after the 2011 Egyptian revolution which "
     "ousted president Hosni Mubarak, during the Arab Spring.", "Egyptian presidential election, 2012",
     ("egyptian presidential election 2012", "related_to", "hosni mubarak"), None),
    # … and a film of another year is another film
    ("Titanic is a 1997 American epic film. The 1958 film was directed by Roy Baker.", "Titanic",
     ("roy baker", "directed", "titanic"), None),
    # the guards: the year of the class phrase that described the topic, or a topic of unknown year
    ("Titanic is a 1997 American epic film. The 1997 film was directed by James Cameron.", "Titanic", None,
     ("james cameron", "directed", "titanic")),
    ("Titanic is an American epic film. The 1997 film was directed by James Cameron.", "Titanic", None,
     ("james cameron", "directed", "titanic")),
    # "who" after a work is the person the sentence is about: the character is voiced, not the sitcom
    ('Waylon J. Smithers Jr. is a recurring fictional character in the American animated sitcom "The Simpsons", who '
     "is voiced by Harry Shearer.", "Waylon Smithers", ("harry shearer", "performed", "simpsons"),
     ("harry shearer", "performed", "waylon j smithers jr")),
    # one creates a television series, one does not found it
    ('Paul Haggis is a Canadian screenwriter. He is the creator of the television series "Due South" and the '
     'co-creator of "Walker, Texas Ranger".', "Paul Haggis", ("paul haggis", "founded", "due south"),
     ("paul haggis", "created", "due south")),
    # the guard: the creator of a company founded it
    ("Jem Marsh is a British engineer. He was the creator of the Marcos Car Company.", "Jem Marsh", None,
     ("jem marsh", "founded", "marcos car company")),
])
def test_a_reference_goes_to_its_own_thing(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_the_held_persons_surname_is_the_person_not_the_topic(services, dated):
    """Census 19: "in which Peres defeated Reuven Rivlin", in the text of "Presidency of Shimon Peres": the man
    defeated him, not his presidency; and "Shimon Peres" is no short form of the presidency either."""
    text = ("The Presidency of Shimon Peres, the ninth President of Israel, began after the Israeli presidential "
            "election, 2007 on 13 June 2007 in which Peres defeated Reuven Rivlin and Colette Avital.")
    ingest(services, dated.name, "Presidency of Shimon Peres", text)
    facts = {(f.source, f.relation) for f in services.graph.facts_of_entity("reuven rivlin", [dated.id])}
    assert facts == {("Shimon Peres", "defeated")}, facts


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a "by" through a common noun is a means, no agent: nothing is published by the United States
    ("As of 2011, Penny Publications publishes at least 85 magazines, distributed through newsstands, in stores, "
     "and by subscription in U.S. and Canada.", "Penny Publications", ("penny publications", "published_by", "united states"),
     ("penny publications", "related_to", "united states")),
    # a place before a class noun of another kind says where it is from, not its name: EEG created the duo
    ("Twins are a Hong Kong Cantopop duo that was created in the summer of 2001 by Emperor Entertainment Group "
     "(EEG).", "Twins", ("emperor entertainment group", "created", "hong kong cantopop"),
     ("emperor entertainment group", "created", "twins")),
    # a name counted with "other" stands for the people counted: Kimber's employees founded it, not Kimber
    ("Cooper Firearms of Montana was founded in 1990 by Dan Cooper and two other former Kimber of Oregon employees.",
     "Cooper Firearms of Montana", ("kimber", "founded", "cooper firearms of montana"),
     ("dan cooper", "founded", "cooper firearms of montana")),
    # one serves in a firm, not in a person
    ("William H. Kennedy III is an American lawyer. He served as a senior partner in the Rose Law Firm of Little "
     "Rock, Arkansas, with Hillary Clinton.", "William H. Kennedy III",
     ("william h kennedy iii", "served_in", "hillary clinton"), None),
    # chart success with a single wins nothing
    ('Alphaville is a German synthpop band formed in 1982. They achieved chart success with the singles "Big in '
     'Japan", "Sounds Like a Melody", "Jet Set", "Dance With Me", "Jerusalem", "Romeos" and "Forever Young".',
     "Alphaville", ("alphaville", "won", "sounds like a melody"), None),
    # the one awarded is no prize won
    ("Shabana Azmi is an Indian actress. In 1988, the Government of India awarded her with Padma Shri.",
     "Shabana Azmi", ("india", "won", "shabana azmi"), None),
    # the guard: a prize the tagger calls a person is still won
    ("Kathy Bates is an American actress. She won an Oscar for her role in Misery.", "Kathy Bates", None,
     ("kathy bates", "won", "oscar")),
    # a partner of a law firm is its member, no spouse
    ("Bruce R. Lindsey is an American attorney. He is a partner of Wright, Lindsey & Jennings, a Little Rock, "
     "Arkansas-based law firm.", "Bruce R. Lindsey", ("bruce r lindsey", "married", "wright lindsey & jennings"),
     ("bruce r lindsey", "member_of", "wright lindsey & jennings")),
    # a team that began play as another name was called by it, and portrayed no one (after the draws)
    ("The Savannah Spirits were a basketball team. The team originally began play in the 1982-1983 season as the "
     "Detroit Spirits.", "Savannah Spirits", ("savannah spirits", "portrayed", "detroit spirits"),
     ("savannah spirits", "known_as", "detroit spirits")),
    # a film that re-introduces an actor signs nothing
    ("Whistling in Dixie is a 1942 comedy film. The film also re-introduces Rags Ragland, playing dual roles as "
     "twins.", "Whistling in Dixie", ("whistling in dixie", "signed", "rags ragland"), None),
])
def test_a_label_or_an_end_fits_the_clause(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_a_numbered_episode_is_no_name(extractor):
    from tests.services.graph.test_fact_quality import extract
    entities, _ = extract(extractor, "Lorraine's sister Sonya Donnegan joins the main cast as School Secretary from "
                                     "Episode Nine.", "List of Waterloo Road characters")
    assert "episode nine" not in entities, list(entities)


def test_a_band_named_with_a_number_stays_a_name(extractor):
    # the guard: "Level 42" is a band, whatever its first word
    from tests.services.graph.test_fact_quality import extract
    entities, _ = extract(extractor, '"Two Hearts Collide" is a single by the group Level 42.', "Two Hearts Collide")
    assert "level 42" in entities, list(entities)


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a baronetcy is held by one man after another: its "he" is no title
    ("The Jerningham Baronetcy, of Costessey in the County of Norfolk, was a title in the Baronetage of England. In "
     "1824 the attainder was reversed and the following year he was summoned to the House of Lords as the eighth "
     "Baron Stafford.", "Jerningham baronets", ("jerningham baronets", "related_to", "house of lords"), None),
    # a regnal number is in the name
    ("Ahmedabad is the largest city in Gujarat. The present city was founded on 26 February 1411 and announced as the "
     "capital on 4 March 1411 by Ahmed Shah I of Gujarat Sultanate as a new capital.", "Ahmedabad",
     ("ahmed shah", "declared", "ahmedabad"),
     ("ahmed shah i", "declared", "ahmedabad")),
    # "a UK hit": a place after "a" qualifies a noun, it does nothing
    ('"Quando m\'innamoro" is a 1968 Italian song. With English lyrics by Barry Mason, the song was recorded as "A Man '
     'Without Love" by Engelbert Humperdinck, who had a UK hit with it, and by Sergio Franchi, among others.',
     "Quando m'innamoro", ("united kingdom", "related_to", "quando m'innamoro"),
     ("engelbert humperdinck", "performed", "quando m'innamoro")),
    # "constable of Windsor Castle in Berkshire": the castle is in Berkshire
    ("Nest was the wife of Gerald de Windsor (c. 1075 – 1135), constable of Windsor Castle in Berkshire, by whom she "
     "was the ancestress of the FitzGerald dynasty.", "Nest ferch Rhys", ("gerald de windsor", "located_in", "berkshire"),
     ("nest", "married", "gerald de windsor")),
    # "served as" an office: the office's noun says the relation
    ("Warren Errol Truss is an Australian politician. He served as leader of the National Party of Australia from 2007 "
     "to 2016.", "Warren Truss", ("warren truss", "served_in", "national party of australia"),
     ("warren truss", "leads", "national party of australia")),
    # the guard: a deputy's office keeps the verb's label
    ("Warren Errol Truss is an Australian politician. He served as the 16th Deputy Prime Minister of Australia.",
     "Warren Truss", ("warren truss", "secretary_of", "australia"), None),
])
def test_a_clause_keeps_its_own_thing(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_a_league_with_initials_of_its_own_is_no_short_form(services, dated):
    """Round 19's draws: "National Basketball League" carried the aliases of the Women's National Basketball League,
    whose text also names "the National Basketball League (NBL)": a name with its own initials is no short form
    of a longer one that ends with it."""
    text = ("The Women's National Basketball League (WNBL) is the pre-eminent women's basketball league in Australia. "
            "The WNBL was founded in 1981 as the counterpart to the National Basketball League (NBL).")
    ingest(services, dated.name, "Women's National Basketball League", text)
    wnbl = services.graph.find_entities("women's national basketball league", [dated.id])
    aliases = {a for e in wnbl for a in (e.aliases or [])}
    assert "National Basketball League" not in aliases and "NBL" not in aliases, aliases


def test_a_box_office_verdict_is_no_name(extractor):
    from tests.services.graph.test_fact_quality import extract
    entities, _ = extract(extractor, 'Aa Okkati Adakku is a 1992 Telugu comedy film. The film recorded as "Blockbuster" '
                                     "at the box office.", "Aa Okkati Adakku")
    assert "blockbuster" not in entities, list(entities)
