"""Word lists that tell a name from a title, an office, a count or a class (read by services/graph/spans.py):
numbered heads, place and company heads, capitalised common nouns, letters after a name, office and rank words,
"downtown" words, one-word nationalities and verbs of speaking a language."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_DOWNTOWN = {"downtown", "uptown", "midtown", "suburban"}

_DEMONYM = re.compile(r"[A-Z][a-z]+(ish|ian|ese|ean)|French|Dutch|Czech|Greek|Thai|Swiss|Welsh|Scots")

_SPEAKING = {"speak", "learn", "teach", "translate", "write", "study", "master"}

# Heads a number completes ("Route 66", "Flight 93", "Apollo 11" is a work's name, left alone).
_NUMBERED = {"route", "highway", "interstate", "road", "freeway", "expressway", "motorway", "turnpike", "flight",
             "platform", "terminal", "pier", "gate", "channel", "district", "ward", "precinct", "squadron",
             "battalion", "regiment", "division", "corps", "brigade", "fleet", "wing", "group", "lot", "unit", "zone"}

_PLACE_HEADS = {"falls", "springs", "heights", "county", "township", "borough", "parish", "valley", "city",
                "harbour", "harbor", "junction", "peninsula"}

COMPANY_HEADS = {"cruises", "airlines", "airways", "records", "studios", "pictures", "industries", "holdings",
                 "enterprises", "publications", "productions", "motors", "entertainment", "inc", "inc.", "ltd",
                 "ltd.", "llc", "plc", "corp", "corp.", "corporation", "gmbh", "films", "media", "publishing",
                 "broadcasting", "communications", "technologies", "laboratories", "labs", "pharmaceuticals",
                 "foods", "brewing", "distribution", "co", "co."}  # "Zeitgeist Films" is no one's surname
# The legal forms that end a company's or a club's name ("Harris, Forbes & Co.", "Baltimore Orioles F.C.")
# Generations after a person's name ("Hank Williams, Jr.", "Henry Ford II"): no part of the surname
NAME_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}

COMPANY_SUFFIXES = {"inc", "ltd", "llc", "plc", "co", "corp", "bros", "f.c", "fc", "afc", "a.f.c", "s.a", "ag", "gmbh",
                    "n.v", "s.p.a", "oy", "ab", "a/s", "lp", "llp"}

_COMMON = {"government", "executive", "legislature", "administration", "department", "territory", "territories",
           "union", "empire", "kingdom", "republic", "nation", "nations", "province", "provinces", "state", "states",
           "powers", "power", "people", "country", "constitution", "treaty", "minister", "ministers", "president"}

# Letters after a person's name: honours, degrees, professional titles.
_POSTNOMINALS = {"MBE", "OBE", "CBE", "KBE", "DBE", "GBE", "KCMG", "GCMG", "CMG", "KCB", "GCB", "CB", "KG", "KT", "VC",
                 "GC", "DSO", "MC", "DFC", "AFC", "FRS", "FRSE", "FBA", "QC", "KC", "PhD", "MD", "DPhil", "MP", "MEP",
                 "MLA", "MSP", "AM", "AO", "AC", "OAM", "OC", "CM", "CH", "OM", "PC", "RA", "OD", "OJ",  # OD, OJ: Jamaica's
                 "MLC", "MHA", "MHR", "MNA", "MPP", "TD", "JP", "DL", "FRCS", "FRCP", "FREng", "KStJ"}  # orders

_OFFICES = {"dictator", "majesty", "highness", "excellency", "comptroller", "treasurer", "postmaster", "attorney",
            "auditor", "commissioner", "solicitor", "paymaster", "quartermaster", "consul", "ambassador", "envoy",
            "delegate", "speaker", "clerk", "marshal", "collector", "superintendent", "inspector", "fellow", "citizen",
            "gentleman", "gentlemen", "honorable", "honourable", "presidency", "premiership", "chairmanship",
            "governorship", "principal", "headmaster", "headmistress", "chancellorship", "deputy", "premier",
            "head", "master"}  # "the Head Master is Christian Pritchard"

# Compass adjectives the tagger calls a people ("a veteran Western movie actor", "Southern rock"): no nationality
_COMPASS = {"western", "eastern", "northern", "southern", "midwestern", "middle western", "northeastern",
            "northwestern", "southeastern", "southwestern", "central"}

_RANKS = {"deputy", "vice", "acting", "assistant", "associate", "under", "first", "second", "lieutenant", "chief"}

# Titles whose "of" names a place ("King of Sweden" is a fact about Sweden); any other title's "of" names an
# office ("Minister of Defense", "Secretary of State").
_RULERS = {"king", "queen", "prince", "princess", "emperor", "empress", "duke", "duchess", "earl", "count",
           "countess", "sultan", "pharaoh", "tsar", "czar", "shah", "khan", "emir", "bishop", "archbishop", "governor",
           "mayor", "president", "lord", "lady"}
# Words before a name that make it a person's ("General Motors" is one name: the title is inside the span).
_HONORIFICS = {"mr", "mrs", "ms", "dr", "sir", "president", "senator", "governor", "general", "gen", "colonel",
               "col", "captain", "capt", "commodore", "admiral", "lieutenant", "lt", "major", "maj", "judge",
               "professor", "prof", "bishop", "reverend", "rev", "mayor", "secretary", "minister", "chancellor",
               "king", "queen", "emperor", "empress", "prince", "princess", "pope", "sergeant", "sgt"}
_TITLES = {"mr", "mrs", "ms", "miss", "dr", "sir", "baronet", "dame", "lord", "lady", "president", "senator", "governor",
           "general", "gen", "colonel", "col", "captain", "capt", "king", "queen", "prince", "princess", "emperor",
           "pope", "saint", "st", "reverend", "rev", "professor", "prof", "judge", "justice", "chancellor",
           "secretary", "minister", "prime", "chairman", "ceo", "mayor", "admiral", "commodore", "lieutenant",
           "sheriff", "bishop", "archbishop", "cardinal", "rabbi", "father", "brother", "sister", "uncle", "aunt",
           "representative", "rep", "sen", "gov", "vice", "former", "late", "director", "coach", "chief", "maj", "lt",
           "sgt", "cpl", "pvt", "adm", "hon", "msgr", "fr", "mme", "mlle", "herr", "frau", "sr", "jr"}


def word_list(file: str) -> frozenset[str]:
    """The words of a list in services/graph/data/, one a line, "#" lines its provenance."""
    text = (Path(__file__).parent / "data" / file).read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """English words written more often in lower case (data/common_words.txt; scripts/make_common_words.py)."""
    return word_list("common_words.txt")


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """Given names (data/given_names.txt: the US Census 1990 list)."""
    return word_list("given_names.txt")
