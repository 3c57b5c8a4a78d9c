"""Issue 29, round 23: wrong facts still extracted from the hotpotqa-100 passages, where a passive lent its agent
to a clause of its own, a possessive or a hyphen cut a name, or a list ran into a body's name. Every fix case failed
on the commit before its rule; the guards keep right names and facts of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
from llama_index.core.schema import TextNode

from services.graph.extraction import SpacyTemporalExtractor
from tests.services.graph.test_name_extents import assert_facts
from tests.services.graph.test_name_precision import names


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- a passive lends its agent to a bare verb before it, not to a clause of its own ------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
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
])
def test_a_passive_agent_is_lent_only_to_a_bare_verb(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


# -- a possessive inside a body's name --------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "fragment"), [
    ("She has played in the Women's National Basketball Association, Turkish Women's Basketball League, Ligue "
     "Féminine de Basketball, the Women's Korean Basketball League, and the Women's Chinese Basketball Association.",
     "turkish women's basketball league", "turkish women"),
    ("She has played in the Women's National Basketball Association, Turkish Women's Basketball League, Ligue "
     "Féminine de Basketball, the Women's Korean Basketball League, and the Women's Chinese Basketball Association.",
     "women's korean basketball league", "women"),
    # guard: a person's possessive stays the owner's
    ("The song is about Nick Hexum's fiancee.", "nick hexum", "nick hexum's"),
])
def test_a_possessive_for_whom_a_body_is_stays_in_its_name(extractor, text, whole, fragment):
    found = names(extractor, text)
    assert whole in found and fragment not in found, found


def test_a_channels_possessive_airs_a_show_and_owns_nothing(extractor):
    text = "Grant Henry Hill is a retired American basketball player and a sports show host on NBA TV's NBA Inside Stuff."
    assert_facts(extractor, text, "Grant Hill", ("nba inside stuff", "owned_by", "nba tv"),
                 ("nba inside stuff", "related_to", "nba tv"))
    # guard: a company's possessive still owns
    assert_facts(extractor, "Saudi Aramco's College Preparatory Center trains new employees.", None, None,
                 ("college preparatory center", "owned_by", "saudi aramco"))


# -- a list after "for" is no part of the name before it ------------------------------------------------------
@pytest.mark.parametrize(("text", "whole", "merged"), [
    ("Colin McRae Rally is a racing video game developed and published by Codemasters for PlayStation, Microsoft "
     "Windows and Game Boy Color.", "codemasters", "codemasters for playstation"),
    # guard: a body named with "for"
    ("The book was published by the Center for Middle Eastern Studies.", "center for middle eastern studies", None),
])
def test_a_list_after_for_is_cut_from_the_name(extractor, text, whole, merged):
    found = names(extractor, text)
    assert whole in found and merged not in found, found


# -- two peoples over a hyphen are one ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    ("The DeCavalcante crime family is an Italian-American organized crime family that operates in Elizabeth, New "
     "Jersey.", "DeCavalcante crime family", ("decavalcante crime family", "nationality", "italian"),
     ("decavalcante crime family", "nationality", "italian-american")),
    ("Dean McDermott is a Canadian-American actor and television personality.", "Dean McDermott",
     ("dean mcdermott", "nationality", "canadian"), ("dean mcdermott", "nationality", "canadian-american")),
    # guard: one people stays one
    ("Arthur Ira Garfunkel is an American singer, poet, and actor.", "Arthur Ira Garfunkel", None,
     ("arthur ira garfunkel", "nationality", "american")),
])
def test_two_peoples_over_a_hyphen_are_one_nationality(extractor, text, topic, wrong, right):
    assert_facts(extractor, text, topic, wrong, right)


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
