"""Issue 29, round 24: wrong facts still extracted from the hotpotqa-100 passages, where the parser hung a phrase
on the wrong clause or noun, or a pronoun took the topic where the text had brought in another thing. Every fix
case failed on the commit before its rule; the guards keep right facts of the same shapes."""

from __future__ import annotations

import pytest
from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY
from llama_index.core.schema import TextNode

from services.graph.document_facts import _found
from services.graph.extraction import SpacyTemporalExtractor
from services.graph.resolution import resolve_document
from services.graph.service import _topic
from tests.services.graph.test_fact_quality import triples


@pytest.fixture(scope="module")
def extractor() -> SpacyTemporalExtractor:
    return SpacyTemporalExtractor()


# -- facts: wrong ones gone (each fix case failed on the commit before its rule), guards kept -----------------
@pytest.mark.parametrize(("text", "topic", "wrong", "right"), [
    # an object after a comma that closes the verb's prepositional phrase is that phrase's apposition
    ("Producer Peter Rogers and director Gerald Thomas drew on a regular group of actors, the Carry On team, that "
     "included Sid James, Kenneth Williams, Charles Hawtrey, Joan Sims, Kenneth Connor, Peter Butterworth, Hattie "
     "Jacques, Terry Scott, Bernard Bresslaw, Barbara Windsor, Jack Douglas, and Jim Dale.", "Carry On (franchise)",
     ("peter rogers", "created", "carry on"), None),
    # guard: a name there keeps its fact
    ("The Dallas Cowboys are a professional American football team. The Cowboys have won five of those Super Bowl "
     "appearances, tying them with their NFC rivals, the San Francisco 49ers.", "Dallas Cowboys", None,
     ("dallas cowboys", "related_to", "san francisco 49ers")),
    # an "as" after a verb's object says what the object is held to be
    ("Kaizen Gamorra is a fictional character. Brandon Choi and Jim Lee had referred to him many times as an "
     "important character within the Wildstorm Universe.", "Kaizen Gamorra",
     ("brandon choi", "related_to", "wildstorm universe"), ("brandon choi", "related_to", "kaizen gamorra")),
    # guard: without an object, the "as" is the subject's
    ("La Luna was a music venue. La Luna was described as the premier venue in Portland.", "La Luna (Portland, Oregon)",
     None, ("la luna", "related_to", "portland")),
    # a ", by X" the parser hung on a clause inside a passive verb's phrase is that verb's agent
    ("Gardiners Bay is a bay in Long Island. It is bounded on its eastern end, where it connects to Block Island "
     "Sound, by Gardiners Island and Promised Land.", "Gardiners Bay",
     ("gardiners bay", "related_to", "gardiners island"), ("gardiners bay", "related_to", "block island sound")),
    # a credit the parser hung on a noun after the last person credited is the work's
    ("Jayammu Nischayammu Raa (English: Victory is Certain) is 1989 Telugu comedy film produced by G. V. H. Prasad on "
     "Sudarshana Pictures banner, presented by Satyanarayana, Kota Srinivasa Rao and directed by Jandhyala.",
     "Jayammu Nischayammu Raa (1989 film)", ("kota srinivasa rao", "hosted", "g v h prasad"),
     ("kota srinivasa rao", "hosted", "jayammu nischayammu raa")),
    # examples of a person's things are nothing of a work the sentence is about
    ("Rich Man, Poor Man is a 1969 novel by Irwin Shaw. It is the last of the novels of Shaw's middle period before he "
     'began to concentrate, in his last works such as "Evening In Byzantium," "Nightwork," "Bread Upon The Waters," '
     'and "Acceptable Losses," on the inevitability of impending death.', "Rich Man, Poor Man (novel)",
     ("rich man poor man", "related_to", "nightwork"), ("irwin shaw", "created", "rich man poor man")),
    # guard: a partner of a person's project is the work's
    ("The Nostalgia Factory is an album by Trent. It was the second full-length cassette produced for his 'joke' "
     "project with friend Malcom Stocks.", "The Nostalgia Factory", None,
     ("nostalgia factory", "related_to", "malcom stocks")),
    # titles in quotation marks joined to an unquoted body are more of the verb's quoted objects
    ('Adam Tandy is an English television producer. After the 2012 series of "The Thick of It", he has produced '
     '"Catastrophe" for Channel 4, as well as "Inside No. 9" and "Detectorists" for the BBC.', "Adam Tandy",
     ("adam tandy", "related_to", "inside no 9"), ("adam tandy", "produced", "inside no 9")),
    ('Adam Tandy is an English television producer. After the 2012 series of "The Thick of It", he has produced '
     '"Catastrophe" for Channel 4, as well as "Inside No. 9" and "Detectorists" for the BBC.', "Adam Tandy",
     None, ("adam tandy", "related_to", "channel 4")),
    # "it" after "there is" is the thing brought in, not the topic
    ("The Hythrun Chronicles is a fantasy trilogy by Jennifer Fallon. There is a fifth country introduced to the "
     "trilogy as well, Denika. It is off the map and indicated as south of Hythria and Fardohnya across the Dregian "
     "Ocean, accessed by ship.", "The Hythrun Chronicles", ("hythrun chronicles", "related_to", "dregian ocean"),
     ("denika", "related_to", "dregian ocean")),
    # a second people after a nation is the work's language; a region's name is no nation
    ("Bombaiyer Bombete (Bengali: বোম্বাইয়ের বোম্বে ) is a 2003 Indian Bengali thriller film directed by Sandip Ray "
     "based on the story of the same name by Satyajit Ray.", "Bombaiyer Bombete (film)",
     ("bombaiyer bombete", "nationality", "bengali"), ("sandip ray", "directed", "bombaiyer bombete")),
    ("Seer is an Austrian band. After a brief solo career as Freddy Jay, he founded the band that comes from "
     "Grundlsee in Styria, Salzkammergut region of Austria.", "Seer (band)",
     ("styria", "nationality", "salzkammergut"), ("styria", "located_in", "austria")),
    # guard: a people before a nation of descent is the descent, and the nation the nationality
    ("Gary Franklin (September 22, 1928 – October 2, 2007) was a well-known German American broadcast film critic "
     "based in Los Angeles, California.", "Gary Franklin", None, ("gary franklin", "nationality", "american")),
    # a list after a singular noun's clause is the members of the plural that ends the clause
    ('Oxford spelling (also "Oxford English Dictionary" spelling, Oxford style, or Oxford English spelling) is the '
     "spelling standard used by the Oxford University Press (OUP) for British publications, including its \"Oxford "
     "English Dictionary\" (\"OED\") and its influential British style guide Hart's Rules, and by other publishers "
     'who are "etymology conscious", according to Merriam-Webster.', "Oxford spelling",
     ("oxford university press", "uses", "oxford english dictionary"),
     ("oxford university press", "uses", "oxford spelling")),
    # guard: a plural's own list stays its own
    ('Californication is an album. The band released three albums produced by Rick Rubin, including "Blood Sugar '
     'Sex Magik".', "Californication (album)", None, ("rick rubin", "produced", "blood sugar sex magik")),
    # "he or she" is whoever holds a post, no one named
    ("The Swedish constitution of 1974 allows the Prime Minister of Sweden to appoint one of the Ministers in the "
     "cabinet as Deputy Prime Minister. If the Prime Minister has resigned or lost a vote of "
     'confidence, he or she will remain the head of a government "ad interim" until the new Prime Minister assumes '
     "his or her office.", "Swedish governmental line of succession",
     ("swedish governmental line of succession", "instance_of", "head of government"), None),
    # an agent that is a common noun is the names its appositive gives
    ("Two Dollar Radio is an independent publisher. The company was founded in 2005 by husband and wife team Eric "
     "Obenauf and Eliza Jane Wood-Obenauf, with Brian Obenauf.", "Two Dollar Radio",
     ("two dollar radio", "related_to", "eliza jane wood-obenauf"),
     ("eliza jane wood-obenauf", "founded", "two dollar radio")),
    # "who" after a body hung on a common noun by "of" is the person that noun is
    ("Benton Fraser is a fictional character. He is a constable of the Royal Canadian Mounted Police who works in the "
     "American city of Chicago, Illinois as Deputy Liaison Officer in the Canadian consulate.", "Benton Fraser",
     ("royal canadian mounted police", "related_to", "chicago"), ("benton fraser", "related_to", "chicago")),
    # guard: not when the noun after "of" is a common noun
    ('Spider Baby is a 1967 film. It stars Lon Chaney, Jr. as Bruno, the chauffeur and caretaker of three orphaned '
     'siblings who suffer from "Merrye Syndrome", a genetic condition starting in early puberty.', "Spider Baby",
     ("bruno", "related_to", "merrye syndrome"), None),
    # a "who" after the place a title rules is the title's holder
    ("Rhirid Flaidd was a Welsh nobleman. He was related through his grandmother to Bleddyn ap Cynfyn, king of Powys "
     "who rewarded Gwrgenau with land, presumably for his loyalty and service.", "Rhirid Flaidd",
     ("powys", "related_to", "gwrgenau"), ("bleddyn ap cynfyn", "related_to", "gwrgenau")),
    # a title right before a name is that name's, no one the text named before
    ("Tostig Godwinson was an Anglo-Saxon Earl of Northumbria and brother of King Harold Godwinson. After being "
     "exiled by his brother, Tostig supported the Norwegian king Harald Hardrada's invasion of England, and was "
     "killed at the Battle of Stamford Bridge.", "Tostig Godwinson", ("tostig", "allied_with", "harold godwinson"),
     ("tostig", "allied_with", "harald hardrada")),
    # guard: a plural's names are its members, no title of theirs (and a cut name gives nothing)
    ("David Berni is a Canadian voice actor. David is widely known for the characters Yay-Ok from Rocket Monkeys, "
     "Duck on Almost Naked Animals and Paddy on Scaredy Squirrel.", "David Berni", ("david berni", "known_for", "yay"),
     None),
    # a place before a title and a person's name only says which office: the person is the object
    ("Scott Andrew Buchholz is an Australian politician. He previously served as chief of staff to Queensland Senator "
     "Barnaby Joyce and was a director of CQX Group of Transport Companies for 18 years.", "Scott Buchholz",
     ("scott andrew buchholz", "related_to", "queensland"), ("scott andrew buchholz", "related_to", "barnaby joyce")),
    # a second complement after a comma and a proper noun the tagger missed is that noun's appositive
    ("The National Basketball Development League was a basketball league in Japan. It was a second-tier league below "
     "the National Basketball League and was formed in 2013 as the successor of JBL2, the second division of the "
     "former Japan Basketball League.", "National Basketball Development League (Japan)",
     ("national basketball development league", "part_of", "japan basketball league"),
     ("national basketball development league", "related_to", "national basketball league")),
    # a chair named for a man makes no one his member
    ("The Asian Institute is a research centre. Ritu Birla is the Richard Charles Lee Director of the Asian "
     "Institute.", "Asian Institute", ("ritu birla", "member_of", "richard charles lee"),
     ("ritu birla", "leads", "asian institute")),
    # guard: a band the tagger called a person keeps its member
    ("Circus Diablo is an American rock band. Fuel frontman Brett Scallions and Velvet Revolver drummer Matt Sorum "
     "subsequently joined the band on bass and drums, respectively.", "Circus Diablo", None,
     ("matt sorum", "member_of", "velvet revolver")),
    # an adjective before a name is no word of it
    ("Bane is a fictional supervillain. Eight years after the events of \"The Dark Knight\", merciless revolutionary "
     "Bane forces an older Bruce Wayne to resume his role as Batman and save Gotham City from nuclear destruction.",
     "Bane (DC Comics)", ("bane", "related_to", "older bruce wayne"), ("bane", "related_to", "bruce wayne")),
])
def test_wrong_facts_are_gone_and_right_ones_stay(extractor, text, topic, wrong, right):
    found = triples(_facts(extractor, _node(text, topic)))
    assert wrong is None or wrong not in found, found
    assert right is None or right in found, found


def _node(text: str, title: str) -> TextNode:
    """A passage as ingestion hands it over: its title and topic in the metadata."""
    return TextNode(text=text, start_char_idx=0, metadata=dict(_topic(title, {}, text)))


def _facts(extractor: SpacyTemporalExtractor, node: TextNode) -> list:
    """[(source key, label, target key, properties)] of one passage."""
    extractor([node])
    by_id = {e.id: e for e in node.metadata[KG_NODES_KEY]}
    return [(by_id[r.source_id].properties["key"], r.label, by_id[r.target_id].properties["key"], r.properties)
            for r in node.metadata[KG_RELATIONS_KEY]]


def test_a_group_made_of_the_topics_last_word_is_the_topic(extractor):
    node = _node("Walt Disney Classics was a brand name used by Walt Disney Home Video on their home video releases.  "
                 'With the release of "Snow White and the Seven Dwarfs", all the existing titles in the Classics line '
                 "were replaced with the Masterpiece Collection line and the Classics line was canceled in the United "
                 "States and Canada.", "Walt Disney Classics")
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get("classics") == "walt disney classics", target
    # guard: a people's name stays a people, even where the topic ends with it
    node = _node("The Fighting Irish is a football team of the University of Notre Dame. The Irish players beat the "
                 "Boston College Eagles in 1993.", "The Fighting Irish")
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get("irish", "irish") == "irish", target


@pytest.mark.parametrize(("text", "title", "fact", "valid_from"), [
    # a date that opens a later conjunct whose verb the text left out dates only that conjunct
    ("William E. Myers is an American musician. The next year, Myers received the Brown-Hudson Folklore Award from the "
     "North Carolina Folklore Society, and in 2014, the North Carolina Heritage Award.", "Bill Myers (musician)",
     ("william e myers", "won", "brown-hudson folklore award"), None),
    # a date that says which of a noun the object is among dates nothing
    ("NASCAR Revolution is a racing game. The game features race car drivers from the 1998 and 1999 Winston Cup "
     "seasons like Kyle Petty and Dale Earnhardt.", "NASCAR Revolution",
     ("nascar revolution", "related_to", "kyle petty"), None),
    # the year of another name dates nothing of this object (the other keeps its own)
    ("Rimyongsu Sports Club is a North Korean football club. Despite never winning the DPR Korea League, Rimyongsu "
     "supplied four players to the 2005 FIFA U-17 World Championship and five players to the 2007 FIFA U-20 World "
     "Cup, more than any other North Korean club.", "Rimyongsu Sports Club",
     ("rimyongsu", "related_to", "fifa u-20 world cup"), None),
    ("Rimyongsu Sports Club is a North Korean football club. Despite never winning the DPR Korea League, Rimyongsu "
     "supplied four players to the 2005 FIFA U-17 World Championship and five players to the 2007 FIFA U-20 World "
     "Cup, more than any other North Korean club.", "Rimyongsu Sports Club",
     ("rimyongsu", "related_to", "fifa u-17 world championship"), "2005-01-01"),
    # guard: a date that qualifies the verb's own "since" phrase still dates it
    ("John Smith is an American politician. Smith has represented Ohio in the United States Senate since the 1994 "
     "election.", "John Smith (politician)", ("john smith", "represented", "ohio"), "1994-01-01"),
])
def test_a_date_of_another_conjunct_or_noun_dates_no_fact(extractor, text, title, fact, valid_from):
    found = {(s, r, t): p.get("valid_from") for s, r, t, p in _facts(extractor, _node(text, title))}
    assert fact in found, found
    assert (found[fact] or "")[:10] == (valid_from or ""), found


def test_the_people_listed_after_a_team_are_people(extractor):
    node = _node("Two Dollar Radio is an independent publishing house based in Columbus, Ohio.  The company was founded "
                 "in 2005 by husband and wife team Eric Obenauf and Eliza Jane Wood-Obenauf, with Brian Obenauf.",
                 "Two Dollar Radio")
    extractor([node])
    labels = {e.name: e.label for e in node.metadata[KG_NODES_KEY]}
    assert labels.get("Eric Obenauf") == "PERSON", labels
    # guard: a duo called by one name is the duo
    node = _node("The Mynabirds are an American indie pop band founded by Laura Burhenn, who was previously one half "
                 "of the Washington, D.C. indie duo Georgie James.", "The Mynabirds")
    extractor([node])
    labels = {e.name: e.label for e in node.metadata[KG_NODES_KEY]}
    assert labels.get("Georgie James") == "ORG", labels


def test_a_studio_named_with_a_number_has_no_given_name_and_an_adjective_no_person(extractor):
    node = _node("Daytona USA is a racing video game developed by Sega AM2 and released by Sega, with a limited release "
                 "in 1993 followed by a full release in 1994.", "Daytona USA (video game)")
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get("sega") == "sega", target
    node = _node("The Dark Knight Rises is a 2012 superhero film directed by Christopher Nolan. Eight years after the "
                 'events of "The Dark Knight", merciless revolutionary Bane forces an older Bruce Wayne to resume his '
                 "role as Batman and save Gotham City from nuclear destruction.", "The Dark Knight Rises")
    extractor([node])
    _, target = resolve_document(_found([node]))
    assert target.get("bruce wayne") == "bruce wayne", target


def test_a_light_verbs_noun_keeps_its_nouns_and_a_list_is_a_list(extractor):
    facts = _facts(extractor, _node("Neve Campbell is a Canadian actress. Campbell has also made guest appearances on "
                                    'several television series, such as "Medium", "Grey\'s Anatomy" and "Mad Men".',
                                    "Neve Campbell"))
    raws = {p["raw"] for s, r, t, p in facts if t == "mad men"}
    assert raws == {"has made guest appearances on"}, facts
    facts = _facts(extractor, _node("Word board games are those games played on a board as players of the game attempt "
                                    "to construct words that use a scoring system.", "List of word board games"))
    assert {(r, t) for s, r, t, _ in facts} == {("instance_of", "list")}, facts
