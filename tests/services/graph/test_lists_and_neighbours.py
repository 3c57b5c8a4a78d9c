"""Issue 29, round 22: wrong facts still extracted from the hotpotqa-100 passages that earlier rounds judged, where a
list or a neighbouring clause gave a fact its argument. Every fix case failed on the commit before its rule; the
guards keep right names and facts of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.schema import TextNode

from services.graph.document_facts import _found
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.resolution import resolve_document
from tests.services.graph.test_fact_quality import extract
from tests.services.graph.test_name_extents import assert_facts
from tests.services.graph.test_name_precision import names


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- a tagged span over a list's commas is its members ---------------------------------------------------------
@pytest.mark.parametrize(("text", "members", "merged"), [
    ("Besides Honolulu, the district includes the counties of Kauai, Maui, Kalawao and Hawaii.",
     ["kauai", "maui", "kalawao"], "kauai, maui"),
    ("Ackworth is a village situated between Pontefract, Barnsley and Doncaster on the small River Went.",
     ["pontefract", "barnsley", "doncaster"], "pontefract, barnsley and doncaster"),
    # a list's end run into the subject of the clause after it
    ("A member of the African Party for the Independence of Guinea and Cape Verde, Sanhá was President of the "
     "National People's Assembly from 1994 to 1999.", ["cape verde", "sanhá"], "cape verde, sanhá"),
])
def test_a_span_over_a_lists_commas_is_its_members(extractor, text, members, merged):
    found = names(extractor, text)
    assert all(m in found for m in members) and merged not in found, found


@pytest.mark.parametrize(("text", "name"), [
    # guards: a firm's partners, a suffix, a place and its region, a title with a comma in a list
    ("The firm of Wright, Lindsey & Jennings was founded in Little Rock.", "wright, lindsey & jennings"),
    ("The channel is owned by Cartoon Network, Inc., a subsidiary of Turner Broadcasting System.",
     "cartoon network, inc."),
    ("Edgar Eugene Roland, Jr. is an American musician.", "edgar eugene roland, jr."),
    ("She has since appeared in other feature films including I Love Peace, Mimibukuro Ghost Stories and Welcome, "
     "Patient.", "welcome, patient"),
])
def test_a_name_with_a_comma_of_its_own_stays_whole(extractor, text, name):
    assert name in names(extractor, text)


def test_the_subject_split_off_a_list_is_the_topics_short_form(extractor):
    assert_facts(extractor, "Malam Bacai Sanhá was a Bissau-Guinean politician. A member of the African Party for "
                 "the Independence of Guinea and Cape Verde (PAIGC), Sanhá was President of the National People's "
                 "Assembly from 1994 to 1999.", "Malam Bacai Sanhá",
                 ("cape verde, sanhá", "related_to", "national people's assembly"),
                 ("malam bacai sanhá", "president_of", "national people's assembly"))


# -- a member before a verb of its own is that verb's subject ---------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("It was recorded at Castle Studio in Nashville, while it is speculated that Chet Atkins played lead guitar and "
     "Ernie Newton played bass.", "I Won't Be Home No More", ("chet atkins", "performed", "ernie newton"), None),
    ("It was the first in the series to have a specific driver on the front cover: Michael Schumacher in his "
     "Ferrari appears on most editions, whilst Olivier Panis in his Prost appears on the French edition and Jean "
     "Alesi in his Benetton appears on the Japanese edition.", "Formula 1 97",
     ("olivier panis", "related_to", "jean alesi"), ("jean alesi", "related_to", "benetton")),
    # a guard: a member with no verb of its own stays an object
    ("Chet Atkins played with Jerry Rivers and Ernie Newton in Nashville.", "Chet Atkins", None,
     ("chet atkins", "related_to", "ernie newton")),
])
def test_a_member_before_a_verb_of_its_own_is_no_object(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- "respectively" pairs two lists member by member ------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # one side is two characters the tagger made one name: nobody played both
    ('Celestine and Etta Tavernier are fictional characters from the BBC soap opera "EastEnders", played by Leroy '
     'Golding and Jacqui Gordon-Lawrence respectively.', "Celestine and Etta Tavernier",
     ("leroy golding", "performed", "celestine and etta tavernier"), None),
    ("In Star Wars, Harrison Ford and Carrie Fisher played Han Solo and Princess Leia Organa respectively.",
     "Star Wars", ("harrison ford", "performed", "princess leia organa"), ("carrie fisher", "performed",
                                                                         "princess leia organa")),
    # guards: the pair by order is kept, a fact outside the lists stays, a single partner takes both
    ("In Star Wars, Harrison Ford and Carrie Fisher played Han Solo and Princess Leia Organa respectively.",
     "Star Wars", None, ("harrison ford", "performed", "han solo")),
    ("In Star Wars, Harrison Ford and Carrie Fisher played Han Solo and Princess Leia Organa respectively.",
     "Star Wars", None, ("harrison ford", "starred_in", "star wars")),
    ("Metallica is an American heavy metal band. After several bassist and lead guitarist changes, the band settled "
     "on Cliff Burton and Kirk Hammett, respectively.", "Metallica", None, ("metallica", "related_to", "kirk hammett")),
])
def test_respectively_pairs_two_lists_member_by_member(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- a sibling's or a child's given name takes the family's surname ---------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("Kate Ramsay is a fictional character. Kate was introduced along with her siblings Harry (Will Moore) and "
     "Sophie (Kaiya Jones) as a new generation of the Ramsay family.", "Kate Ramsay",
     ("kate", "related_to", "harry"), ("kate", "related_to", "sophie ramsay")),
    ("Edward Stourton, 10th Baron Stourton was an English peer. He succeeded his brother John in 1588.",
     "Edward Stourton, 10th Baron Stourton", ("edward stourton 10th baron stourton", "succeeded", "john"),
     ("edward stourton 10th baron stourton", "succeeded", "john stourton")),
    ("Sophie Ramsay is a fictional character. The character was created along with her brother Harry and sister "
     "Kate.", "Sophie Ramsay", ("sophie ramsay", "related_to", "kate"), ("sophie ramsay", "related_to", "kate ramsay")),
    # guards: a wife keeps the name the text gives her; a brother named in full keeps his
    ("John Smith is an actor. He married his wife Mary in 1990.", "John Smith", ("john smith", "married", "mary smith"),
     ("john smith", "married", "mary")),
    ("John Smith is an actor. He worked with his brother Pat Jones.", "John Smith", None,
     ("john smith", "collaborated_with", "pat jones")),
])
def test_a_siblings_given_name_takes_the_family_surname(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- a noun the tagger made a past verb states nothing ----------------------------------------------------------
def test_a_noun_tagged_as_a_past_verb_states_nothing(extractor):
    """"maid" has no past form: Rosie is a maid on "The Jetsons", and Goldie, Lola Glamour and Nurse LaRue are the
    next characters of the list, which the parse had hung under the "verb"."""
    assert_facts(extractor, 'Jean Vander Pyl was an American actress. She also provided the voices of Pebbles '
                 'Flintstone, Rosie the robot maid on the animated series "The Jetsons", Goldie, Lola Glamour, Nurse '
                 'LaRue and other characters in "Top Cat", Winsome Witch on "The Secret Squirrel Show" and Ogee on '
                 '"The Magilla Gorilla Show".', "Jean Vander Pyl", ("rosie", "related_to", "goldie"), None)


def test_a_verb_whose_past_is_its_present_still_states(extractor):
    assert_facts(extractor, "Hitchcock cast Cary Grant in North by Northwest.", "Alfred Hitchcock", None,
                 ("alfred hitchcock", "related_to", "cary grant"))


# -- three one-word names after "published by" are one firm -----------------------------------------------------
@pytest.mark.parametrize(("text", "name", "parts"), [
    ('He also contributed several biographies for the "Famous Scots Series" published by Oliphant, Anderson and '
     'Ferrier.', "oliphant, anderson and ferrier", ["oliphant", "ferrier"]),
])
def test_three_one_word_names_after_published_by_are_one_firm(extractor, text, name, parts):
    found = names(extractor, text)
    assert name in found and not any(p in found for p in parts), found


@pytest.mark.parametrize(("text", "kept"), [
    # guards: two publishers stay two; authors listed after "written by" stay people
    ("The dictionary was published by Macmillan and Longman in 1900.", ["macmillan", "longman"]),
    ("The report was written by Smith, Jones and Brown in 1900.", ["smith", "jones", "brown"]),
])
def test_other_lists_after_by_stay_apart(extractor, text, kept):
    found = names(extractor, text)
    assert all(k in found for k in kept), found


# -- a date of an appositive dates no fact of the name it describes ---------------------------------------------
@pytest.mark.parametrize(("text", "topic", "fact", "valid_from"), [
    ("The 1939 National Football League All-Star Game was a football game. The game pitted the New York Giants, "
     "the league's champion for the 1938 season, against a team of all-stars.",
     "1939 National Football League All-Star Game",
     ("1939 national football league all-star game", "related_to", "new york giants"), None),
    # a guard: a range after a place's apposition is the fact's
    ("Tom Keele is an American football coach. He served as the head football coach at California State "
     "University, Northridge from 1979 to 1985.", "Tom Keele",
     ("tom keele", "served_in", "california state university northridge"), "1979-01-01"),
])
def test_an_appositives_date_dates_no_fact(extractor, text, topic, fact, valid_from):
    found = {(s, r, o): p for s, r, o, p in extract(extractor, text, topic)[1]}
    assert fact in found, found.keys()
    assert (found[fact].get("valid_from") or None) == valid_from, found[fact]


# -- names cut under the census's wrong facts -------------------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "fragment"), [
    # a nickname in single quotes is no end of the name
    ("Bess Armstrong also appeared in this film, portraying Roberta 'Bobbie' Bradshaw, a character based on Sandy "
     "Ingram.", "roberta bradshaw", "bradshaw"),
    # a capitalised number opens a body's name
    ("Luther is a director at Six Flags Entertainment Corporation, Wingstop Restaurants, and Tempur Sealy "
     "International.", "six flags entertainment corporation", "flags entertainment corporation"),
    # a nationality before a region after "the" is the region's
    ("TMI is the oldest Episcopal college preparatory school in the American Southwest.", "american southwest",
     "southwest"),
    # a name joined by a Dutch or German particle is whole, from its given name, not a title before it
    ("Joannes van der Brugghen, known in France as Jean vander Bruggen, was a Flemish painter.",
     "jean vander bruggen", "bruggen"),
    ("Herbst had a relationship with the German Baron Gottfried von Cramm.", "gottfried von cramm",
     "german baron gottfried von cramm"),
])
def test_the_whole_name_is_kept(extractor, text, whole, fragment):
    found = names(extractor, text)
    assert [whole in found, fragment in found] == [True, False], found


@pytest.mark.parametrize(("text", "name"), [
    # guards: a possessive after a name in -s is no nickname's quote; a number that counts stays out of the name
    ("The band played at Jones' 'Rock Night' in 1990.", "jones"),
    ("The company bought Two Harbors Investment in 2010.", "two harbors investment"),
])
def test_names_of_the_same_shapes_stay(extractor, text, name):
    assert name in names(extractor, text)


# -- the thing a participle describes ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # an event's "of" names its organiser, which is not what was held
    ("Amri is a language. In 2004 Ret Kinong by Sar Rajendra Tumung is published by Reception Committee of 16th "
     "annual Conference of Karbi Lammet Amei held on 28th January 2004 at Rechohidi, Bakalia, Karbi Anglong.",
     "Amri language", ("karbi lammet amei", "held_in", "rechohidi"), None),
    # the quoted original a remake is "of" is the film that stars them
    ('Pyar Ki Kahani is a 1971 Hindi film. It is a remake of the popular Tamil film "Kai Koduttha Dheivam" starring '
     'Sivaji Ganesan and Savitri.', "Pyar Ki Kahani", ("pyar ki kahani", "stars", "savitri"),
     ("kai koduttha dheivam", "stars", "savitri")),
    # a film is shot, not killed (the guard: a man shot by another is)
    ("The No Mercy Man is a 1973 film. The film was shot in Todd-AO by Dean Cundey in his first feature film.",
     "The No Mercy Man", ("dean cundey", "killed", "no mercy man"), ("dean cundey", "related_to",
                                                                         "no mercy man")),
    ("John Wilkes Booth was an American actor. He shot Abraham Lincoln at Ford's Theatre.", "John Wilkes Booth",
     None, ("john wilkes booth", "killed", "abraham lincoln")),
])
def test_a_participle_describes_its_own_noun(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- a range the tagger split over "to" is one ------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "fact", "dates"), [
    ("The four semifinalists qualified for the 2009 FIFA U-20 World Cup, which was hosted by Egypt from 25 September "
     "to 16 October 2009.", "2009 CONCACAF U-20 Championship", ("egypt", "hosted", "fifa u-20 world cup"),
     ("2009-09-25", "2009-10-16")),
    # a guard: a range said whole keeps its ends
    ("He played football for the Oregon Webfoots from 1957 to 1959.", "Tom Keele",
     ("tom keele", "related_to", "oregon webfoots"), ("1957-01-01", "1959-01-01")),
])
def test_a_range_the_tagger_split_is_one(extractor, text, topic, fact, dates):
    found = {(s, r, o): p for s, r, o, p in extract(extractor, text, topic)[1]}
    assert fact in found, found.keys()
    assert (found[fact].get("valid_from"), found[fact].get("valid_until")) == dates, found[fact]


# -- the place after a title's comma is no short form of it ------------------------------------------------------
@pytest.mark.parametrize(("topic", "text", "place"), [
    ("Mallik Rehan Tomb, Sira", "Mallik Rehan Tomb, Sira also known as Mallik Rehan Dargah in Sira in Karnataka, "
     "India is a mausoleum built over the grave of Mallik Rehan who was governor of Sira province.", "sira"),
])
def test_the_place_after_a_titles_comma_is_no_short_form(extractor, topic, text, place):
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_topic": topic})
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get(place, place) == place, target



# -- the work a body's name only qualifies; a work "of" its maker; a team named by city and people ---------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("My Name Is Bill W. is a 1989 CBS Hallmark Hall of Fame television movie directed by Daniel Petrie, starring "
     "James Woods, JoBeth Williams and James Garner.", "My Name Is Bill W.",
     ("cbs hallmark hall of fame", "stars", "james woods"), ("my name is bill w", "stars", "james woods")),
    ("Hank Williams on Stage is the title of a posthumous live album of Hank Williams released by his record label, "
     "MGM in 1962.", "Hank Williams on Stage", ("hank williams on stage", "created", "hank williams"),
     ("hank williams", "created", "hank williams on stage")),
    ("The Kansas City Chiefs are a football team. The team was founded in 1960 as the Dallas Texans by businessman "
     "Lamar Hunt.", "Kansas City Chiefs", ("kansas city chiefs", "related_to", "texans"),
     ("kansas city chiefs", "related_to", "dallas texans")),
    # guards: a film named by its studio's compound keeps its star; peoples listed after "the" stay peoples
    ("Jurassic Park is a 1993 American science fiction film directed by Steven Spielberg, starring Sam Neill.",
     "Jurassic Park", None, ("jurassic park", "stars", "sam neill")),
])
def test_the_work_its_maker_and_a_team(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


def test_peoples_after_the_stay_peoples(extractor):
    assert names(extractor, "The Americans and the Texans fought the Mexicans.").get("texans") == "NORP"


def test_the_one_signed_to_a_label_is_the_object(extractor):
    assert_facts(extractor, "Metallica is an American band. The demo caught the attention of Johny Zazula, who signed "
                 "Metallica to Megaforce Records.", "Metallica", ("johny zazula", "published_by", "megaforce records"),
                 ("metallica", "published_by", "megaforce records"))


@pytest.mark.parametrize(("text", "name", "kept"), [
    ("He served as the head football coach at California State University, Northridge from 1979 to 1985.",
     "california state university, northridge", True),
    # guards: a place chain and a list stay apart
    ("He studied at Harvard University, Cambridge, Massachusetts.", "harvard university, cambridge", False),
    ("He studied at Harvard University, Stanford and MIT.", "harvard university, stanford", False),
])
def test_a_university_and_its_campus_are_one_name(extractor, text, name, kept):
    assert (name in names(extractor, text)) is kept


@pytest.mark.parametrize(("text", "members"), [
    ("The Club later moved to North Charles and East Eager Streets in 1892.",
     ["north charles street", "east eager street"]),
    ("Zimbabwe is a landlocked country located in southern Africa, between the Zambezi and Limpopo Rivers.",
     ["zambezi river", "limpopo river"]),
    # a guard: a family named by its surname keeps it
    ("He met John and Mary Rivers.", ["john rivers", "mary rivers"]),
])
def test_names_over_and_share_a_plural_head(extractor, text, members):
    found = names(extractor, text)
    assert all(m in found for m in members), found


@pytest.mark.parametrize(("text", "present", "absent"), [
    ("Warrior King was born in Kingston Jamaica on 27 July 1979.", ["kingston", "jamaica"], "kingston jamaica"),
    # a guard: a first word that is no place of its own keeps the name whole
    ("He lived in Mainland China for ten years.", ["mainland china"], "china"),
])
def test_a_city_run_into_its_country_is_two_places(extractor, text, present, absent):
    found = names(extractor, text)
    assert all(p in found for p in present) and absent not in found, found
