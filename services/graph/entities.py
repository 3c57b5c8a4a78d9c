"""Entity resolution: one key per entity within a collection, merging case, whitespace and aliases."""

from __future__ import annotations

import re

ALIASES = {
    "us": "united states", "u s": "united states", "usa": "united states", "u s a": "united states",
    "united states of america": "united states", "america": "united states", "the states": "united states",
    "uk": "united kingdom", "u k": "united kingdom", "britain": "united kingdom", "great britain": "united kingdom",
    "ussr": "soviet union", "u s s r": "soviet union", "the soviet union": "soviet union",
    "un": "united nations", "u n": "united nations", "eu": "european union",
}
_LEADING = re.compile(r"^(the|a|an|this|that|these|those|our|their|its|his|her)\s+", re.I)


def entity_key(name: str) -> str:
    """Normalise a surface form to the key entities merge on ("The U.S." → "united states")."""
    key = name.replace("’", "'").lower()
    key = re.sub(r"'s$", "", key.strip())
    key = re.sub(r"[.\u00b7]", " ", key)
    key = re.sub(r"[^\w\s&'-]", " ", key)
    key = " ".join(key.split())
    if re.match(r"'\w", key):  # "the 'Preparatory School'": the quotation marks are no part of it
        key = key[1:].removesuffix("'")
    if key in ALIASES:  # aliases that start with an article ("the states") match before it is dropped
        return ALIASES[key]
    key = _LEADING.sub("", key)
    return ALIASES.get(key, key)


# Abbreviations of three letters or more that end a name with their own full stop ("Hank Williams, Jr." has one)
_ABBREVIATIONS = {"inc", "ltd", "corp", "bros", "esq", "ave", "blvd", "mfg", "dept", "assn", "univ", "govt", "intl",
                  "jr", "sr", "co", "st", "no", "mt", "ft", "rev", "hon", "gen", "col", "capt", "sgt", "etc"}


def _sentence_stop(name: str) -> bool:
    """A full stop the tokeniser left on a name's last word, which is no abbreviation: "Relangi Narasimha Rao.",
    "Jay-Z." (not "Hank Williams, Jr.", "U.S.", "Bill W.", "Beneath... Between... Beyond...")."""
    if not name.endswith(".") or name.endswith(".."):
        return False
    last = name.split()[-1][:-1]
    return len(last) >= 3 and "." not in last and any(c.islower() for c in last) and last.lower() not in _ABBREVIATIONS


def display_name(name: str) -> str:
    name = " ".join(name.split())
    if _sentence_stop(name):
        name = name[:-1]
    if name[:1] in "'‘" and len(name) > 2 and name[1].isalpha() and ("'" not in name[1:-1] and "’" not in name[1:-1]):
        name = name[1:].rstrip("'’")  # "'Preparatory School", "'Pre-Prep'": quotation marks left on the name
    return _LEADING.sub("", name) if name[:1].islower() or name.lower().startswith("the ") else name
