"""Issue 29, round 23: wrong facts still extracted from the hotpotqa-100 passages, where a passive lent its agent
to a clause of its own, a possessive or a hyphen cut a name, or a list ran into a body's name. Every fix case failed
on the commit before its rule; the guards keep right names and facts of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
from llama_index.core.schema import TextNode

from services.graph.document_facts import _found
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.resolution import resolve_document
from tests.services.graph.test_fact_quality import extract, triples
from tests.services.graph.test_name_extents import assert_facts
from tests.services.graph.test_name_precision import names


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- facts: wrong ones gone (each fix case failed on the commit before its rule), guards kept -----------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # a passive lends its agent to a bare verb before it, not to a clause of its own
    ("...The Dandy Warhols Come Down is the second album by The Dandy Warhols. It was recorded in 1996 and released "
     "on July 15, 1997 by record label Capitol.", "...The Dandy Warhols Come Down",
     ("capitol", "performed", "dandy warhols come down"),
     ("capitol", "released", "dandy warhols come down")),
    # guards: bare verbs share the agent, and so does a verb whose complement the parser hung on the first
    ("Fatal Instinct is a 2014 American action film, written, directed and produced by Luciano Saber.",
     "Fatal Instinct", None, ("luciano saber", "wrote", "fatal instinct")),
    ("Fatal Instinct is a 2014 American action film, written, directed and produced by Luciano Saber.",
     "Fatal Instinct", None, ("luciano saber", "produced", "fatal instinct")),
    ("The Green Slime is a 1968 film. It was written and directed by Kinji Fukasaku in Tokyo.", "The Green Slime",
     None, ("kinji fukasaku", "wrote", "green slime")),
    # two peoples over a hyphen are one nationality
    ("The DeCavalcante crime family is an Italian-American organized crime family that operates in Elizabeth, New "
     "Jersey.", "DeCavalcante crime family", ("decavalcante crime family", "nationality", "italian"),
     ("decavalcante crime family", "nationality", "italian-american")),
    ("Dean McDermott is a Canadian-American actor and television personality.", "Dean McDermott",
     ("dean mcdermott", "nationality", "canadian"), ("dean mcdermott", "nationality", "canadian-american")),
    # guard: one people stays one
    ("Arthur Ira Garfunkel is an American singer, poet, and actor.", "Arthur Ira Garfunkel", None,
     ("arthur ira garfunkel", "nationality", "american")),
    # labels the ends refute, and an "and" the parser made an apposition
    ("Scott Howell (born 10 May 1958) is a former Australian rules footballer who played with Carlton in the VFL "
     "during the early 1980s.", "Scott Howell", ("scott howell", "starred_in", "vfl"),
     ("scott howell", "related_to", "vfl")),
    ("Barrier Device is a 2002 short film. It stars Sandra Oh as a sex researcher and Suzy Nakamura as a subject.",
     "Barrier Device", ("barrier device", "portrayed", "suzy nakamura"), ("barrier device", "stars", "suzy nakamura")),
    ("Audrey Mae Sheppard Williams was an American musician known for being the first wife of country music icon Hank "
     "Williams, Sr. and the mother of Hank Williams, Jr.", "Audrey Mae Sheppard Williams",
     ("hank williams sr", "parent_of", "hank williams jr"), None),
    # guards: an actor still plays a part, and a plain appositive still describes its name
    ("I Saw the Light is a 2015 American biographical drama film directed, written, and produced by Marc Abraham, "
     "starring Tom Hiddleston as country music legend Hank Williams.", "I Saw the Light", None,
     ("tom hiddleston", "portrayed", "hank williams")),
    ("Joel White, the son of E. B. White, was a boat builder.", "Joel White", None,
     ("joel white", "child_of", "e b white")),
    # a name that only qualifies a common noun is not that noun
    ("The Brooklyn Dodgers were a professional American football team. Another NFL team that played in the Brooklyn "
     "borough was the Brooklyn Lions in 1926.", "Brooklyn Dodgers", ("nfl", "related_to", "brooklyn"), None),
    ("Franklin Street Presbyterian Church and Parsonage is a historic Presbyterian church. The Franklin Street building "
     "was used by the merged congregation for a time and then sold to a fundamentalist independent Protestant "
     "congregation and later re-sold to the present \"New Unity Church Ministries\".",
     "Franklin Street Presbyterian Church and Parsonage",
     ("franklin street", "granted_to", "new unity church ministries"), None),
    # guard: a definite class noun after a name is the name ("the Tate gallery" is the Tate)
    ("John Smith is a British painter. He sold his paintings to the Tate gallery in 1990.", "John Smith", None,
     ("john smith", "granted_to", "tate")),
    # guards: a work named after a street is the work ("the Sesame Street episode", "the Coronation Street series")
    ("Elmo is a Muppet character. He appeared in the Sesame Street episode with Ray Charles.", "Elmo", None,
     ("elmo", "starred_in", "sesame street")),
    ("Jim Henson created the Coronation Street series in 1969.", "Jim Henson", None,
     ("jim henson", "created", "coronation street")),
    # a past succession between a work and a body, a list past a semicolon, a "that" clause's own passive
    ("Vietnamese Prodigy is a Vietnamese comic series. The series previously published by Tre Publishing House, "
     "followed Van Hoa Sai Gon Publishing House, and now the Dan Tri Publishing House.", "Vietnamese Prodigy",
     ("vietnamese prodigy", "related_to", "van hoa sai gon publishing house"), None),
    ('His recent producing credits include "Cold Souls" starring Paul Giamatti; Ryan Fleck and Anna Boden\'s '
     'Dominican baseball film "Sugar".', "Jeremy Kipp Walker", ("cold souls", "stars", "ryan fleck"),
     ("cold souls", "stars", "paul giamatti")),
    ("What Would You Do is the debut single from Tha Dogg Pound. While the notes originally credited solely Daz as "
     "producer, Snoop Dogg later revealed that—among other Daz Dillinger tracks—the song was co-produced by Dre.",
     "What Would You Do", ("dre", "produced", "snoop dogg"), None),
    # guards: a story still follows its hero, and a list over commas still shares its verb
    ("The Demon Child Trilogy is a fantasy series. The series follows R'shiel Tenragan as she accepts her fate.",
     "Demon Child Trilogy", None, ("demon child trilogy", "related_to", "r'shiel tenragan")),
    ("Fatal Instinct is a 2014 American action film starring Ivan Sergei, Masiela Lusha and Richard Burgi.",
     "Fatal Instinct", None, ("fatal instinct", "stars", "richard burgi")),
])
def test_wrong_facts_are_gone_and_right_ones_stay(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- names: whole, not cut or merged ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "fragment"), [
    # a possessive for whom a body is
    ("She has played in the Women's National Basketball Association, Turkish Women's Basketball League, Ligue "
     "Féminine de Basketball, the Women's Korean Basketball League, and the Women's Chinese Basketball Association.",
     "turkish women's basketball league", "turkish women"),
    ("She has played in the Women's National Basketball Association, Turkish Women's Basketball League, Ligue "
     "Féminine de Basketball, the Women's Korean Basketball League, and the Women's Chinese Basketball Association.",
     "women's korean basketball league", "women"),
    # guard: a person's possessive stays the owner's
    ("The song is about Nick Hexum's fiancee.", "nick hexum", "nick hexum's"),
    # a list after "for" is no part of the name before it
    ("Colin McRae Rally is a racing video game developed and published by Codemasters for PlayStation, Microsoft "
     "Windows and Game Boy Color.", "codemasters", "codemasters for playstation"),
    # guard: a body named with "for"
    ("The book was published by the Center for Middle Eastern Studies.", "center for middle eastern studies", None),
    # a country named over "and", an age class
    ("He was also the captain of the Trinidad and Tobago National U-17 and U-20 teams.",
     "trinidad and tobago national u-17", "tobago national u-17"),
    ("Rimyongsu supplied four players to the 2005 FIFA U-17 World Championship and five players to the 2007 FIFA "
     "U-20 World Cup.", "fifa u-17 world championship", "world championship"),
    # guard: a country named over "and" alone
    ("He was born in Trinidad and Tobago.", "trinidad and tobago", "tobago"),
    # a peerage's place, a body named over "and" after its own "The"
    ("He also held the subsidiary titles of 12th Baron Strange of Blackmere and 8th Baron Furnival.",
     "baron strange of blackmere", "baron strange"),
    ("In 1979 Jean was a founding member of the expatriate (New Zealand) group 'The Heartache and Sorrow Company'.",
     "the heartache and sorrow company", "sorrow company"),
    # guard: two bodies over "and" with no article stay two
    ("He worked for Microsoft and Apple Inc.", "microsoft", "microsoft and apple inc."),
    # a university's campus before a comma and a common word; a capitalised plural counted in digits is no name
    ("Todd Hoffner is an American football coach. He is the current head football coach at the Minnesota State "
     "University, Mankato, a position he held from 2008 to 2011.", "minnesota state university, mankato",
     "minnesota state university"),
    ("Sorin Hall is the oldest of the 30 Residence Halls on the campus of the University of Notre Dame.",
     "sorin hall", "residence halls"),
    # guards: a place chain after a university stays places; a name's word after a count, a year before a name
    ("He taught at Harvard University, Cambridge, Massachusetts.", "harvard university",
     "harvard university, cambridge"),
    ("He won 3 Grammy Awards.", "grammy awards", None),
    ("Additionally he won the 2007 Ski Jumping World Championships.", "ski jumping world championships", None),
])
def test_names_are_whole_not_cut_or_merged(extractor, text, whole, fragment):
    found = names(extractor, text)
    assert whole in found and fragment not in found, found


def test_a_channels_possessive_airs_a_show_and_owns_nothing(extractor):
    text = "Grant Henry Hill is a retired American basketball player and a sports show host on NBA TV's NBA Inside Stuff."
    assert_facts(extractor, text, "Grant Hill", ("nba inside stuff", "owned_by", "nba tv"),
                 ("nba inside stuff", "related_to", "nba tv"))
    # guard: a company's possessive still owns
    assert_facts(extractor, "Saudi Aramco's College Preparatory Center trains new employees.", None, None,
                 ("college preparatory center", "owned_by", "saudi aramco"))


# -- "it" is no person the text has called "he" -----------------------------------------------------------------
def test_it_is_not_a_topic_the_text_calls_he(extractor):
    text = ('Wesley Dean "Wes" Carr (born 14 September 1982), also recording as Buffalo Tales, is an Australian '
            'singer-songwriter and multi-instrumentalist, best known for winning the sixth season of "Australian '
            'Idol" in 2008.  He released his first studio album, "Simple Sum", independently in 2008 shortly before '
            'entering "Australian Idol".  In June 2011, Carr released "Been a Long Time", the lead single from his '
            'third album.  It peaked at number 33 on the ARIA Singles Chart.')
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_title": "Wes Carr"})  # as ingestion gives it
    extractor([node])
    keys = {e.id: e.properties["key"] for e in node.metadata[KG_NODES_KEY]}
    found = {(keys[r.source_id], r.label, keys[r.target_id]) for r in node.metadata[KG_RELATIONS_KEY]}
    assert ("wesley dean carr", "released", "been a long time") in found, found
    assert not any(t == "aria singles chart" for _, _, t in found), found
    # guard: a body the tagger called a person, that its text calls "it", is still the topic of "it"
    assert_facts(extractor, "Mirage was a heavy metal band from Manchester. It released Blind Fury in 1981.",
                 "Mirage", None, ("mirage", "released", "blind fury"))


# -- dates an event's "after" or "before" leaves open, and a range over "between … and" ------------------------
@pytest.mark.parametrize(("text", "topic", "fact", "dates"), [
    ('Adam Tandy is an English television producer. After the 2012 series of "The Thick of It", he has produced '
     '"Catastrophe" for Channel 4.', "Adam Tandy", ("adam tandy", "produced", "catastrophe"), (None, None)),
    ("The Hamilton Skyhawks was a basketball franchise. The Skyhawks did not complete that season either, moving to "
     "Edmonton, Alberta before the 1993 NBL playoffs.", "Hamilton Skyhawks",
     ("hamilton skyhawks", "moved_to", "edmonton"), (None, None)),
    ("Insurgentes is the debut solo album by Steven Wilson. The album was recorded all over the world in studios "
     "from Mexico City to Japan and Israel, between January and August 2008.", "Insurgentes",
     ("insurgentes", "related_to", "mexico city"), ("2008-01-01", "2008-08-01")),
    # guard: an event's year after "from" still opens the fact
    ("Warren Errol Truss is an Australian politician. He was the member of the House of Representatives for Wide "
     "Bay from the 1990 election until his retirement in May 2016.", "Warren Errol Truss",
     ("warren errol truss", "represented", "wide bay"), ("1990-01-01", "2016-05-01")),
])
def test_an_events_after_gives_no_date_and_between_and_is_a_range(extractor, text, topic, fact, dates):
    found = {(s, r, o): p for s, r, o, p in extract(extractor, text, topic)[1]}
    assert fact in found, found.keys()
    assert (found[fact].get("valid_from"), found[fact].get("valid_until")) == dates, found[fact]


# -- a ruler after a place's "of", a title after a comma; a surname of a full name the tagger called a body --
def test_a_rulers_title_after_a_comma_is_the_rulers(extractor):
    text = ("The Governor of South Australia is the representative in the Australian state of South Australia of "
            "Elizabeth II, Queen of Australia.")
    assert "south australia of elizabeth ii" not in names(extractor, text)
    assert_facts(extractor, text, "Governor of South Australia", ("south australia", "king_of", "australia"),
                 ("elizabeth ii", "king_of", "australia"))
    # guard: a place's own "of" stays in its name, and a title after a person's name is still that person's
    assert "united states house of representatives" in names(extractor, "He served in the United States House of "
                                                                        "Representatives.")
    assert_facts(extractor, "Bill Clinton of Arkansas, the 42nd President of the United States, spoke.", None, None,
                 ("bill clinton", "president_of", "united states"))


def test_a_surname_resolves_to_a_full_name_the_tagger_called_a_body(extractor):
    text = ("In 1953, a Baltimore-based group led by Carroll Rosenbloom won the rights to a new Baltimore franchise.  "
            "Rosenbloom later traded the franchise to Robert Irsay.")
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_topic": "Indianapolis Colts"})
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get("rosenbloom") == "carroll rosenbloom", target
    # guard: the full name keeps the tagger's type, so a firm named with a given name is made no person
    node = TextNode(text="Morgan Stanley advised the bank on the deal. Stanley earned a large fee from Goldman Sachs.",
                    start_char_idx=0)
    extractor([node])
    entities, target = resolve_document(_found([node]))
    assert entities[target.get("stanley", "stanley")].type != "PERSON", entities


def test_a_deputys_rank_stays_in_the_raw_phrase(extractor):
    text = ("Roopa Ganguly is an Indian actress. She served as the General Secretary and the Vice President for the "
            "West Bengal Motion Picture Artistes' Forum, a body representing cine artistes.")
    raws = {p["raw"] for s, r, o, p in extract(extractor, text, "Roopa Ganguly")[1]
            if o == "west bengal motion picture artistes' forum"}
    assert raws == {"served as Vice President for"}, raws


# -- a director of a kind --------------------------------------------------------------------------------------
def test_a_music_director_directed_nothing(extractor):
    text = 'KP Naveen is an Indian composer. He is the MUSIC DIRECTOR of a Hindi movie- "Do Nawabs Hyderabad Kay".'
    assert_facts(extractor, text, "KP Naveen", ("kp naveen", "directed", "do nawabs hyderabad kay"),
                 ("kp naveen", "related_to", "do nawabs hyderabad kay"))
    # guard: a film's director directed it
    assert_facts(extractor, 'Mudassar Aziz is an Indian film director. He is the director of "Happy Bhag Jayegi".',
                 "Mudassar Aziz", None, ("mudassar aziz", "directed", "happy bhag jayegi"))


# -- a title that names a work's form, a season's years, a single "from" a band --------------------------------
def test_a_work_in_a_key_is_the_topic_its_title_names_by_form(extractor):
    text = ("The Flute Sonata in D, Op. 94, was completed in the summer of 1943 by Sergei Prokofiev.  The flute "
            "sonata in D was first performed in Moscow, Russia on December 7, 1943 by Nicolai Kharkovsky.")
    entities, facts = extract(extractor, text, "Flute Sonata")
    assert ("nicolai kharkovsky", "performed", "flute sonata in d") in triples(facts), triples(facts)
    assert "flute sonata" not in entities and "Flute Sonata" in entities["flute sonata in d"].properties["aliases"]
    # guard: a title that is the whole name stays the topic
    _, facts = extract(extractor, "The Moonlight Sonata was completed in 1801 by Ludwig van Beethoven.",
                       "Moonlight Sonata")
    assert ("ludwig van beethoven", "related_to", "moonlight sonata") in triples(facts), triples(facts)


def test_a_seasons_years_are_no_span_of_the_fact(extractor):
    text = "The Savannah Spirits were a basketball team. The team originally began play in the 1982-1983 season as " \
           "the Detroit Spirits."
    found = {(s, r, o): p for s, r, o, p in extract(extractor, text, "Savannah Spirits")[1]}
    fact = ("savannah spirits", "known_as", "detroit spirits")
    assert fact in found and (found[fact].get("valid_from"), found[fact].get("valid_until")) == ("1982-01-01", None)
    # guard: a range of years is still a range
    found = {(s, r, o): p for s, r, o, p in extract(extractor, "He played for the Oregon Webfoots from 1957 to "
                                                               "1959.", "Tom Keele")[1]}
    assert found[("tom keele", "related_to", "oregon webfoots")].get("valid_until") == "1959-01-01"


def test_a_single_from_a_band_is_the_bands(extractor):
    text = '"What Would You Do" is the debut single from Death Row Records duo Tha Dogg Pound, released in 1995.'
    assert_facts(extractor, text, "What Would You Do", ("what would you do", "part_of", "tha dogg pound"),
                 ("tha dogg pound", "created", "what would you do"))


# -- a praised description is someone new; a numbered holder of a title is no title ---------------------------
def test_a_praised_description_is_not_the_topic(extractor):
    text = ("Rolandos Liatsos is a Greek actor. Soon after he starred in Tennessee Williams’ play “The Rose Tattoo” "
            "directed by the acclaimed actor and director .")
    assert_facts(extractor, text, "Rolandos Liatsos", ("rolandos liatsos", "directed", "rose tattoo"), None)
    # guard: a plain description of the topic's class is still the topic
    assert_facts(extractor, "Kinji Fukasaku was a Japanese film director. The director made The Green Slime in 1968.",
                 "Kinji Fukasaku", None, ("kinji fukasaku", "related_to", "green slime"))


def test_a_numbered_holder_of_the_topics_title_is_a_person(extractor):
    text = ("Baron Stanley of Alderley is a title in the Peerage of the United Kingdom. His eldest son, the 6th Baron "
            "Stanley of Alderley, sold the family seat of Alderley Hall in 1938. In 1909, the 4th Baron Stanley of "
            "Alderley acquired a further title when he succeeded his first cousin once removed, the Earl of Sheffield, "
            "according to a special remainder and thus inherited the title of 4th Baron Sheffield.")
    found = triples(extract(extractor, text, "Baron Stanley of Alderley")[1])
    assert ("6th baron stanley of alderley", "related_to", "alderley hall") in found, found
    assert not any(s == "baron stanley of alderley" and o == "alderley hall" for s, _, o in found), found
    assert not any(r == "leads" for _, r, _ in found), found
    # guard: an earl of a place he held
    assert_facts(extractor, "Tostig Godwinson was an Anglo-Saxon Earl of Northumbria.", "Tostig Godwinson", None,
                 ("tostig godwinson", "leads", "northumbria"))


def test_a_date_set_before_a_later_place_is_that_places(extractor):
    text = ("Tracy Does Conan is an episode of the sitcom. It first aired on December 7, 2006 in the United States and "
            "November 29, 2007 in the United Kingdom.")
    found = {(s, r, o): p for s, r, o, p in extract(extractor, text, "Tracy Does Conan")[1]}
    assert found[("tracy does conan", "released_in", "united kingdom")].get("valid_from") == "2007-11-29", found
    # guard: the first place keeps its own date
    assert found[("tracy does conan", "released_in", "united states")].get("valid_from") == "2006-12-07", found
