"""Issue 29, round 17: the names cut short or run on, and the false labels, of round 16's judged draws (seeds
53–89), each on its own sentence. Every case failed on the commit before its rule; the guards keep right names
and facts of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.graph_stores.types import KG_RELATIONS_KEY
from llama_index.core.schema import TextNode

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_precision import names
from tests.services.graph.test_type_evidence import types


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def assert_facts(extractor: SpacyTemporalExtractor, text: str, topic: str, wrong: tuple | None,
                 right: tuple | None) -> None:
    """The text's facts hold ``right`` and not ``wrong`` (either may be None: a fix case or a guard)."""
    found = triples(extract(extractor, text, topic)[1])
    assert wrong is None or wrong not in found, found
    assert right is None or right in found, found


# -- names cut short -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "fragment"), [
    ("Shawfield Street is a street in the Royal Borough of Kensington & Chelsea off King's Road in SW3.",
     "royal borough of kensington & chelsea", "royal borough"),
    ("He was a candidate for California’s 26th Congressional District in the United States House of "
     "Representatives elections in California, 2012.", "california’s 26th congressional district",
     "congressional district"),
    ("He was a candidate for California's 26th Congressional District in 2012.",
     "california's 26th congressional district", "26th congressional district"),
    ("The church is recorded as a designated Grade I listed building.", "grade i", "grade"),
    ("The album peaked at #19 on the \"Billboard\" 200, making it her highest charting album yet.", "billboard 200",
     "billboard"),
    ("It debuted at number 3 on the \"Billboard\" Hot 100 in 1999.", "billboard hot 100", "billboard"),
    ("He was praised for his portrayal of Phil Esposito in the television mini-series, Canada-Russia '72.",
     "canada-russia '72", "canada-russia"),
    ("The route meets NY 12F in the city of Watertown.", "ny 12f", "ny"),
    ("He has also studied at the Musicians Institute, in Hollywood.", "musicians institute", None),
    ("It is a tributary of the River Thames in the London Borough of Camden.", "london borough of camden",
     "london borough"),
    ("The 2007 edition was the sixteenth edition of the FIFA U-20 World Cup.", "fifa u-20 world cup", "world cup"),
    ("Additionally, he was selected for the NFL All-Star Game from 1940–1942.", "nfl all-star game", "all-star game"),
])
def test_a_name_keeps_its_place_number_and_chart(extractor, text, whole, fragment):
    found = names(extractor, text)
    assert whole in found and fragment not in found, found


@pytest.mark.parametrize(("text", "whole", "run_on"), [
    ("On January 1, 2001, the United Kennel Club recognized the Russell Terrier as an official breed, designating "
     "only the stock from the American Russell Terrier Club as Foundation stock for the UKC Russell Terrier.",
     "american russell terrier club", "american russell terrier club as foundation"),
    ("After retiring from ski jumping, Hannawald played football for Kreisliga club TSV Burgau.", "tsv burgau",
     "kreisliga club tsv burgau"),
])
def test_a_name_ends_before_an_as_and_starts_after_a_common_noun(extractor, text, whole, run_on):
    entities, _ = extract(extractor, text, "American Russell Terrier Club")
    assert whole in entities and run_on not in entities, sorted(entities)


@pytest.mark.parametrize("text", [
    "Daniels also started 6 games at Defensive Back and totaled 20 tackles.",
    "He moved to Wide Receiver in his second season.",
])
def test_a_playing_position_is_no_name(extractor, text):
    found = names(extractor, text)
    assert not any(k in found for k in ("defensive back", "wide receiver")), found


@pytest.mark.parametrize(("text", "whole"), [
    ("She joined the Writers Guild of America in 1950.", "writers guild of america"),
    ("Richard III was King of England.", "richard iii"),
])
def test_guards_names_of_the_same_shapes_stay_whole(extractor, text, whole):
    found = names(extractor, text)
    assert whole in found, found


def test_an_ordinal_stays_out_of_a_name_that_is_no_numbered_unit(extractor):
    found = names(extractor, "It was Jordan's 6th NBA Championship.")
    assert "jordan's 6th nba championship" not in found, found


@pytest.mark.parametrize(("text", "topic", "name"), [
    ("As of 2013, the Houston Texans have sent 20 different players to the Pro Bowl.",
     "List of Houston Texans Pro Bowl selections", "Houston Texans"),  # the tagger says NORP
    ("George Wilson was later a coach for the National Football League (NFL)'s Detroit Lions and the American Football "
     "League (AFL)'s Miami Dolphins.", "George Wilson", "Miami Dolphins"),  # the tagger says PERSON
])
def test_a_team_after_a_leagues_possessive_or_named_for_its_city_is_a_team(extractor, text, topic, name):
    found = types(extractor, text, topic)
    assert found[name] == "ORG", found


def test_guard_a_people_after_the_stays_a_people(extractor):
    found = types(extractor, "The Native Americans lived in the region before the Spanish Conquistadors arrived.",
                  "Native Americans")
    assert found.get("Native Americans", "NORP") == "NORP", found


def test_an_appositive_after_as_describes_the_part(extractor):
    _, facts = extract(extractor, "Eddie the Eagle is a 2016 film. The film stars Taron Egerton as Eddie Edwards, a "
                                  "British skier who in 1988 became the first competitor.", "Eddie the Eagle")
    found = triples(facts)
    assert ("taron egerton", "nationality", "british") not in found, found
    assert ("eddie edwards", "nationality", "british") in found, found


# -- labels -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong"), [
    ("The Hythrun Chronicles is a fantasy set of novels by Jennifer Fallon told in two trilogies, The Demon Child "
     "Trilogy and The Wolfblade Trilogy. The Demon Child Trilogy follows R'shiel Tenragan as she accepts her fate.",
     "The Hythrun Chronicles", ("demon child trilogy", "succeeded", "r'shiel tenragan")),
    ("WRVU is a college radio station in Nashville. WRVU serves Vanderbilt University.", "WRVU",
     ("wrvu", "connects", "vanderbilt university")),
    ("Will Wallner is a guitarist. He has also studied at the Musicians Institute, in Hollywood.", "Will Wallner",
     ("will wallner", "studied_at", "hollywood")),
    ("\"When Flanders Failed\" is the third episode of The Simpsons. In the episode, Homer makes a wish for Ned "
     "Flanders to go out of business.", "When Flanders Failed", ("homer", "released_in", "when flanders failed")),
])
def test_a_label_its_ends_or_its_scene_refute_is_not_given(extractor, text, topic, wrong):
    assert_facts(extractor, text, topic, wrong, None)


@pytest.mark.parametrize(("text", "topic", "right"), [
    ("Will Wallner is a guitarist. He has also studied at the Musicians Institute, in Hollywood.", "Will Wallner",
     ("will wallner", "studied_at", "musicians institute")),
    ("John Adams was an American politician. He succeeded George Washington as president in 1797.", "John Adams",
     ("john adams", "succeeded", "george washington")),
    ("New York State Route 12F is a state highway in New York. The route serves Watertown International Airport.",
     "New York State Route 12F", ("new york state route 12f", "connects", "watertown international airport")),
    ("Foo Film is a 1999 film. In Japan, the film was released by Toho in 2001.", "Foo Film",
     ("foo film", "released_in", "japan")),
])
def test_guards_the_same_labels_stay_where_the_ends_allow_them(extractor, text, topic, right):
    assert_facts(extractor, text, topic, None, right)


# -- dates --------------------------------------------------------------------------------------------------
def test_two_days_of_one_month_start_on_the_first(extractor):
    node = TextNode(text="A presidential election was held in Egypt in two rounds, the first on 23 and 24 May 2012 and "
                         "the second on 16 and 17 June.", start_char_idx=0,
                    metadata={"rag_title": "Egyptian presidential election, 2012"})  # a title that names no thing
    extractor([node])
    held = [r for r in node.metadata[KG_RELATIONS_KEY] if r.label == "held_in"]
    assert held and held[0].properties["valid_from"] == "2012-05-23", held  # not the 24th


# -- round 17b: the draws of commit a43e27a (seeds 97, 101, 103) ---------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("Charles Andrews (February 11, 1814 – April 30, 1852) was a United States Representative from Maine.",
     "Charles Andrews", ("charles andrews", "member_of", "maine"), ("charles andrews", "represented", "maine")),
    ("John Smith was a United States Senator from Ohio.", "John Smith", ("john smith", "member_of", "ohio"),
     ("john smith", "represented", "ohio")),
    ("Tarzan, the Ape Man is a 1981 adventure film directed by John Derek and starring his wife Bo Derek, Miles "
     "O'Keeffe, Richard Harris, and John Phillip Law.", "Tarzan, the Ape Man",
     ("tarzan the ape man", "related_to", "john phillip law"), ("tarzan the ape man", "stars", "john phillip law")),
    ("Mallik Rehan Tomb, Sira is a mausoleum built over the grave of Mallik Rehan who was governor of Sira province.",
     "Mallik Rehan Tomb, Sira", ("mallik rehan", "leads", "mallik rehan tomb sira"), None),
    ("San Francisco International Airport is the 2nd largest airport in California and the largest airport serving "
     "Northern California.", "San Francisco International Airport",
     ("san francisco international airport", "connects", "northern california"), None),
    ("Schooner Fare is a folk band. They play throughout Maine and North America.", "Schooner Fare",
     ("schooner fare", "released_in", "maine"), None),
    ("Senator Orrin Hatch won re-election against former state Senator and IBM executive, Scott Howell the Democratic "
     "candidate.", "Utah Senate election", ("scott howell", "nationality", "democratic"), None),
    ("A lilu or lilû is a masculine Akkadian word for a spirit, related to Alû, demon.", "Lilu",
     ("lilu", "nationality", "akkadian"), None),
    ("The Most Dangerous Game is a 1932 film. The film stars Joel McCrea, Leslie Banks, and \"King Kong\" leads Fay "
     "Wray and Robert Armstrong, and was made by a team including Ernest B. Schoedsack and Merian C. Cooper.",
     "The Most Dangerous Game", ("merian c cooper", "related_to", "fay wray"), None),
])
def test_a_role_a_region_a_party_or_a_language_gives_no_false_fact(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_a_festival_is_named_with_its_country(extractor):
    found = names(extractor, "She was honored among women in cinema at the 30th International Film Festival of India.")
    assert "international film festival of india" in found and "international film festival" not in found, found


@pytest.mark.parametrize(("text", "topic", "right"), [
    ("Bigger Thomas is a fictional character created by Richard Wright.", "Bigger Thomas",
     ("richard wright", "created", "bigger thomas")),
    ("New England is a geographical region comprising six states of the northeastern United States: Maine, Vermont, "
     "New Hampshire, Massachusetts, Rhode Island, and Connecticut.", "New England",
     ("new england", "contains", "vermont")),
])
def test_members_listed_after_a_class_are_contained_and_guard_a_character_is_created(extractor, text, topic, right):
    assert_facts(extractor, text, topic, None, right)


def test_a_plural_class_that_opens_a_sentence_is_no_part_of_a_name(extractor):
    found = names(extractor, "Regulars Sid James, Kenneth Williams and Kenneth Connor appear.")
    assert "sid james" in found and not any(k.startswith("regulars") for k in found), found


def test_a_surname_is_the_person_not_a_work_that_names_them():
    from tests.services.graph.test_label_checks import _resolved
    found = _resolved(SpacyTemporalExtractor(), "The Life of Samuel Johnson was written by John Hawkins in 1787. It was "
                      "the first full biography of Samuel Johnson, with Thomas Tyers's \"A Biographical Sketch of Dr "
                      "Samuel Johnson\" being the first short one. Hawkins was a friend of Johnson.", "Life of Samuel Johnson")
    assert found.get("johnson") == "samuel johnson", found


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("It was also the first U.S. presidential election where the popular vote was recorded.",
     "United States presidential election, 1824", ("united states presidential election 1824", "comes_from", "u s"),
     ("united states presidential election 1824", "held_in", "united states")),
    ("The Prestige is a 2006 film. The film reunites Nolan with actors Bale and Caine from \"Batman Begins\" and "
     "returning cinematographer Wally Pfister.", "The Prestige", ("prestige", "granted_to", "wally pfister"), None),
])
def test_an_election_is_held_in_its_country_and_a_returning_crew_member_is_given_to_no_one(extractor, text, topic,
                                                                                            wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("\"Episode 6188\" is the 6188th episode of the Australian soap opera \"Neighbours\". The episode was written by "
     "Sarah Mayberry, directed by Jonathon Dutton, and executively produced by Susan Bower.", "Episode 6188",
     ("jonathon dutton", "directed", "sarah mayberry"), ("jonathon dutton", "directed", "episode 6188")),
    ("The Dark Knight Rises is a 2012 superhero film directed by Christopher Nolan, who co-wrote the screenplay with "
     "his brother Jonathan Nolan, and the story with David S. Goyer.", "The Dark Knight Rises",
     ("dark knight rises", "related_to", "jonathan nolan"), ("christopher nolan", "related_to", "jonathan nolan")),
    ("Ernest Eden George (18 September 1863 – 2 May 1927), known as Eden George, was born in New South Wales and came "
     "to New Zealand as a young man. He made his career in photography and was active in Auckland and Dunedin, but "
     "mainly in Christchurch.", "Eden George", ("eden george", "located_in", "auckland"), None),
    ("Cry Wolf is a 2005 American horror film directed by Jeff Wadlow, co-written by Wadlow and Beau Bauman, and "
     "starring Julian Morris.", "Cry Wolf", None, ("beau bauman", "wrote", "cry wolf")),  # a guard
])
def test_the_next_credit_and_a_split_verb_keep_their_subject(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_a_title_is_found_whatever_the_spaces_between_its_words(extractor):
    from services.graph.service import _topic
    text = "Arthur?  Arthur!  is a 1969 British comedy film directed by Samuel Gallu and starring Shelley Winters."
    metadata = _topic("Arthur? Arthur!", {}, text)  # the title is the topic, though the text has two spaces
    entities, facts = extract(extractor, text, metadata.get("rag_topic"))
    assert metadata.get("rag_topic") == "Arthur? Arthur!", metadata
    assert ("samuel gallu", "directed", "arthur arthur") in triples(facts), triples(facts)
    assert "arthur" not in entities, sorted(entities)


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("Palash Sen is an Indian singer, songwriter, musician, composer and actor best known as the founder and frontman "
     "of India's pop band Euphoria.", "Palash Sen", ("palash sen", "known_as", "euphoria"),
     ("palash sen", "founded", "euphoria")),
    ("Logan Bartholomew is an American actor. In 2013, he took over the role of Jason Stevens from Drew Fuller, in the "
     "sequel to 2007's \"The Ultimate Gift\", \"The Ultimate Life\".", "Logan Bartholomew",
     ("logan bartholomew", "acquired", "ultimate life"), None),
    ("Sulli is a South Korean actress. She was known as Choi Jin-ri before 2009.", "Sulli", None,
     ("sulli", "known_as", "choi jin-ri")),  # a guard: a name right after "as" is another name
])
def test_known_as_a_role_and_taking_over_a_part_say_what_the_noun_says(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("Max Ramsay is a fictional character from the Australian soap opera \"Neighbours\" played by Francis Bell.",
     "Max Ramsay", ("francis bell", "performed", "neighbours"), ("francis bell", "performed", "max ramsay")),
    ("Raja Hindustani is a 1996 Indian Hindi-language romantic drama film directed by Dharmesh Darshan.",
     "Raja Hindustani", ("indian hindi-language", "created", "raja hindustani"), None),
    ("Key Publications was an American comic-book company founded by Stanley P. Morse that published under the imprints "
     "Aragon Magazines, Gillmor Magazines and Medal Comics.", "Key Publications",
     ("stanley p morse", "related_to", "medal comics"), ("key publications", "related_to", "medal comics")),
    ("Sandra Miju Oh (born July 20, 1971) is a Canadian actress known for her role as Cristina Yang on ABC's medical "
     "drama \"Grey's Anatomy\", a role that earned her a Golden Globe.", "Sandra Miju Oh", None,
     ("sandra miju oh", "won", "golden globe")),  # a guard: a "that" after a common noun (the topic is the
    # first sentence's subject, as ingestion makes it of the title "Sandra Oh", which the text never writes)
])
def test_a_part_a_language_and_a_that_after_a_person_take_the_right_ends(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_a_nationality_before_a_singers_title_is_her_nationality(extractor):
    assert_facts(extractor, "Diamond Cut is the third studio album by Welsh singer Bonnie Tyler.", "Diamond Cut",
                 ("bonnie tyler", "member_of", "welsh"), ("bonnie tyler", "nationality", "welsh"))


def test_a_volume_in_capitals_keeps_its_numeral(extractor):
    found = names(extractor, "The rare Notepad Productions VOLUME I album remains highly sought after by collectors.")
    assert "notepad productions volume i" in found, found
