"""The fact graph's precision rules for facts (issue 29, the judged sample's wrong items), each on the sentence
that showed the fault: clauses that do not state what happened give no fact, a speech's pronouns do not reach an
old name, a label says what its phrase says, and a date keeps its day. Every test here failed with the extractor
of the commit before these rules. The rules for names are in test_name_precision.py.
"""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract, triples
from tests.utils.graph import ingest


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- clauses that do not state a fact ----------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Mexico has fitted out no formidable armament by land or by sea for the subjugation of Texas.",
    "Had the Nueces been regarded as the true western boundary of Texas, that boundary had been passed by our "
    "Army many months before.",
    "A war is greatly to be deplored, and the United States is the last nation to desire war with Mexico.",
    "In 1840 Texas defied the power of Mexico.",
])
def test_what_did_not_happen_gives_no_fact(extractor, text):
    _, facts = extract(extractor, text)
    assert not facts


def test_an_infinitive_that_happened_is_kept(extractor):
    _, facts = extract(extractor, "Aung went on to win the Walkley Award in 1998.", topic="Aung")
    assert ("aung", "won", "walkley award") in triples(facts)


def test_a_light_verbs_object_says_what_happened(extractor):
    _, facts = extract(extractor, "For her portrayal of Kate, Brewer earned a nomination for Most Popular New Female "
                                  "Talent at the 2010 Logie Awards.", topic="Brewer")
    found = triples(facts)
    assert ("brewer", "nominated_for", "most popular new female talent") in found
    assert not [f for f in found if f[1] == "won"]
    assert not [f for f in found if "kate" in f]  # a fronted adjunct is no object


# -- a speech's pronouns -----------------------------------------------------------------------------------
def test_an_expletive_it_with_a_noun_is_nobody(extractor):
    _, facts = extract(extractor, "The Postmaster-General has appointed two agents. It is our solemn duty to provide "
                                  "with the least practicable delay for New Mexico and California regularly "
                                  "organized Territorial governments.")
    assert not facts


def test_an_unnamed_subject_stops_it_reaching_an_older_name(extractor):
    _, facts = extract(extractor, "Congress created the Bank in 1816. The bank was popular with merchants. Under the "
                                  "repeated blows of President Jackson it reeled and fell.")
    assert not [f for f in triples(facts) if "congress" in f and "jackson" in f]


# -- dates -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ('General Taylor, on the 26th of October, 1846, replied from Monterey that the Army could not be sustained.',
     "1846-10-26"),
    ("Ivanov moved to Moscow in April, 1836.", "1836-04-01"),
])
def test_a_date_keeps_its_day_and_month(extractor, text, expected):
    _, facts = extract(extractor, text)
    assert [p["valid_from"] for _, _, _, p in facts] == [expected]


# -- round two of the judged sample --------------------------------------------------------------------------


def test_a_dative_is_not_what_was_won(extractor):
    _, facts = extract(extractor, "She wrote her second book, which won her the British Book Award.",
                       topic="Nigella Lawson")
    assert not [f for f in triples(facts) if f[1] == "won" and f[2] == "nigella lawson"]


# -- round three -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong_label"), [
    ("Maryland was the first state to name a dog breed as a state symbol, naming the Chesapeake Bay Retriever in "
     "1964.", "Maryland", "discovered"),
    ("She has also made numerous stage performances, including Mirandolina (1998) and Wee Thomas (2003).",
     "Yasue Sato", "created"),
    ("Other credits include Gossip Girl, where she worked with Jessica Szohr.", "Chriselle Almeida", "worked_for"),
])
def test_ambiguous_verbs_get_no_specific_label(extractor, text, topic, wrong_label):
    _, facts = extract(extractor, text, topic=topic)
    assert not [f for f in triples(facts) if f[1] == wrong_label]


def test_a_family_named_after_a_thing_is_not_that_thing(extractor):
    _, facts = extract(extractor, "He was born in Texas and raised in an Air Force family in Mississippi.",
                       topic="Ken Markow")
    assert not [f for f in triples(facts) if "air force" in f]


def test_a_passive_fact_reads_from_its_agent(extractor):
    _, facts = extract(extractor, "Jaws was directed by Steven Spielberg.", topic="Jaws")
    ((subject, label, obj, props),) = facts
    assert (subject, label, obj) == ("steven spielberg", "directed", "jaws")
    assert props["raw"] == "directed"  # "Spielberg directed Jaws", not "Spielberg directed by Jaws"


def test_kinship_between_places_is_no_kinship(extractor):
    entities, facts = extract(extractor, "Texas bore the same relation to Mexico that Mexico had borne to Spain for "
                                         "many years.")
    assert not [f for f in triples(facts) if f[1] in ("child_of", "parent_of")]
    assert "mexico" not in entities or entities["mexico"].label == "GPE"  # a vague "bore to" now gives no fact


# -- round eight -------------------------------------------------------------------------------------------


def test_a_generals_facts_land_on_the_person(services, dated):
    ingest(services, dated.name, "Message of 1846", "On the 30th of December, 1845, General Herrera resigned and "
           "yielded up the Government to General Paredes without a struggle. Paredes commanded the army of Mexico.")
    found = {e.key: e.type for e in services.graph.find_entities("Paredes", [dated.id])}
    assert found.get("paredes") == "PERSON" and "general paredes" not in found, found


@pytest.mark.parametrize(("text", "topic", "wrong"), [
    ("The Tar Heels were led by head coach Dick Crum and played their home games at Kenan Memorial Stadium in "
     "Chapel Hill, North Carolina.", "1981 North Carolina Tar Heels football team", ("played_for", "kenan memorial stadium")),
    ("He played college football as a defensive tackle at the University of Oklahoma.", "Lee Roy Selmon",
     ("portrayed", "university of oklahoma")),
    ("He participated in 416 sold-out performances of the operetta White Horse Inn between 1930 and 1932 in Berlin.",
     "Manasse Herbst", ("competed_in", "berlin")),
    ("\"Rock N Roll Nigger\" is a rock song released on the Patti Smith Group's 1978 album \"Easter\".",
     "Rock N Roll Nigger", ("owned_by", "patti smith group")),
])
def test_a_label_its_ends_contradict_is_no_label(extractor, text, topic, wrong):
    _, facts = extract(extractor, text, topic=topic)
    assert not [f for f in triples(facts) if (f[1], f[2]) == wrong], triples(facts)


def test_the_class_of_the_name_is_a_part_of_it_not_the_name(extractor):
    _, facts = extract(extractor, "The Territory of the United States commonly called the Oregon Territory, lying on "
                                  "the Pacific Ocean, begins to attract the attention of our fellow-citizens.")
    assert not [f for f in triples(facts) if f[0] == "united states"], triples(facts)
    _, facts = extract(extractor, "The Republic of Mexico declared war on the United States.")
    assert [f for f in triples(facts) if f[0] == "mexico"]  # a name the class noun is keeps its facts


def test_a_verb_standing_for_another_gives_no_fact(extractor):
    _, facts = extract(extractor, "The port will occupy the same relation to the whole western coast as New Orleans "
                                  "does to the Mississippi.")
    assert not [f for f in triples(facts) if f[0] == "new orleans"], triples(facts)


@pytest.mark.parametrize(("text", "topic", "fact"), [
    ("It is based on the television series The Dukes of Hazzard.", "The Dukes of Hazzard II",
     ("dukes of hazzard ii", "influenced_by", "dukes of hazzard")),
    ("Located in Rancho Cordova near Sacramento, NCT controls airspace over 19000 square miles.", "NorCal TRACON",
     ("nct", "located_near", "sacramento")),
    ("Bethel University is an evangelical Christian higher education institution.", "Bethel University",
     ("bethel university", "religion", "christian")),
    ("Paul John Keating is an Australian politician who was the 24th Prime Minister of Australia and the Leader of "
     "the Labor Party from 1991 to 1996.", "Paul Keating", ("paul john keating", "leads", "labor party")),
])
def test_the_label_says_what_the_phrase_says(extractor, text, topic, fact):
    _, facts = extract(extractor, text, topic=topic)
    found = triples(facts)
    assert fact in found, found


@pytest.mark.parametrize(("text", "topic", "wrong"), [
    ("He managed Hobbico, a distributor of radio-controlled models.", "Wayne Frey", "owns"),
    ("President Washington requested Mr. Madison to prepare the draft of a veto.", None, "declared"),
    ("The Indians surrounded Texas on every side.", None, "borders"),
])
def test_a_verb_that_does_not_mean_the_label_gives_another(extractor, text, topic, wrong):
    _, facts = extract(extractor, text, topic=topic)
    assert not [f for f in triples(facts) if f[1] == wrong], triples(facts)


# -- round 10: the round-9 judged sample's wrong facts ---------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "fact", "dates"), [
    ("Prior to 1925, it was also the leading publishing house in Norway.", "Gyldendal",
     ("gyldendal", "located_in", "norway"), (None, "1925-01-01")),
    ("It aired on KBS2 from June 23 to August 12, 2014 on Mondays and Tuesdays.", "Lovers of Music",
     ("lovers of music", "published_by", "kbs2"), ("2014-06-23", "2014-08-12")),
])
def test_prior_to_closes_and_a_range_says_its_year_once(extractor, text, topic, fact, dates):
    _, facts = extract(extractor, text, topic=topic)
    found = {(s, r, t): (p["valid_from"], p["valid_until"]) for s, r, t, p in facts}
    assert found.get(fact) == dates, found


def test_it_in_a_reported_clause_is_the_reporter_not_the_topic(extractor):
    text = "After thirteen years as a subsidiary, Hobbico announced it was acquiring Revell-Monogram in 2007."
    _, facts = extract(extractor, text, topic="Monogram")
    assert not [f for f in triples(facts) if f[0] == "monogram"], triples(facts)


def test_who_after_a_place_is_the_person_before_it(extractor):
    text = ("Dayna Hart is an American actress born in New York City, who is also the founder of the Give & Get "
            "Non-profit organization.")
    _, facts = extract(extractor, text, topic="Dayna Hart")
    found = triples(facts)
    assert not [f for f in found if f[0] == "new york city" and f[1] == "founded"], found
    assert ("dayna hart", "founded", "give & get non-profit") in found, found


@pytest.mark.parametrize(("text", "topic", "fact", "wrong"), [
    ("It was sold in March 1996 by Dell's successor company to Crosstown Publications.", "Dell Magazines",
     ("crosstown publications", "acquired", "dell magazines"), "granted_to"),
    ("From 1993 to 1996, he was the head football coach at Blinn College.", "Willie Fritz",
     ("willie fritz", "worked_for", "blinn college"), "part_of"),
])
def test_the_label_follows_the_voice_and_the_noun(extractor, text, topic, fact, wrong):
    _, facts = extract(extractor, text, topic=topic)
    found = triples(facts)
    assert fact in found and not [f for f in found if f[1] == wrong], found


def test_a_place_before_a_makers_noun_is_not_the_work(extractor):
    text = "Awards went to artists such as Gulf Coast painter Walter Anderson and Jackson writer Eudora Welty."
    _, facts = extract(extractor, text, topic="Mississippi Governor's Awards")
    assert not [f for f in triples(facts) if f[1] == "wrote"], triples(facts)


@pytest.mark.parametrize(("text", "wrong"), [
    ("He denounced all those Mexicans who considered Texas as no longer constituting a part of the territory of "
     "Mexico.", ("mexicans", "mexico")),
    ("He denounced all those Mexicans who considered Texas as no longer constituting a part of the territory of "
     "Mexico.", ("texas", "mexico")),
    ("It is well known that President Washington retained the bill from Monday, when it was presented to him, until "
     "Friday.", ("cabinet", "washington")),
])
def test_an_address_does_not_guess_who_acts(extractor, text, wrong):
    """The object of "considered X as …" acts in the "as" clause, "no longer" negates, and a mid-sentence "it"
    after a common noun ("the bill") is that noun, not the last name."""
    _, facts = extract(extractor, "The Cabinet met on Monday. " + text)
    assert not [f for f in triples(facts) if (f[0], f[2]) == wrong], triples(facts)


@pytest.mark.parametrize("text", [
    "Since 1837 the United States have regarded Texas as an independent sovereignty.",
    "President Van Buren communicated this opinion to Congress in the message.",
    "Texas bore the same relation to Mexico that Mexico had borne to Spain.",
])
def test_thinking_or_passing_on_relates_no_two_names(extractor, text):
    _, facts = extract(extractor, text)
    assert not [f for f in triples(facts) if f[1] == "related_to"], triples(facts)


@pytest.mark.parametrize(("text", "fact", "wrong"), [
    ("New Mexico is vast. Upper California holds the same importance to the Union that Louisiana did when that fine "
     "territory was acquired from France.", ("louisiana", "related_to", "france"), ("new mexico", "france")),
    ("Paris is the capital of France, and that city was occupied by Germany in 1940.",
     ("germany", "attacked", "paris"), ("germany", "france")),
    ("Information has been received from Mr. Thompson, the minister of the United States to Mexico.",
     ("thompson", "represented", "united states"), ("thompson", "united states", "secretary_of")),
    ("Information has been recently received from Mr. Thompson, the minister of the United States, who has promptly "
     "executed the instructions of his Government.", ("thompson", "represented", "united states"),
     ("thompson", "united states", "secretary_of")),
])
def test_that_territory_and_an_envoy(extractor, text, fact, wrong):
    """ "that territory" is the last place a clause was about; a minister "of" one country "to" another is its
    envoy."""
    _, facts = extract(extractor, text)
    found = triples(facts)
    assert fact in found and not [f for f in found if set(wrong) <= set(f)], found


def test_referred_to_as_is_an_alias(extractor):
    entities, _ = extract(extractor, "Waylon J. Smithers Jr., usually referred to as Mr. Smithers, is a recurring "
                                     "character in the animated sitcom The Simpsons, voiced by Harry Shearer.",
                          topic="Waylon Smithers")
    holder = next(e for e in entities.values() if e.name.startswith("Waylon"))
    assert "Mr. Smithers" in holder.properties["aliases"], holder.properties


@pytest.mark.parametrize(("text", "wrong"), [
    ("It is well known also that President Washington retained the bill from Monday, the 14th, when it was presented "
     "to him, until Friday, the 25th of February, being the last moment permitted him by the Constitution to "
     "deliberate, when he finally yielded to it his reluctant assent and gave it his signature.", "cabinet"),
    ("From these papers it appears that President Washington, while he yet held the bank bill in his hands, actually "
     "requested Mr. Madison, at that time a member of the House of Representatives, to prepare the draft of a veto "
     "message for him.", "house of representatives"),
])
def test_an_address_relates_no_one_to_what_it_only_mentions(extractor, text, wrong):
    """An object "it" in an address is mostly a bill or a treaty, not the last name; a member "of the House" the
    president requested is the member's relation, not his."""
    prior = "The Cabinet gave its opinion in writing. "
    _, facts = extract(extractor, prior + text)
    assert not [f for f in triples(facts) if f[0] == "washington" and f[2] == wrong], triples(facts)


def test_a_relational_object_noun_keeps_its_of(extractor):
    """Round 10f's first try dropped every "of" after a verb that is not light, and with it this fact (and a
    gold pair of hotpotqa-100 from pairs_2hop)."""
    text = ("\"Wonderland by Night\" is a popular song by Bert Kaempfert. Engelbert Humperdinck also recorded a vocal "
            "version of the song in his 1968 album \"A Man Without Love.\"")
    _, facts = extract(extractor, text, topic="Wonderland by Night")
    assert ("engelbert humperdinck", "performed", "wonderland by night") in triples(facts), triples(facts)
