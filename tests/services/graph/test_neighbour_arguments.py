"""Issue 29, round 18: a fact's subject, object or date taken from a neighbour in the sentence, and a topic's name
cut by the tagger, from the wrong facts of round 17's judged draws and of a census of 480 facts. Every case
failed on the commit before its rule; the guards keep right facts of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.graph_stores.types import KG_NODES_KEY
from llama_index.core.schema import TextNode

from services.graph.extraction import SpacyTemporalExtractor
from services.graph.service import _topic
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_extents import assert_facts
from tests.services.graph.test_name_precision import names


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- the neighbour's object or subject ---------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a name coordinated with a common noun belongs to the next clause, not to the noun
    ("Pierre is the state capital and Sioux Falls, with a population of about 171,000, is South Dakota's largest "
     "city.", "South Dakota", ("pierre", "related_to", "sioux falls"), None),
    # … or is the last item of the noun's own list: the holding company of both
    ("It is the holding company of MidWestOne Bank, and MidWestOne Insurance Services.",
     "MidWestOne Financial Group", None,
     ("midwestone financial group", "related_to", "midwestone insurance services")),
    # a second attribute of another kind than the subject describes the name before it: the movie stars them
    ('Ed Blum is the director and producer of "Scenes of a Sexual Nature" (2006), a low budget British movie '
     "starring Ewan McGregor and Sophie Okonedo, filmed entirely on Hampstead Heath.", "Ed Blum",
     ("ed blum", "stars", "ewan mcgregor"), ("scenes of a sexual nature", "stars", "ewan mcgregor")),
    # the second "as" of a cast list, hung on the verb, is the second actor's part
    ("I Saw the Light is a 2015 American biographical drama film directed, written, and produced by Marc Abraham, "
     "starring Tom Hiddleston as country music legend Hank Williams and Elizabeth Olsen as his first wife, Audrey "
     "Williams.", "I Saw the Light", ("tom hiddleston", "portrayed", "audrey williams"),
     ("elizabeth olsen", "portrayed", "audrey williams")),
])
def test_an_argument_is_not_taken_from_a_neighbour(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_the_first_actor_keeps_his_part_and_no_other(extractor):
    _, facts = extract(extractor, "I Saw the Light is a 2015 American biographical drama film directed, written, and "
                                  "produced by Marc Abraham, starring Tom Hiddleston as country music legend Hank "
                                  "Williams and Elizabeth Olsen as his first wife, Audrey Williams.", "I Saw the Light")
    parts = {(s, t) for s, r, t in triples(facts) if r == "portrayed"}
    assert parts == {("tom hiddleston", "hank williams"), ("elizabeth olsen", "audrey williams")}, facts


def test_an_appositive_of_the_subjects_own_kind_stays_the_subjects(extractor):
    # the guard: "a British director" is the subject's; only a class of another kind moves to the name before it
    assert_facts(extractor, 'Ed Blum is the director of "Scenes of a Sexual Nature" (2006), a British director '
                            "known for working with Ewan McGregor.", "Ed Blum", None,
                 ("ed blum", "nationality", "british"))


# -- each object its own dates -----------------------------------------------------------------------------
def _dates(extractor: SpacyTemporalExtractor, text: str, topic: str, obj: str) -> list[tuple[str | None, ...]]:
    _, facts = extract(extractor, text, topic)
    return [(p["valid_from"], p["valid_until"]) for s, r, t, p in facts if t == obj]


def test_each_college_has_its_own_years(extractor):
    text = ("He was also the head football coach at Boston University from 1985 to 1987 and Hartwick College from "
            "1992 to 2001, compiling a career college football coaching record of 89–111–2.")
    assert _dates(extractor, text, "Steve Stetson", "hartwick college") == [("1992-01-01", "2001-01-01")]
    assert _dates(extractor, text, "Steve Stetson", "boston university") == [("1985-01-01", "1987-01-01")]


def test_each_office_has_its_own_start(extractor):
    text = ("Barnaby Thomas Gerard Joyce (born 17 April 1967) is an Australian politician who has served as the "
            "Deputy Prime Minister of Australia since 18 February 2016, as the Leader of the National Party of "
            "Australia since 11 February 2016.")
    assert _dates(extractor, text, "Barnaby Joyce", "national party of australia") == [("2016-02-11", None)]


def test_each_region_has_its_release_day(extractor):
    text = "It was released on November 10, 1998 in North America, and February 4, 1999 in Europe."
    assert _dates(extractor, text, "Rush 2: Extreme Racing USA", "north america") == [("1998-11-10", None)]


@pytest.mark.parametrize(("text", "obj", "dates"), [
    # one run of dates belongs to the one object
    ("It aired from October 5, 2015 until November 10, 2015 on KBS2 every Monday and Tuesday at 22:00 KST for 12 "
     "episodes.", "kbs2", [("2015-10-05", "2015-11-10")]),
    # two runs with no name between them: one span, as before
    ("Andrews served as the first librarian of John Crerar Library from 1895 until his retirement in 1928.",
     "john crerar library", [("1895-01-01", "1928-01-01")]),
])
def test_one_objects_dates_stay_whole(extractor, text, obj, dates):
    assert _dates(extractor, text, "Cheer Up!", obj) == dates


# -- the topic's name as the text writes it ------------------------------------------------------------------
def _entities(extractor: SpacyTemporalExtractor, title: str, text: str) -> set[str]:
    node = TextNode(text=text, start_char_idx=0, metadata=dict(_topic(title, {}, text)))
    extractor([node])
    return {e.name for e in node.metadata[KG_NODES_KEY]}


@pytest.mark.parametrize(("title", "text", "whole", "cut"), [
    ("Leston Paul", "Leston Peter Paul (born 11 March 1990) is a Trinidad and Tobago professional footballer who "
                    "plays central midfield for C.D. Pasaquina in the Salvadoran Premier Division.",
     "Leston Peter Paul", "Peter Paul"),
    ("King Vidor", "King Wallis Vidor ( ; February 8, 1894 – November 1, 1982) was an American film director, film "
                   "producer, and screenwriter whose career spanned nearly seven decades.",
     "King Wallis Vidor", "Wallis Vidor"),
])
def test_the_title_opens_the_subject_the_tagger_cut(extractor, title, text, whole, cut):
    found = _entities(extractor, title, text)
    assert whole in found and cut not in found, found


def test_the_titles_surname_is_the_subject(extractor):
    found = _entities(extractor, "José Sulantay", "José Manuel Sulantay Silva (born April 3, 1940) is an ex-football "
                                                  "player and coach. At a FIFA level, Sulantay is Chile's second most "
                                                  "successful coach after Fernando Riera.")
    assert "Sulantay" not in found and "José Manuel Sulantay Silva" in found, found


def test_an_article_does_not_open_the_name(extractor):
    # the guard: "The" before a work's name is no word of it, whatever the title writes
    found = _entities(extractor, "The Jolly Boys' Last Stand", "The Jolly Boys Last Stand is a 2000 British feature "
                                                               "film written and directed by Chris Payne.")
    assert not any(n.startswith("The ") for n in found), found


# -- a coordinated name that opens the next clause ------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("Before the season, Elmer Layden resigned as NFL Commissioner and Bert Bell, co-founder of the Philadelphia "
     "Eagles, replaced him.", "1946 NFL season", ("elmer layden", "related_to", "bert bell"),
     ("bert bell", "founded", "philadelphia eagles")),
    # the guards: a subject list's last member before an aside opens no clause of its own
    ("My Administration and the Congress, working together, have demonstrated that government must and can meet "
     "our citizens' basic human and social needs.", None, ("congress", "related_to", "my administration"), None),
    # … nor does the last member of a subject list before its verb
    ("Directors such as Steven Spielberg, James Cameron, and Woody Allen, have cited Kubrick as a source of "
     "inspiration.", "Influence of Stanley Kubrick", None, ("woody allen", "related_to", "kubrick")),
    # an appositive noun of no class after a place is a list's, not a class of the place
    ("Their 2010 release received double platinum in Denmark, platinum in Finland and Germany, and gold in the "
     "United States.", "Volbeat", ("denmark", "located_in", "germany"), None),
])
def test_a_coordinated_name_belongs_to_its_own_clause(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- two names with nothing between them -----------------------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "cut"), [
    ("He was discovered by Sony Greece and released his debut album.", "sony greece", "greece"),
    ("She was a featured performer at w00tstock 3.0 during San Diego Comic Con in 2011.", "san diego comic con",
     "comic con"),
])
def test_two_names_with_nothing_between_them_are_one(extractor, text, whole, cut):
    found = names(extractor, text)
    assert whole in found and cut not in found, found


def test_a_town_and_its_state_stay_two(extractor):
    # the guard: a place right after a place is where it is, not one name
    found = names(extractor, "He moved to Dallas Texas in 2001.")
    assert "dallas" in found and "texas" in found, found


def test_the_name_that_opens_a_clause_is_its_subject(extractor):
    # the guard: with Bell the subject of "replaced him", Layden replaced no one
    _, facts = extract(extractor, "Before the season, Elmer Layden resigned as NFL Commissioner and Bert Bell, "
                                  "co-founder of the Philadelphia Eagles, replaced him.", "1946 NFL season")
    assert not any(s == "elmer layden" and r == "succeeded" for s, r, _ in triples(facts)), facts


def test_a_bands_he_is_the_person_the_sentence_names(extractor):
    # a band's text: "he" is the one person its sentence names, not the band named before it
    assert_facts(extractor, "Seer or Die Seer is an Austrian musical pop and schlager band founded in 1996 by Alfred "
                            "Fred Jaklitsch after the break-up of the Austrian pop band Joy he was part of. After a "
                            "brief solo career as Freddy Jay, he founded the band that comes from Grundlsee in "
                            "Styria.", "Seer", ("joy", "founded", "seer"), ("freddy jay", "founded", "seer"))


# -- a quoted title read as one proper noun ------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a title that is a clause broke the parse: its verb took the sentence, and the title became the next subject
    ('In 1993 she co-founded the Women\'s Professional Playwrights Association (WOPPA) which premiered her play '
     '"Ophelia Thinks Harder", and established The Women\'s Play Press with Lorae Parry.', "Jean Betts",
     ("ophelia thinks harder", "related_to", "lorae parry"), ("jean betts", "related_to", "lorae parry")),
    ('Roadie John Marshall, who also played guitar in "Metal Church", filled in for James Hetfield on rhythm guitar.',
     "Damage, Inc. Tour", ("metal church", "related_to", "james hetfield"),
     ("john marshall", "related_to", "james hetfield")),
    ('Helen Hunt is an actress. She starred in the sitcom "Mad About You" for seven years, and played single mother '
     'Carol Connelly in the 1997 romantic comedy film "As Good as It Gets".', "Helen Hunt", None,
     ("helen hunt", "starred_in", "mad about you")),
    # the guards: titles the parse read right before keep their facts
    ("Mark Wahlberg is an actor. Wahlberg was known as Marky Mark in his early career as frontman for the group "
     'Marky Mark and the Funky Bunch, releasing the albums "Music for the People" and "You Gotta Believe".',
     "Mark Wahlberg", None, ("mark wahlberg", "released", "you gotta believe")),
    # a title set beside its noun by a comma and a quotation mark is its appositive
    ('Big Boi is a rapper. He released his sophomore studio album, "Vicious Lies and Dangerous Rumors" in 2012.',
     "Big Boi", None, ("big boi", "released", "vicious lies and dangerous rumors")),
    # a second attribute with no subject is the first's: the mansion is the house
    ('Shawfield Street is a street in London. On the corner is "Shawfield House", a 7-bedroom mansion currently '
     "owned by Charles Saatchi and wife Nigella Lawson.", "Shawfield Street", None,
     ("charles saatchi", "owns", "shawfield house")),
])
def test_a_quoted_title_is_one_name_to_the_parser(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


@pytest.mark.parametrize(("text", "name"), [
    ('They wrote "Wedding Bells," "I Saw the Light" and others.', "wedding bells"),  # the comma is the sentence's
    ('William "Wild Guy" Grasso was an Italian-American gangster from East Haven.', "william"),  # a nickname stays
])
def test_a_quoted_title_leaves_the_sentence_its_own(extractor, text, name):
    found = names(extractor, text)
    assert any(k.startswith(name) and "," not in k for k in found), found


# the guards below keep what the parse of a merged title first lost
def test_the_dative_of_earning_won_it(extractor):
    # "a role that earned her a Golden Globe": she won it, not the drama the role was in
    assert_facts(extractor, "Sandra Miju Oh is a Canadian actress known for her role as Cristina Yang on ABC's medical "
                            "drama \"Grey's Anatomy\", a role that earned her a Golden Globe.", "Sandra Miju Oh",
                 ("grey's anatomy", "won", "golden globe"), ("sandra miju oh", "won", "golden globe"))


def test_names_after_the_verbs_colon_are_its_objects(extractor):
    assert_facts(extractor, 'He is most often remembered for the three Powell & Pressburger films in which he starred: '
                            '"The Life and Death of Colonel Blimp", "I Know Where I\'m Going!"', "Roger Livesey", None,
                 ("roger livesey", "starred_in", "life and death of colonel blimp"))


def test_a_participle_after_a_listed_title_features_for_it(extractor):
    assert_facts(extractor, 'It was supported by the release of two singles – "Mic Jack" featuring Adam Levine, Scar '
                            'and Sleepy Brown and "Kill Jill" featuring Killer Mike and Jeezy.', "Trap or Die 2",
                 ("mic jack", "stars", "jeezy"), ("kill jill", "stars", "jeezy"))
