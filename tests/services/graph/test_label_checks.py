"""Round 14 of issue 29: the wrong facts of the judged hotpotqa-100 samples (round 13b, seed 29, and a 150-fact draw,
seed 1411), each a sentence of the sample. Every case failed on the commit before its rule (b21194b): the wrong
fact was stored. The guards keep right facts of the same shapes."""

from __future__ import annotations

import re

import pytest
from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
from llama_index.core.schema import TextNode

from services.graph.document_facts import _found
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.gazetteer import is_demonym
from services.graph.mentions import title_names
from services.graph.resolution import resolve_document
from tests.services.graph.test_fact_quality import extract, triples


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


def labels(extractor: SpacyTemporalExtractor, text: str, topic: str) -> dict[tuple[str, str], set[str]]:
    """(subject key, object key) -> the labels of the facts between them."""
    out: dict[tuple[str, str], set[str]] = {}
    for s, r, t in triples(extract(extractor, text, topic)[1]):
        out.setdefault((s, t), set()).add(r)
    return out


# -- the ends refute the label ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "pair", "wrong"), [
    ("The Adelaide Lightning are an Australian professional women's basketball team. The club was formed in 1993 and "
     "they play in the 8,000-seat Titanium Security Arena.", "Adelaide Lightning",
     ("adelaide lightning", "titanium security arena"), "starred_in"),
    ("The Dallas Texans played in the National Football League (NFL) for one season, 1952, with a record of 1–11.",
     "Dallas Texans", ("dallas texans", "national football league"), "starred_in"),
    ("He also the key player of Myanmar U-20 National Football Team played in 2015 FIFA U-20 World Cup.",
     "Yan Naing Oo", ("yan naing oo", "world cup"), "starred_in"),
    ("Hart made her on air debut back in 2008 on several morning talk shows and covered the White House "
     "Correspondents Association Dinner in 2008 and 2009.", "Dayna Hart",
     ("dayna hart", "white house correspondents association dinner"), "performed"),
    ('Donald "Don" Fisher is a fictional character in the Australian television soap opera "Home and Away" played '
     "by actor Norman Coburn as a regular character, from the soap's inception in 1988 to 2003.", "Donald Fisher",
     ("donald fisher", "home and away"), "based_in"),
    ('Ed Blum is the director and producer of "Scenes of a Sexual Nature" (2006), a low budget British movie starring '
     "Ewan McGregor and Sophie Okonedo, filmed entirely on Hampstead Heath.", "Ed Blum",
     ("ed blum", "scenes of a sexual nature"), "leads"),
    ("Most destinations served from the airport are in Africa but TAP Portugal operates a service to Lisbon, "
     "Portugal, Turkish Airlines operates flights to Istanbul, and Qatar Airways operates flights to Doha.",
     "Osvaldo Vieira International Airport", ("tap portugal", "lisbon"), "owns"),
])
def test_a_label_the_ends_refute_is_not_stored(extractor, text, topic, pair, wrong):
    found = labels(extractor, text, topic)
    assert wrong not in found.get(pair, set()), found


def test_the_director_of_a_film_directed_it(extractor):
    found = labels(extractor, 'Ed Blum is the director and producer of "Scenes of a Sexual Nature" (2006), a low budget '
                              "British movie.", "Ed Blum")
    assert "directed" in found[("ed blum", "scenes of a sexual nature")], found


@pytest.mark.parametrize(("text", "topic", "fact"), [
    # guards: the same triggers where the ends fit them
    ("Kate Winslet starred in Titanic, released in 1997.", "Kate Winslet", ("kate winslet", "starred_in", "titanic")),
    ('Engelbert Humperdinck also recorded a vocal version of the song "Wonderland by Night".', "Engelbert Humperdinck",
     ("engelbert humperdinck", "performed", "wonderland by night")),
    ("The United States signed a treaty with Mexico in 1848.", "United States",
     ("united states", "signed", "mexico")),
    ("Ben Stokes played for Durham County Cricket Club.", "Ben Stokes",
     ("ben stokes", "played_for", "durham county cricket club")),
])
def test_a_label_the_ends_fit_stays(extractor, text, topic, fact):
    assert fact in triples(extract(extractor, text, topic)[1])


# -- the object is the right phrase ----------------------------------------------------------------------
def test_a_possessor_is_not_the_object(extractor):
    found = labels(extractor, 'In 2013, he became the youngest member of KBS\'s variety show "2 Days & 1 Night" '
                              "Season 3.", "Jung Joon-young")
    assert ("jung joon-young", "kbs") not in found, found


def test_a_nationality_before_a_genre_is_no_body(extractor):
    found = labels(extractor, "Pliers (born Everton Bonner on 4 April 1963, Kingston, Jamaica), is a Jamaican Reggae "
                              "singer best known for his collaborations with deejay Chaka Demus.", "Pliers")
    assert ("pliers", "jamaican reggae") not in found, found
    assert found[("pliers", "jamaican")] == {"nationality"}, found
    assert is_demonym("Jamaican") and is_demonym("Korean") and is_demonym("German")
    assert not any(is_demonym(w) for w in ("Brian", "Christian", "Duncan", "Morgan", "Milan"))


@pytest.mark.parametrize("text", [
    "The Kansas City Chiefs are a professional American football team based in Kansas City, Missouri.",
    "Steve Johnson (born May 25, 1956) is an American football coach and former player.",
])
def test_american_football_is_a_sport_not_a_nationality(extractor, text):
    topic = text.split(" are ")[0].removeprefix("The ") if " are " in text else "Steve Johnson"
    assert all(r != "nationality" for _, r, _ in triples(extract(extractor, text, topic)[1]))


def test_a_key_after_a_composers_name_is_no_part_of_it(extractor):
    entities, facts = extract(extractor, "The Flute sonata in G major (HWV 363b) was composed (c. 1711–16) by George "
                                         "Frideric Handel in F major for the oboe.", "Flute Sonata in G major (HWV 363b)")
    assert "george frideric handel in f major" not in entities, sorted(entities)
    assert any(s == "george frideric handel" and r == "wrote" for s, r, _ in triples(facts)), triples(facts)


# -- a short form is the person the passage names in full ------------------------------------------------
def _resolved(extractor: SpacyTemporalExtractor, text: str, title: str) -> dict[str, str]:
    return _resolved_with_ends(extractor, text, title)[0]


def _resolved_with_ends(extractor: SpacyTemporalExtractor, text: str, title: str, word: str = "",
                        not_word: str = "\0") -> tuple[dict[str, str], set[str]]:
    """The document's key → resolved key, and the resolved ends of the facts whose sentence has ``word`` and not
    ``not_word``."""
    node = TextNode(text=text, start_char_idx=0, metadata={"rag_title": title})
    extractor([node])
    _, target = resolve_document(_found([node]))
    by_id = {e.id: e.properties["key"] for e in node.metadata[KG_NODES_KEY]}
    ends = {target.get(by_id[i], by_id[i]) for r in node.metadata[KG_RELATIONS_KEY]
            if re.search(rf"\b{word}\b", r.properties.get("sentence", ""), flags=re.I)
            and not_word not in r.properties.get("sentence", "").lower()
            for i in (r.source_id, r.target_id)}
    return target, ends


@pytest.mark.parametrize(("title", "text", "short", "full"), [
    ("Kate Ramsay", 'Kate Ramsay is a fictional character from the Australian soap opera "Neighbours", played by '
     'Ashleigh Brewer. In November 2013, it was announced Brewer had quit "Neighbours".', "brewer", "ashleigh brewer"),
    ("George Wilson (American football coach)", "George William Wilson, Sr. (February 3, 1914 – November 23, 1978) was "
     "a professional football end. Wilson played for 10 seasons with the Bears.", "wilson", "george william wilson sr"),
])
def test_a_surname_alone_is_the_full_name_though_the_tagger_typed_them_apart(extractor, title, text, short, full):
    found, ends = _resolved_with_ends(extractor, text, title, short, full.split()[0])  # sentences of the short form
    # a surname read as the topic itself leaves no node of its own: then its sentence's facts are the full name's
    assert found.get(short) == full or (short not in found and full in ends and short not in ends), (found, ends)


def test_a_slash_in_a_title_is_the_titles():
    # "The Black Album/Come On Feel The Dandy Warhols" was read as a file path, and its topic was the second album
    assert title_names("The Black Album/Come On Feel The Dandy Warhols", {}) == [
        "The Black Album/Come On Feel The Dandy Warhols"]
    assert title_names("reports/2019/annual report.pdf", {}) == ["annual report"]


# -- round 14b: the rest of the draw's wrong facts, each as a general rule --------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong"), [
    # an abbreviation the text defines for a common noun is no named thing
    ("The Boston MSA is part of a broader combined statistical area (CSA). The CSA additionally includes the "
     "municipalities of Manchester and Cape Cod in Massachusetts.", "Greater Boston", ("csa", "contains", "cape cod")),
    # a fronted place sets the scene: no relation to the clause's subject
    ("In the United States, education reform acknowledges and encourages public education as the primary source "
     "of K-12 education for American youth.", "Education reform", ("education reform", "related_to", "united states")),
    # "the city of Thompson" is Thompson
    ("The Northern Region is a region of Manitoba. The largest municipality is the city of Thompson.",
     "Northern Region", ("northern region", "located_in", "thompson")),
    # "who" after a name is that name, however the parser hung the clause
    ("Ceri Evans is a former footballer. He is the son of Gwyn Evans who played professionally for Crystal Palace, "
     "for Christchurch United and Nelson United in New Zealand.", "Ceri Evans",
     ("ceri evans", "played_for", "christchurch united")),
    # "backed on the session by" is accompaniment, no alliance
    ("Hank and Audrey were backed on the session by Jerry Rivers (fiddle), Don Helms (steel guitar).",
     "Hey, Good Lookin'", ("jerry rivers", "allied_with", "hank")),
    # a body's participle after a place describes the body
    ("Little Caesars is an American pizza chain. The company was founded in 1959 and is based in Detroit, Michigan, "
     "headquartered in the Fox Theatre building in Downtown.", "Little Caesars",
     ("detroit", "headquartered_in", "fox theatre")),
])
def test_a_wrong_fact_of_the_draw_is_not_stored(extractor, text, topic, wrong):
    assert wrong not in triples(extract(extractor, text, topic)[1])


def test_a_founding_has_no_end(extractor):
    _, facts = extract(extractor, 'Tresham founded and ran games company Hartland Trefoil (founded 1971), a company '
                                  'well known for its "Civilization" board game, until its sale to MicroProse in 1997.',
                       "Francis Tresham")
    founded = [p for s, r, t, p in facts if r == "founded" and t == "hartland trefoil"]
    assert founded and all(p["valid_until"] is None for p in founded), facts


@pytest.mark.parametrize(("text", "topic", "fact"), [
    ("Houston is the largest city of Texas.", "Houston", ("houston", "located_in", "texas")),
    ("Little Caesars is an American pizza chain. The company is based in Detroit, Michigan, headquartered in the Fox "
     "Theatre building.", "Little Caesars", ("little caesars", "headquartered_in", "fox theatre")),
    ("The United Nations (UN) is an intergovernmental organization. The UN was founded in 1945.", "United Nations",
     ("united nations", "founded_in", None)),
])
def test_the_right_facts_of_those_shapes_stay(extractor, text, topic, fact):
    found = triples(extract(extractor, text, topic)[1])
    if fact[2] is None:  # an abbreviation of a name stays that name's
        assert not any(s == "un" for s, _, _ in found), found
    else:
        assert fact in found, found


# -- round 14c: generic bodies and cut names that are better left out, and whose other name it is ---------
@pytest.mark.parametrize(("text", "topic", "wrong"), [
    # a member's office names no parliament: one node "Parliament" held the UK's, India's and Uganda's
    ("In October, 2015, she was nominated as the Member of Parliament, Rajya Sabha, by the President of India.",
     "Roopa Ganguly", "parliament"),
    ("He was Liberal Member of Parliament for Eddisbury and also served as Governor of Victoria.",
     "Edward Stanley, 2nd Baron Stanley of Alderley", "parliament"),
    # a name cut before "annual Conference of …" is left out rather than stored cut
    ("In 2004 Ret Kinong by Sar Rajendra Tumung is published by Reception Committee of 16th annual Conference of "
     "Karbi Lammet Amei held on 28th January 2004 at Rechohidi.", "Karbi literature", "reception committee of 16th"),
])
def test_a_generic_or_cut_name_is_no_node(extractor, text, topic, wrong):
    entities, _ = extract(extractor, text, topic)
    assert wrong not in entities, sorted(entities)


def test_a_country_institution_keeps_its_country(extractor):  # a guard: the rule above leaves it
    entities, _ = extract(extractor, "He was a member of the Parliament of Uganda from 2011.", "John Smith")
    assert "parliament of uganda" in entities, sorted(entities)


def test_also_known_as_names_the_name_before_it(extractor):
    _, facts = extract(extractor, "Adelaide Trades Hall is a building. It is the location of the United Trades and "
                                  "Labour Council of South Australia, also known as SA Unions.", "Adelaide Trades Hall")
    assert ("adelaide trades hall", "known_as", "sa unions") not in triples(facts), triples(facts)


# -- round 15 (round 14g's second draw, seed 31): a label the verb's sense refutes -------------------------
@pytest.mark.parametrize(("text", "topic", "pair", "wrong", "right"), [
    ("Kaintuck Territory was a theme park in Kentucky. It was built and operated by Walter Sill.", "Kaintuck Territory",
     ("walter sill", "kaintuck territory"), "owns", "leads"),  # to operate a park is to run it, not to own it
    ("During its existence Mid Oxfordshire returned one Member of Parliament to the House of Commons of the "
     "Parliament of the United Kingdom.", "Mid Oxfordshire",
     ("mid oxfordshire", "house of commons of the parliament of the united kingdom"), "moved_to", "related_to"),
    # round 15b (round 15's draws, seeds 29, 31 and 37)
    ("In 2009, Hong Kong successfully organised the V East Asian Games and it was the biggest sporting event ever "
     "held in the territory.", "Hong Kong", ("hong kong", "v east asian games"), "founded", "hosted"),
    ('The Twins Effect II is a 2004 Hong Kong film. The film is a sequel to "The Twins Effect" (2003), but has a '
     "completely different story from the first film.", "The Twins Effect II",
     ("twins effect ii", "twins effect"), "part_of", "successor_of"),
    ("It was built by wealthy Baltimore attorney, James Mackubin, for his second wife, Gabriella Peter, a "
     "great-great-granddaughter of Martha Washington.", "MacAlpine", ("gabriella peter", "martha washington"),
     "child_of", "descendant_of"),
    ("Lonely Me is debut studio album by Hong Kong cantopop singer Charlene Choi, member of the popular duo Twins.",
     "Lonely Me", ("charlene choi", "hong kong"), "member_of", "comes_from"),
    ('He is most often remembered for the three Powell & Pressburger films in which he starred: "The Life and Death '
     'of Colonel Blimp", "I Know Where I\'m Going!"', "Roger Livesey",
     ("roger livesey", "life and death of colonel blimp"), "stars", "starred_in"),
])
def test_a_verbs_sense_chooses_its_label(extractor, text, topic, pair, wrong, right):
    found = labels(extractor, text, topic)
    assert wrong not in found.get(pair, set()) and right in found.get(pair, set()), found


def test_who_returns_to_a_place_moved_there(extractor):
    # guard: with no object moved, the subject is what returned
    found = labels(extractor, "In 1850 Alfred Smith returned to London.", "Alfred Smith")
    assert "moved_to" in found.get(("alfred smith", "london"), set()), found


# -- round 15: an argument from the wrong phrase ---------------------------------------------------------
def test_by_after_a_title_names_the_titles_maker(extractor):
    text = ("The Church of St James and St Paul is in Marton, Cheshire. The church is an important location in the "
            "novel Strandloper by Alan Garner.")
    found = labels(extractor, text, "Church of St James and St Paul")
    assert not found.get(("alan garner", "church of st james and st paul")), found  # the parser hung "by" on it
    assert "competed_in" not in found.get(("church of st james and st paul", "strandloper"), set()), found
    assert "created" in found.get(("alan garner", "strandloper"), set()), found


def test_a_participle_after_a_state_is_not_the_states(extractor):
    text = ("The Cutler School of New York was a primary through college preparatory boys' school in Manhattan, New "
            "York City, New York established in 1876 by Arthur Cutler.")
    found = labels(extractor, text, "Cutler School of New York")
    assert not found.get(("arthur cutler", "new york")), found


def test_a_painting_by_a_painter_is_still_his(extractor):
    # guard: "by" on the noun that names the work
    found = labels(extractor, "The Hireling Shepherd is a painting by the Pre-Raphaelite artist William Holman Hunt.",
                   "The Hireling Shepherd")
    assert "created" in found.get(("william holman hunt", "hireling shepherd"), set()), found


# -- round 15b (round 15's draws, seeds 29, 31 and 37): arguments from the wrong phrase ---------------------
@pytest.mark.parametrize(("text", "topic", "pair"), [
    ("Lye first entered the entertainment industry during the 1990s with the former Television Corporation of "
     "Singapore and has starred in both English and Chinese shows.", "James Lye", ("james lye", "chinese")),
    ("Welcome to Loserville is the second album by Son of Dork. The album was later adapted into a musical by band "
     "members James Bourne and Elliot Davis.", "Welcome to Loserville", ("welcome to loserville", "elliot davis")),
])
def test_round_15b_no_fact_from_the_wrong_phrase(extractor, text, topic, pair):
    found = labels(extractor, text, topic)
    assert not found.get(pair), found


def test_the_actor_plays_the_part_not_the_film(extractor):
    text = ("I Saw the Light is a 2015 American biographical drama film directed, written, and produced by Marc "
            "Abraham, starring Tom Hiddleston as country music legend Hank Williams.")
    found = labels(extractor, text, "I Saw the Light")
    assert "portrayed" not in found.get(("i saw the light", "hank williams"), set()), found
    assert "portrayed" in found.get(("tom hiddleston", "hank williams"), set()), found


def test_a_members_seat_is_not_the_chambers_name(extractor):
    text = ("Warren Errol Truss is an Australian politician. He was the member of the House of Representatives for Wide "
            "Bay from the 1990 election until his retirement in May 2016.")
    entities, facts = extract(extractor, text, "Warren Errol Truss")
    assert "house of representatives for wide bay" not in entities, list(entities)
    assert ("warren errol truss", "represented", "wide bay") in triples(facts), triples(facts)


def test_a_peers_title_is_no_place_she_lived(extractor):
    found = labels(extractor, "Eleanor (or Alianore) was the daughter of Henry Percy, 4th Earl of Northumberland and "
                              "Maud Herbert, Countess of Northumberland.", "Eleanor Percy")
    assert not found.get(("maud herbert", "northumberland")), found
