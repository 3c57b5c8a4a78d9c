"""Issue 29, round 16: the wrong facts and types of the judged draws of round 15 (seeds 29–53), each on its own
sentence. Every case failed on the commit before its rule; the guards keep right facts and types of the same
shapes."""

from __future__ import annotations

import pytest

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_type_evidence import types


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- types ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "name"), [
    ("Hit the Road (1941) is a crime comedy film featuring the Dead End Kids.", "Hit the Road", "Dead End Kids"),
    ("He was later a coach for the Miami Dolphins.", "George Wilson", "Miami Dolphins"),
    ("He is a member of folk-rock supergroup Monsters of Folk.", "M. Ward", "Monsters of Folk"),
])
def test_a_team_or_a_band_is_no_person(extractor, text, topic, name):
    found = types(extractor, text, topic)
    assert found[name] == "ORG", found  # the tagger says PERSON


def test_a_plural_after_the_tagged_otherwise_is_no_team(extractor):
    found = types(extractor, "John Smith toured the Low Countries in 1990.", "John Smith")
    assert found["Low Countries"] != "ORG", found


def test_a_record_chart_is_untyped(extractor):
    found = types(extractor, "Wes Carr reached number two on the ARIA Albums Chart and number 33 on the ARIA Singles "
                             "Chart.", "Wes Carr")
    assert found["ARIA Singles Chart"] == "ENTITY" and found["ARIA Albums Chart"] == "ENTITY", found


def test_a_given_name_the_tagger_split_off_is_the_persons(extractor):
    entities, _ = extract(extractor, "Julia Eileen Gillard is an Australian politician.", "Julia Gillard")
    assert "julia eileen gillard" in entities and "eileen gillard" not in entities, sorted(entities)


# -- facts ---------------------------------------------------------------------------------------------------
def test_respectively_pairs_by_position_or_not_at_all(extractor):
    _, facts = extract(extractor, "Angus Deayton and Richard Mylan join the cast as Head of Modern Languages George "
                                  "Windsor and Deputy Head Simon Lowsley in episodes Twenty-Seven and Twenty-Nine "
                                  "respectively.", "Bad Education")
    assert not [f for f in triples(facts) if f[0] == "angus deayton" and f[2] == "simon lowsley"], triples(facts)
    _, facts = extract(extractor, "Alice Smith and Bob Jones were born in Paris and Rome respectively.", "Smiths")
    found = triples(facts)
    assert ("alice smith", "born_in", "paris") in found and ("bob jones", "born_in", "rome") in found, found
    assert ("alice smith", "born_in", "rome") not in found, found
    _, facts = extract(extractor, "Metallica is an American band. Mustaine and McGovney were later replaced by Kirk "
                                  "Hammett and Cliff Burton, respectively.", "Metallica")
    found = triples(facts)
    assert ("kirk hammett", "succeeded", "mustaine") in found and ("cliff burton", "succeeded", "mcgovney") in found
    assert ("cliff burton", "succeeded", "mustaine") not in found, found
    _, facts = extract(extractor, "After several bassist and lead guitarist changes, Metallica settled on Cliff Burton "
                                  "and Kirk Hammett, respectively.", "Metallica")
    assert {f[2] for f in triples(facts)} >= {"cliff burton", "kirk hammett"}, triples(facts)  # one subject: kept
    _, facts = extract(extractor, "Circus Diablo is an American rock band. Fuel frontman Brett Scallions and Velvet "
                                  "Revolver drummer Matt Sorum subsequently joined the band on bass and drums, "
                                  "respectively.", "Circus Diablo")
    assert {f[0] for f in triples(facts) if f[2] == "circus diablo"} >= {"brett scallions", "matt sorum"}, facts


def test_a_role_parsed_as_a_verb_adds_its_name_to_the_list_it_ends(extractor):
    _, facts = extract(extractor, "Mercyful Fate is a Danish heavy metal band from Copenhagen, formed in 1981 by "
                                  "vocalist King Diamond and guitarist Hank Shermann.", "Mercyful Fate")
    assert ("hank shermann", "founded", "mercyful fate") in triples(facts), triples(facts)


def test_a_role_the_parser_took_for_a_verb_gives_no_fact(extractor):
    _, facts = extract(extractor, "Drug Restaurant is a Korean band. The band consists of vocalist and guitarist Jung "
                                  "Joon-young, bassist Jung Seok-won, guitarist Jo Dae-min, and drummer Lee Hyun-gyu.",
                       "Drug Restaurant")
    assert not [f for f in facts if f[3]["raw"] == "guitarist"], triples(facts)


def test_an_editor_works_for_the_paper_and_a_native_comes_from_the_place(extractor):
    _, facts = extract(extractor, "Tom Lawson was the editor of the Sunday Times from 1990 to 1995.", "Tom Lawson")
    assert ("tom lawson", "worked_for", "sunday times") in triples(facts), triples(facts)
    _, facts = extract(extractor, "Sarah Gale is the editor-in-chief of the Sunday Times.", "Sarah Gale")
    assert ("sarah gale", "leads", "sunday times") in triples(facts), triples(facts)  # (a guard)
    _, facts = extract(extractor, "Todd Hoffner is a native of Esmond, North Dakota.", "Todd Hoffner")
    assert ("todd hoffner", "comes_from", "esmond") in triples(facts), triples(facts)


def test_a_team_plays_in_a_league_and_stars_in_nothing(extractor):
    _, facts = extract(extractor, "The Oettinger Rockets are a German basketball team that plays in the Basketball "
                                  "Bundesliga.", "Oettinger Rockets")
    assert not [f for f in triples(facts) if f[1] == "starred_in"], triples(facts)
    _, facts = extract(extractor, "Kate Winslet is an English actress. She starred in Titanic.", "Kate Winslet")
    assert ("kate winslet", "starred_in", "titanic") in triples(facts), triples(facts)  # (a guard)


def test_a_professor_of_a_field_works_where_at_says(extractor):
    entities, facts = extract(extractor, "Stanley Hart White was a professor of Landscape Architecture at the "
                                         "University of Illinois from 1922 until 1959.", "Stanley Hart White")
    assert ("stanley hart white", "worked_for", "university of illinois") in triples(facts), triples(facts)
    assert "landscape architecture" not in {f[2] for f in triples(facts)}, triples(facts)


@pytest.mark.parametrize(("text", "topic", "name"), [
    ("Paul Keating served as Minister for Northern Australia in the Whitlam government.", "Paul Keating", "whitlam"),
    ("Ben Stokes is an English international cricketer who is the current vice captain of the English Test team.",
     "Ben Stokes", "english test"),
])
def test_a_name_before_government_or_team_is_not_the_body(extractor, text, topic, name):
    _, facts = extract(extractor, text, topic)
    assert name not in {f[2] for f in triples(facts)}, triples(facts)


def test_a_quoted_title_stars_in_no_list_and_plays_no_part(extractor):
    _, facts = extract(extractor, 'It was supported by the release of two singles – "Mic Jack" featuring Adam Levine, '
                                  'Scar and Sleepy Brown and "Kill Jill" featuring Killer Mike and Jeezy.',
                       "Trap or Die 2")
    assert ("mic jack", "stars", "kill jill") not in triples(facts), triples(facts)
    assert ("kill jill", "stars", "jeezy") in triples(facts), triples(facts)  # (a guard)
    _, facts = extract(extractor, 'It was remade into Hindi as "Mr. and Mrs. Khiladi" (1997) starring Akshay Kumar '
                                  'and in Kannada as "Bal Nan Maga" starring Ravichandran.', "Yajamanudu")
    assert not [f for f in triples(facts) if f[1] == "portrayed"], triples(facts)


def test_who_is_given_a_prize_won_it(extractor):
    _, facts = extract(extractor, "Sergio Agüero is an Argentine footballer. Agüero was given the Golden Ball.",
                       "Sergio Agüero")
    found = triples(facts)
    assert ("sergio agüero", "won", "golden ball") in found and not [f for f in found if f[1] == "paid"], found


def test_a_season_is_started_not_hosted_and_a_championship_serves_in_nothing(extractor):
    _, facts = extract(extractor, "The Magic started the 2003–04 Orlando Magic season with a win.",
                       "2003–04 Orlando Magic season")
    assert not [f for f in triples(facts) if f[1] in ("hosted", "founded")], triples(facts)
    _, facts = extract(extractor, "The 2009 CONCACAF U-20 Championship serves as qualifier for the FIFA U-20 World Cup.",
                       "2009 CONCACAF U-20 Championship")
    assert not [f for f in triples(facts) if f[1] == "served_in"], triples(facts)


def test_an_olympian_has_no_olympic_nationality_and_an_office_is_served_in(extractor):
    _, facts = extract(extractor, "Buster Crabbe was an American two-time Olympic swimmer and actor.", "Buster Crabbe")
    assert not [f for f in triples(facts) if f[2] == "olympic"], triples(facts)
    _, facts = extract(extractor, "Charles Andrews was a United States Representative from Maine.", "Charles Andrews")
    assert ("charles andrews", "served_in", "united states") in triples(facts), triples(facts)
    _, facts = extract(extractor, "Lennie Niehaus is an American saxophonist from Saint Louis. He was a Chicago "
                                  "musician.", "Lennie Niehaus")
    assert ("lennie niehaus", "comes_from", "chicago") in triples(facts), triples(facts)  # (a guard)


def test_quotation_marks_are_no_part_of_a_name():
    from services.graph.entities import display_name, entity_key
    assert display_name("'Preparatory School") == "Preparatory School" and entity_key("'Pre-Prep'") == "pre-prep"
    assert display_name("O'Neill") == "O'Neill" and display_name("Rock 'n' Roll") == "Rock 'n' Roll"  # (guards)


def test_a_publishing_house_and_a_mausoleum_are_typed_by_their_heads():
    from services.graph.classes import head_label
    assert head_label("Polonia Publishing House".split()) == "ORG"
    assert head_label("Cihu Mausoleum".split()) == "FAC" and head_label("Greenwood Cemetery".split()) == "FAC"
    assert head_label("Random House".split()) is None  # (a guard: a house alone is anything)


def test_starring_x_as_y_and_z_as_w_pairs_each_actor_with_a_part(extractor):
    _, facts = extract(extractor, "I Saw the Light is a 2015 biographical film starring Tom Hiddleston as Hank "
                                  "Williams and Elizabeth Olsen as Audrey Williams.", "I Saw the Light")
    found = triples(facts)
    assert ("tom hiddleston", "portrayed", "hank williams") in found, found
    assert ("elizabeth olsen", "portrayed", "audrey williams") in found, found
    assert ("tom hiddleston", "portrayed", "elizabeth olsen") not in found, found
    assert ("i saw the light", "stars", "elizabeth olsen") in found, found


def test_a_song_released_on_an_album_is_part_of_it_and_a_release_in_a_place_is_released_in(extractor):
    _, facts = extract(extractor, '"Death of Samantha" is a song written by Yoko Ono and first released on her 1973 '
                                  'album "Approximately Infinite Universe".', "Death of Samantha")
    assert ("death of samantha", "part_of", "approximately infinite universe") in triples(facts), triples(facts)
    _, facts = extract(extractor, 'The game was later released as "Act of War: Gold Edition", on 28 September 2007 in '
                                  'Europe.', "Act of War: Direct Action")
    assert not [f for f in triples(facts) if f[1] == "published_by" and f[2] == "europe"], triples(facts)


def test_entering_merging_and_establishing_say_no_more_than_they_do(extractor):
    _, facts = extract(extractor, "Theodore Roosevelt entered Harvard in 1876.", "Theodore Roosevelt")
    assert not [f for f in triples(facts) if f[1] == "served_in"], triples(facts)
    _, facts = extract(extractor, "After three seasons the NBDL merged with the National Basketball League.", "NBDL")
    assert not [f for f in triples(facts) if f[1] in ("part_of", "acquired")], triples(facts)
    _, facts = extract(extractor, "In 1996 the American Contract Bridge League (ACBL) established an official World "
                                  "Computer-Bridge Championship.", "American Contract Bridge League")
    assert not [f for f in triples(facts) if f[1] == "hosted"], triples(facts)


def test_dates_of_list_members_and_as_of_date_no_fact(extractor):
    _, facts = extract(extractor, 'E. B. White was an American writer. He also wrote books for children, including '
                                  '"Stuart Little" in 1945, "Charlotte\'s Web" in 1952, and "The Trumpet of the Swan" '
                                  'in 1970.', "E. B. White")
    dated = {(s, t): p["valid_from"] for s, r, t, p in facts if r == "wrote"}
    assert dated.get(("e b white", "stuart little")) in (None, "1945-01-01"), dated
    _, facts = extract(extractor, "As of 2013, the Houston Texans have sent 20 different players to the Pro Bowl.",
                       "Houston Texans")
    assert [p["valid_from"] for *_, p in facts] and not [p for *_, p in facts if p["valid_from"]], facts


@pytest.mark.parametrize(("text", "topic", "name", "label"), [
    ("David Bryson is an American guitarist. Prior to forming Counting Crows with Adam Duritz, he produced recordings "
     "by Duritz and his band, The Himalayans, from San Francisco, California.", "David Bryson", "Himalayans", "ORG"),
    # (the tagger: NORP)
    ("Nick Hexum is an American singer, currently the vocalist and guitarist for the band 311 and The Nick Hexum "
     "Quintet.", "Nick Hexum", "Nick Hexum Quintet", "ORG"),  # a list's person
    ("Two Dollar Radio is an independent mom-and-pop publishing house based in Columbus, Ohio.", "Two Dollar Radio",
     "Two Dollar Radio", "ORG"),  # a house: a building
    ("The American Russell Terrier Club, founded by JoAnn Stoll in 1995, was the first registry in the United States "
     "to maintain the Russell Terrier as a separate breed from the Parson Russell Terrier. On January 1, 2001, the "
     "United Kennel Club recognized the Russell Terrier as an official breed.", "American Russell Terrier Club",
     "Russell Terrier", "ENTITY"),  # the tagger: a person
])
def test_a_band_a_publisher_and_a_breed_by_their_words(extractor, text, topic, name, label):
    found = types(extractor, text, topic)
    assert found[name] == label, found


def test_a_works_name_with_a_bodys_head_stays_a_work(extractor):
    found = types(extractor, 'Neve Campbell is a Canadian actress. She starred in the series "Party of Five".',
                  "Neve Campbell")
    assert found["Party of Five"] == "WORK_OF_ART", found


def test_a_later_clauses_they_is_the_team_the_sentence_named(extractor):
    _, facts = extract(extractor, "The 1946 NFL season was the 27th regular season of the National Football League. "
                                  "Elmer Layden resigned as commissioner. Meanwhile, the Rams became the first NFL "
                                  "team based on the West Coast after they relocated from Cleveland, Ohio, to Los "
                                  "Angeles, California.", "1946 NFL season")
    found = triples(facts)
    assert ("rams", "moved_to", "los angeles") in found and not [f for f in found if f[0] == "elmer layden"], found
    assert ("rams", "based_in", "west coast") in found, found  # "based on" a place, no novel


def test_a_surname_in_a_topic_about_a_person_is_that_person(extractor):
    text = ("The Presidency of Shimon Peres began after the Israeli presidential election, 2007 on 13 June 2007 in "
            "which Peres defeated Reuven Rivlin and Colette Avital.")
    found = types(extractor, text, "Presidency of Shimon Peres")
    assert "Shimon Peres" in found and "Presidency of Shimon Peres" not in found, found


# (subject, label, object) that must not be found; None matches anything
@pytest.mark.parametrize(("text", "topic", "wrong"), [
    ("Pyar Ki Kahani is a 1971 Bollywood romantic drama film directed by Ravikant Nagaich.", "Pyar Ki Kahani",
     ("bollywood", "created", "pyar ki kahani")),  # an industry makes no film
    ("Manasse Herbst was a singer. Later he became a US citizen.", "Manasse Herbst",
     ("manasse herbst", "comes_from", "united states")),  # a citizen's country is a nationality
    ("In 2012, NewBay Media bought the Music division of Future US.", "NewBay Media",
     ("newbay media", "acquired", "future us")),  # a division, not the company
    ("The Dark Knight Rises is a 2012 film. The film introduces Selina Kyle (Anne Hathaway).", "The Dark Knight Rises",
     ("dark knight rises", "employs", "selina kyle")),  # introducing hires no one
    ("Ahmedabad is a city. The city again progressed when the British East India Company established the rule in the "
     "city (1818-1857).", "Ahmedabad", ("british east india company", "founded_in", "ahmedabad")),
    ("Yoko Ono is a Japanese artist and singer. She performs in both English and Japanese.", "Yoko Ono",
     (None, "released_in", None)),  # a person is not released
    ("Yasue Sato is a Japanese actress. She made her acting debut in the movie Bounce Ko Gals (1997).", "Yasue Sato",
     (None, "released_in", None)),  # (a debut in a film is a role in it)
    ("Julia Gillard is an Australian politician. She was previously the 13th Deputy Prime Minister of Australia.",
     "Julia Gillard", (None, "prime_minister_of", None)),  # a deputy holds no office of the label's (a guard)
    ("Julia Gillard is an Australian politician. She was previously the 13th Deputy Prime Minister of Australia.",
     "Julia Gillard", (None, "secretary_of", None)),
    ("Nikhila Vimal is an Indian actress. She made her acting debut with a documentary on Saint Alphonsa which aired "
     "on Shalom TV.", "Nikhila Vimal", (None, None, "shalom tv")),  # the documentary aired
    ("Joseph Stella was an Italian-born American Futurist painter.", "Joseph Stella", (None, None, "american futurist")),
    ("Vancouver International Airport is the only North American airport in the top 10 and is a hub for Air Canada.",
     "Vancouver International Airport", (None, "nationality", None)),  # a continent is no nation
    ("Penny Publications is a magazine publisher, formed in 1996 as the joinder of Dell Magazines, founded 1921 by "
     "George T. Delacorte, Jr., which had been acquired by Crosstown Publications.", "Penny Publications",
     (None, "acquired", "george t delacorte jr")),  # "which" after a person's name is no person
    ("Formula 1 97 is the second game in the series, released in 1997 on the PlayStation and Microsoft Windows.",
     "Formula 1 97", (None, "published_by", None)),  # a platform, no publisher
    ("The Taste is a cooking show. The judges are English chef and TV personality Nigella Lawson, American chef and "
     "food writer Anthony Bourdain and French chef Ludo Lefebvre.", "The Taste",
     ("nigella lawson", "nationality", "american")),  # the next name's title
])
def test_a_fact_the_words_around_it_refute(extractor, text, topic, wrong):
    _, facts = extract(extractor, text, topic)
    found = [f for f in triples(facts) if all(w is None or w == v for w, v in zip(wrong, f, strict=True))]
    assert not found, triples(facts)


def test_a_capitalised_job_title_is_no_name(extractor):
    entities, _ = extract(extractor, "Homer Simpson is a character. In this episode, Homer is promoted to his current "
                                     "position as Nuclear Safety Inspector for the entire power plant.", "Homer Simpson")
    assert "nuclear safety inspector" not in entities, sorted(entities)
