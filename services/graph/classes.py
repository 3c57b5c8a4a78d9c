"""Class nouns: the kind of thing a common noun names ("band" -> an organisation, "river" -> a place).

Three uses: the class a sentence gives its subject ("X is a band") types it; a definite description ("the
band") resolves to a name stated to be one; and the head noun of a multi-word name types the name when it is
one of the heads that almost always mean one kind in English names ("Aloha Stadium", "Hudson River",
"Massachusetts Education Reform Act", "University of Texas"), whatever the tagger said.
"""

from __future__ import annotations

# The class a sentence gives its subject ("X is a band") -> the NER label it stands for.
CLASS_TYPES: dict[str, str] = {}
for _label, _nouns in {
    "PERSON": "actor actress singer songwriter musician rapper guitarist drummer bassist pianist composer "
              "conductor writer author novelist poet playwright screenwriter journalist editor director producer "
              "filmmaker photographer painter artist sculptor architect designer politician statesman diplomat "
              "lawyer judge businessman businesswoman entrepreneur executive engineer scientist physicist chemist "
              "biologist mathematician economist historian philosopher psychologist sociologist linguist "
              "professor teacher academic scholar physician doctor surgeon nurse soldier officer general admiral "
              "commander pilot astronaut athlete player footballer cricketer boxer wrestler swimmer runner "
              "cyclist skater skier golfer racer driver jockey coach manager referee king queen prince princess "
              "emperor empress monarch pharaoh sultan nobleman noblewoman duke duchess earl count countess bishop "
              "priest pope saint missionary theologian explorer inventor model comedian comic dancer "
              "choreographer presenter host broadcaster personality youtuber blogger chef activist revolutionary "
              "leader ruler president senator governor mayor minister congressman congresswoman representative "
              "dictator tyrant envoy consul ambassador chargé diplomat commissioner "
              "official man woman boy girl person character vocalist frontman lyricist magician illustrator "
              "cartoonist animator voice novelist essayist critic spy criminal murderer superhero villain hero heroine "
              "protagonist member resident native citizen fighter aviator aviatrix ace catcher pitcher quarterback "
              "midfielder defender forward striker goalkeeper winger guard outfielder infielder batsman bowler "
              "sprinter tennis gymnast mountaineer sailor navigator astronomer botanist zoologist geologist "
              "anthropologist archaeologist surveyor merchant banker investor industrialist philanthropist "
              "socialite heir heiress courtier knight baron baroness marquess viscount bishop cleric monk nun "
              "abbot friar rabbi imam preacher evangelist saint martyr warrior chieftain chief consort "
              "mistress wife husband son daughter father mother brother sister lyricist rapper dj deejay "
              "frontwoman keyboardist saxophonist trumpeter violinist cellist organist harpist percussionist "
              "tenor soprano baritone mezzo-soprano contralto bass-baritone crooner diva idol entertainer "
              "impressionist ventriloquist stuntman stuntwoman linebacker cornerback fullback halfback tailback "
              "placekicker kicker punter shortstop baseman wicketkeeper wicket-keeper all-rounder",
    "ORG": "band group duo trio quartet quintet sextet septet octet supergroup company corporation firm business "
           "conglomerate manufacturer retailer "
           "brand label airline bank agency organization organisation association society institute institution "
           "foundation charity university college school academy club team franchise league federation union "
           "party government ministry department council committee army navy regiment battalion division "
           "brigade fleet squadron unit network channel station newspaper magazine publisher studio chain "
           "restaurant hotel church order orchestra choir ensemble consortium cooperative subsidiary "
           "startup developer tribe dynasty family distributor broadcaster",
    "GPE": "city town village country state nation province county municipality district borough suburb "
           "neighborhood neighbourhood commune hamlet capital metropolis region territory republic kingdom "
           "empire colony township parish settlement community locality prefecture canton emirate principality "
           "census-designated",
    "LOC": "river lake sea ocean mountain mountains hill valley island islands peninsula desert forest bay "
           "gulf strait coast beach volcano glacier canyon plain plateau continent archipelago creek waterfall "
           "reservoir cape",
    "FAC": "building bridge tower stadium arena airport station castle palace cathedral temple mosque "
           "museum gallery library hospital prison park garden square street road highway motorway railway "
           "line tunnel dam port harbour harbor canal theatre theater venue mall house mansion monument memorial "
           "home residence manor cottage villa farmhouse homestead plantation inn tavern "
           "fort fortress lighthouse campus skyscraper racecourse circuit track",
    "WORK_OF_ART": "film movie novel book album song single ep painting sculpture poem play opera musical "
                   "series show sitcom drama documentary episode game videogame comic manga anime novella "
                   "story anthology magazine journal soundtrack symphony concerto sonata composition work "
                   "franchise programme program miniseries telenovela podcast video",
    "PRODUCT": "car aircraft airplane ship vessel locomotive engine rifle gun tank vehicle motorcycle "
               "computer software console device phone smartphone camera satellite rocket missile "
               "submarine destroyer cruiser battleship frigate carrier brig schooner sloop steamship steamer "
               "steamboat gunboat warship corvette barque yacht biplane monoplane triplane seaplane floatplane airliner "
               "bomber glider helicopter airship",
    "EVENT": "war battle siege campaign election festival tournament championship championships competition "
             "race cup olympics games conference summit revolution uprising rebellion massacre disaster "
             "earthquake hurricane storm treaty ceremony award awards season contest marathon expedition crisis "
             "incident attack operation outbreak",
    "LAW": "act law bill amendment constitution treaty",
}.items():
    for _noun in _nouns.split():
        CLASS_TYPES.setdefault(_noun, _label)
# A class noun whose referent is plural or collective: "they" can stand for it.
COLLECTIVE_KINDS = {"org", "group"}


# Two-word classes whose head alone says another kind ("a publishing house" is no building)
for _noun in ("publishing house", "fashion house", "auction house", "trading house", "design house",
              "record label", "dog breed", "cat breed", "horse breed", "media franchise", "athletic conference",
              "sports conference", "football conference", "basketball conference", "collegiate conference"):
    CLASS_TYPES[_noun] = "ENTITY" if _noun.endswith("breed") else "WORK_OF_ART" if _noun == "media franchise" else "ORG"
for _noun in ("all-star game", "bowl game", "exhibition game", "championship game", "football game", "baseball game",
              "basketball game", "hockey game", "rugby game"):
    CLASS_TYPES[_noun] = "EVENT"  # a game played, no video game


def class_label(noun: str) -> str | None:
    """The NER label a class noun stands for ("band" -> ORG), or None."""
    noun = noun.lower()
    return CLASS_TYPES.get(noun) or (CLASS_TYPES.get(noun[:-1]) if noun.endswith("s") else None) \
        or CLASS_TYPES.get(f"{noun}s")  # a lemma the lemmatiser cut short: "miniseries" -> "miniserie"


# Heads that type a name whatever the tagger said. Only heads that rarely end a name of another kind: not
# "house" (Random House, Bleak House), "park" (Jurassic Park), "series" (World Series), "union" (Soviet
# Union), "city" (Manchester City), nor any person or work noun (Burger King, Gone Girl, Iron Man).
_HEADS: dict[str, str] = {}
for _label, _nouns in {
    "FAC": "stadium arena airport bridge tower castle palace cathedral basilica temple mosque synagogue museum "
           "library hospital prison dam canal tunnel highway motorway freeway expressway railway fort fortress "
           "lighthouse racecourse mansion monument memorial abbey chapel theatre theater mausoleum tomb cemetery "
           "pagoda observatory aquarium zoo boulevard avenue parkway",
    "LOC": "river lake sea ocean mountains hills valley island islands peninsula desert forest bay gulf strait "
           "glacier canyon plateau archipelago creek falls reservoir range",
    "GPE": "county province prefecture oblast governorate municipality township",
    "ORG": "university college school academy institute association society foundation corporation company "
           "inc ltd llc plc party league federation council committee ministry agency bank club orchestra choir "
           "diocese airlines airways records pictures studios brewery government band quintet quartet trio sextet "
           "septet octet ensemble network networks",
    "LAW": "act amendment",
    "EVENT": "war battle siege election elections festival olympics championship championships tournament "
             "awards games cup revolution rebellion massacre earthquake hurricane expedition",
}.items():
    for _noun in _nouns.split():
        _HEADS[_noun] = _label


# Words that open a natural feature's name, in English and the languages its place names come from ("the Rio
# Grande", "Lake Geneva", "Mount Kenya", "Loch Ness"), when the last word gives no type ("Mount Holyoke College").
_FIRST_HEADS = {w: "LOC" for w in ("rio", "río", "lake", "mount", "mt", "loch", "lough", "sierra", "cape", "isla")}


def head_label(words: list[str]) -> str | None:
    """The label a multi-word name's head noun gives it: the last word ("Aloha Stadium"), or the word before a
    first "of" ("University of Texas", "Battle of Gettysburg"), else a feature's first word ("Rio Grande"); None
    for one word or an unlisted head."""
    if len(words) < 2:
        return None
    lowered = [w.lower().strip(".,") for w in words]
    if lowered[-2:] == ["publishing", "house"]:
        return "ORG"  # "Polonia Publishing House" (a house alone may be anything: Random House, Bleak House)
    head = lowered[lowered.index("of") - 1] if "of" in lowered[1:] else lowered[-1]
    return _HEADS.get(head) or _FIRST_HEADS.get(lowered[0])
