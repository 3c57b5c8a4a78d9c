"""The canonical relation vocabulary: every fact's label comes from this list, and its raw phrase is kept.

A verb phrase ("was elected to", "locate at", "is a member of") maps to one of about a hundred labels, so
that relation filters, the single-valued relations that drive supersession and the timeline match across
documents, whoever wrote them. A phrase the vocabulary does not know becomes ``related_to``; the fact still
keeps the phrase as ``raw`` and shows it.

Labels read subject → object: ``(Steven Spielberg) directed (Jaws)``; the passive is turned to the active by
the extractor ("Jaws was directed by Spielberg" gives the same fact), and a noun with "by" ("a painting by
Hunt") likewise makes the agent the subject. The table lists triggers for each label: a verb lemma, a verb
lemma with its preposition ("born in"), or a relational noun with its preposition ("capital of"); see
docs/graph.md for the whole list.
"""

from __future__ import annotations

import re

RELATED_TO = "related_to"

# label -> verb triggers ("lemma" or "lemma prep")
VERBS: dict[str, tuple[str, ...]] = {
    "born_in": ("bear in", "bear at", "bear on", "bear near"),
    "died_in": ("die in", "die at", "die near", "pass in", "pass away in"),
    "buried_in": ("bury in", "bury at", "inter in", "inter at"),
    "located_in": ("locate in", "locate at", "locate on", "locate within", "situate in", "situate on", "situate at",
                   "lie in", "lie on", "lie within", "sit in", "sit on", "stand in", "stand on", "find in"),
    "located_near": ("locate near", "situate near", "lie near", "sit near", "stand near"),
    "headquartered_in": ("headquarter in", "headquarter at"),
    "based_in": ("base in", "base at", "operate in", "operate from"),  # "based on" a novel: influenced_by
    "comes_from": ("come from", "hail from", "originate in", "originate from"),
    "lives_in": ("live in", "live at", "reside in", "reside at", "settle in", "grow up in", "raise in"),
    "moved_to": ("transport to", "deport to", "exile to", "send to", "move to", "relocate to", "emigrate to",
                 "immigrate to", "return to", "flee to", "migrate to"),
    "part_of": ("belong to", "form part of", "include in", "merge into", "join"),  # "merged with" is mutual
    "member_of": ("serve on", "sit on", "join as"),
    "contains": ("include", "contain", "comprise", "consist of", "encompass", "house"),
    "borders": ("border", "adjoin", "neighbor", "neighbour", "surround", "border on"),
    "flows_into": ("flow into", "flow through", "empty into", "drain into", "flow to", "rise in"),
    "connects": ("connect", "link", "cross", "span", "serve", "run from", "run to", "run through", "run between"),
    "founded": ("found", "establish", "co-found", "cofound", "form", "set up", "start", "launch", "incorporate",
                "organize", "organise"),
    "created": ("create", "design", "invent", "develop", "build", "construct", "paint", "draw", "sculpt",
                "devise", "conceive", "originate", "coin"),
    "wrote": ("write", "author", "co-write", "pen", "compose", "script", "co-author", "narrate", "edit"),
    "directed": ("direct", "co-direct", "helm"),
    "produced": ("produce", "co-produce", "executive produce", "manufacture", "make by"),
    "performed": ("perform", "sing", "record", "play", "voice", "portray", "cover"),
    "stars": ("star", "co-star", "feature"),
    "founded_in": ("found in", "form in", "establish in", "found at", "establish at", "form at", "incorporate in",
                   "create in", "build in", "construct in", "open in", "launch in", "found on"),
    "starred_in": ("star in", "appear in", "co-star in", "feature in", "act in", "play in", "cast in", "appear on"),
    "released": ("release", "issue", "distribute", "publish", "broadcast", "air", "premiere", "debut"),
    "published_by": ("publish by", "release by", "release on", "issue by", "distribute by", "air on", "broadcast on",
                     "premiere on", "release through", "release under", "release via", "sign to", "record for",
                     "show on", "debut on", "publish through"),
    "released_in": ("release in", "publish in", "premiere in", "air in", "debut in", "issue in", "launch in",
                    "open in", "make debut in", "translate into", "sell in", "develop in", "make in", "show in"),
    # (a band that performs, tours or plays somewhere releases nothing there: "They play throughout Maine")
    "owns": ("own", "control"),  # to run, manage or operate a thing is to lead it, not to own it
    "acquired": ("acquire", "buy", "purchase", "take over"),
    "owned_by": ("own by", "run by", "manage by", "control by", "acquire by"),
    "leads": ("lead", "head", "chair", "command", "run", "manage", "operate", "govern", "rule", "oversee", "supervise",
              "reign", "preside over", "reign over", "captain", "coach", "conduct"),
    "succeeded": ("succeed", "replace", "follow", "supersede"),
    "preceded": ("precede", "predate"),
    "elected_to": ("elect to", "elect as", "elect in", "vote into", "nominate to"),
    "appointed_to": ("appoint to", "appoint as", "name to", "name as", "assign to", "select for", "choose for"),
    "served_in": ("serve in", "serve as", "serve with", "serve under", "serve at", "work as", "fight in",
                  "fight for", "enlist in"),  # (one "entered Harvard" as a student: "enter" is only related_to)
    "represented": ("represent", "speak for"),
    "worked_for": ("work for", "work at", "employ by", "employ at", "hire by", "sign with", "sign for",
                   "sign by", "draft by", "draft to", "trade to", "loan to", "transfer to", "recruit by",
                   "contract with", "work on"),
    "employs": ("hire", "employ", "recruit", "appoint", "draft"),
    "played_for": ("play for", "play with", "play at", "compete for", "race for", "drive for", "wrestle for"),
    "studied_at": ("study at", "study in", "study under", "educate at", "educate in", "graduate from", "attend",
                   "enrol in", "enroll in", "enrol at", "enroll at", "train at", "train in", "train under",
                   "teach by"),
    "taught_at": ("teach at", "teach in", "lecture at", "lecture in"),
    "competed_in": ("compete in", "participate in", "take part in", "play in", "race in", "enter in", "win at",
                    "compete at", "win in", "earn at",  # (not "perform at": a show at an awards night)
                    "qualify for", "represent at", "finish in"),
    "won": ("win", "earn", "claim", "clinch", "secure", "receive", "award", "gain", "achieve",
            "be awarded", "honor with", "honour with"),
    "nominated_for": ("nominate for", "shortlist for"),
    "defeated": ("defeat", "beat", "conquer", "overthrow", "eliminate", "overcome", "rout", "crush", "vanquish"),
    "attacked": ("attack", "invade", "bomb", "raid", "besiege", "occupy", "seize", "capture", "assault", "storm"),
    "fought": ("fight", "battle", "oppose", "resist", "fight against", "war with", "rebel against", "compete against",
               "protest", "challenge", "sue", "criticize", "criticise"),
    "allied_with": ("ally with", "align with", "side with", "partner with", "cooperate with", "collaborate with",
                    "team with", "support", "endorse"),  # "backed on the session by": accompanied
    "collaborated_with": ("collaborate on", "work alongside", "work with", "co-operate with", "duet with", "tour with",
                          "perform with", "record with", "sing with", "write with"),
    "married": ("marry", "wed", "divorce", "date", "engage to", "marry to"),
    "child_of": ("bear to", "adopt by", "raise by"),
    "influenced": ("influence", "inspire", "shape", "mentor", "train"),
    "influenced_by": ("influence by", "inspire by", "base on", "adapt from", "model on", "derive from",
                      "draw on", "draw from"),
    "named_after": ("name after", "name for", "name in honor of", "name in honour of", "call after", "dedicate to"),
    "known_for": ("know for", "famous for", "noted for", "best know for", "recognize for", "remember for"),
    "portrayed": ("star as", "appear as", "play as", "portray", "cast as", "voice as", "reprise", "return as"),
    "known_as": ("know as", "call", "refer to as", "nickname", "rename", "rename to", "rename as", "dub",
                 "style", "title", "call as", "change to", "also know as", "bill as"),
    "visited": ("visit", "tour", "travel to", "sail to", "fly to", "arrive in", "arrive at", "go to", "come to",
                "reach", "explore", "land in", "land on", "travel through", "sail from", "depart from"),
    "signed": ("sign", "ratify", "negotiate", "pass", "enact", "approve", "veto", "adopt", "propose",
               "introduce", "repeal", "amend"),
    "met": ("meet", "meet with", "talk with", "negotiate with", "trade with", "communicate with", "correspond with"),
    "hosted": ("host", "present", "stage", "organize by", "hold"),
    "held_in": ("hold in", "hold at", "hold on", "take place in", "take place at", "stage in", "stage at",
                "occur in", "happen in", "begin in", "end in", "set in", "shoot in", "film in", "film at",
                "record at", "record in", "open in", "celebrate in"),
    "controls": ("annex", "administer", "colonize", "colonise", "settle", "inhabit", "populate"),
    "declared": ("declare", "proclaim", "announce", "state", "say", "claim", "report", "recommend",
                 "call for", "promise", "recognize", "recognise"),  # not "asked X", "warned X": X is addressed
    "opposed": ("reject", "refuse", "deny", "condemn", "denounce"),
    "paid": ("pay", "owe", "lend", "loan", "fund", "finance", "sponsor", "donate to", "grant", "give"),
    "traded_with": ("export to", "import from", "buy from", "ship to", "supply"),
    "granted_to": ("cede to", "sell to", "transfer", "hand over to"),  # not "return": "and returning cinematographer X"
    # to identify, describe or classify a thing is not to find it ("identified by The Kennel Club as …")
    "discovered": ("discover", "find", "detect"),
    "killed": ("kill", "murder", "assassinate", "execute", "shoot", "destroy"),
    "studied": ("study", "research", "investigate", "examine", "analyze", "analyse", "report on", "cover"),
    "used_by": ("use by", "adopt by"),
    "uses": ("use", "employ", "utilize", "utilise", "adopt", "require"),
}

# label -> relational nouns ("capital of"); the noun's object is the fact's object
NOUNS: dict[str, tuple[str, ...]] = {
    "capital_of": ("capital of", "seat of", "county seat of", "administrative centre of", "administrative center of"),
    "located_in": ("city in", "town in", "village in", "suburb of", "neighborhood in", "neighbourhood of",
                   "neighbourhood in", "neighborhood of", "district of", "district in", "county in", "community in",
                   "municipality in", "region of", "region in", "area of", "area in", "island in", "island of",
                   "river in", "mountain in", "lake in", "province of", "state of", "commune in", "hamlet in",
                   "locality in", "settlement in", "borough of", "borough in", "census-designated place in",
                   "place in", "city of", "town of", "village of", "station in", "building in", "park in",
                   "museum in", "airport in", "stadium in", "school in", "church in", "castle in", "bridge in",
                   "street in", "road in", "peninsula of", "valley in", "county of", "unincorporated community in",
                   "township in", "parish in", "resort in", "port in", "harbour in", "harbor in"),
    "part_of": ("part of", "branch of", "division of", "subsidiary of", "section of", "unit of", "department of",
                "component of", "episode of", "single from", "track from", "song from", "chapter of",
                "volume of", "spin-off of", "installment in", "instalment in",
                "installment of", "edition of", "season of", "stage of", "round of", "genus of", "species of",
                "family of", "subfamily of", "tributary of"),
    "member_of": ("member of", "founding member of", "player for", "player of", "fellow of",
                  "vocalist of", "guitarist of", "drummer of", "bassist of", "singer of", "frontman of",
                  "lead singer of", "keyboardist of", "part-owner of", "partner in"),
    "leads": ("leader of", "head of", "chief of", "commander of", "captain of", "coach of", "manager of",
              "governor of", "mayor of", "director of", "chairman of", "chair of", "chairwoman of", "ruler of", "dictator of", "tyrant of",
              "editor-in-chief of", "chief editor of", "principal of", "dean of", "conductor of", "bishop of", "archbishop of", "abbot of",
              "general of", "admiral of", "head coach of", "lord of", "duke of", "earl of", "count of",
              "prince of", "emperor of", "pharaoh of", "sultan of", "chancellor of", "premier of", "speaker of",
              "secretary-general of", "leader in", "founder and leader of"),
    "comes_from": ("native of",),  # "a native of Esmond, North Dakota" was born or raised there, not based there
    "lives_in": ("resident of", "inhabitant of"),
    # "Member of Parliament for Oldham"; "a United States Representative from Maine" represents it, no member of it
    "represented": ("member for", "mp for", "senator for", "representative for", "senator from", "representative from",
                    "delegate from", "congressman from", "congresswoman from"),
    "ceo_of": ("ceo of", "chief executive of", "chief executive officer of", "executive of"),
    "president_of": ("president of",),
    "prime_minister_of": ("prime minister of",),
    "king_of": ("king of", "queen of", "monarch of", "sovereign of", "tsar of", "czar of", "shah of"),
    "secretary_of": ("secretary of", "minister of", "minister for"),
    "founded": ("founder of", "co-founder of", "cofounder of", "creator of", "inventor of", "architect of",
                "designer of", "developer of"),
    "founded_by": ("founded by",),
    "created": ("painting by", "work by", "novel by", "book by", "poem by", "song by", "film by", "play by",
                "opera by", "sculpture by", "composition by", "game by", "series by", "short story by",
                "comic by", "manga by", "essay by", "building by", "design by", "single by", "album of"),
    "wrote": ("author of", "writer of", "composer of", "co-writer of", "screenwriter of", "lyricist of",
              "librettist of", "poet of"),
    "directed": ("director of",),
    "produced": ("producer of", "manufacturer of", "maker of"),
    "child_of": ("son of", "daughter of", "child of", "heir of", "heir to", "stepson of", "stepdaughter of"),
    "descendant_of": ("grandson of", "granddaughter of", "grandchild of", "descendant of", "heiress of"),
    # (a grandchild is no child: "a great-great-granddaughter of Martha Washington" descends from her)
    "parent_of": ("father of", "mother of", "parent of", "grandfather of", "grandmother of"),
    "sibling_of": ("brother of", "sister of", "sibling of", "half-brother of", "half-sister of", "twin of"),
    "married": ("wife of", "husband of", "spouse of", "widow of", "widower of", "consort of", "partner of"),
    "worked_for": ("employee of", "professor at", "lecturer at", "researcher at", "scientist at",
                   "journalist for", "correspondent for", "columnist for", "analyst for", "commentator for",
                   "reporter for", "writer for", "editor at", "editor of", "ambassador to", "envoy to", "adviser to",
                   "advisor to", "aide to", "assistant to", "consultant to", "employee at", "official in"),
    # (an editor works for a paper; its editor-in-chief leads it: "New Yorker Magazine editor Katharine White";
    # a "professor of Landscape Architecture" professes a field, and works where "at" says)
    "studied_at": ("graduate of", "alumnus of", "alumna of", "student at", "student of", "pupil of"),
    "owned_by": ("subsidiary of", "property of", "brand of", "label of", "imprint of"),
    "owns": ("owner of", "proprietor of"),
    "named_after": ("namesake of",),
    "successor_of": ("successor to", "successor of", "sequel to", "sequel of"),  # a sequel follows its first work
    "predecessor_of": ("predecessor of", "predecessor to", "prequel to", "prequel of"),
    "won": ("winner of", "recipient of", "champion of", "laureate of"),
    "nominated_for": ("nomination for", "nominee for", "candidate for"),  # a candidate is no member of the seat
    "held_in": ("edition in", "event in", "tournament in", "festival in", "battle of", "siege of"),
    "competed_in": ("participant in", "contestant on", "contestant in", "finalist in", "competitor in"),
    "depicts": ("film about", "biopic about", "book about", "documentary about", "novel about", "song about",
                "story about", "series about", "play about", "poem about", "painting of", "portrait of", "statue of",
                "memoir about", "study of", "history of", "account of"),
    "home_of": ("home of", "home to", "birthplace of", "site of", "venue of", "host of"),
    "allied_with": ("ally of", "supporter of", "friend of", "associate of", "protégé of", "protege of"),
    "fought": ("rival of", "enemy of", "opponent of", "critic of"),
    "influenced_by": ("adaptation of", "remake of", "version of", "cover of", "parody of", "biography of"),
}

# What a label's two ends are, where the label says it: (subject kind, object kind), None for either.
# An entity the tagger typed otherwise, and no class of the text typed, takes the kind its facts give it.
ARGUMENT_KINDS: dict[str, tuple[str | None, str | None]] = {
    "stars": (None, "PERSON"), "starred_in": ("PERSON", None), "directed": ("PERSON", None),
    "born_in": ("PERSON", "GPE"), "died_in": ("PERSON", "GPE"), "buried_in": ("PERSON", None),
    "married": ("PERSON", "PERSON"), "child_of": ("PERSON", "PERSON"), "parent_of": ("PERSON", "PERSON"),
    "sibling_of": ("PERSON", "PERSON"), "played_for": ("PERSON", "ORG"), "studied_at": ("PERSON", None),
    "capital_of": ("GPE", "GPE"), "portrayed": ("PERSON", "PERSON"), "wrote": (None, "WORK_OF_ART"),
    "president_of": ("PERSON", None), "prime_minister_of": ("PERSON", "GPE"), "king_of": ("PERSON", "GPE"),
    "ceo_of": ("PERSON", "ORG"),
}

# Events of a moment: a date after "until" ends another clause's state ("founded and ran X until 1997"), not these
POINT_EVENTS = {"born_in", "died_in", "buried_in", "founded", "founded_in", "founded_by", "acquired", "released",
                "released_in", "won", "nominated_for", "killed", "discovered"}

# Adjectival nationality ("an American actor"): the NORP names where the subject comes from.
NATIONALITY = "nationality"
RELIGION = "religion"  # a faith the text gives as an adjective ("an evangelical Christian institution")
FAITHS = {"christian", "catholic", "roman catholic", "protestant", "anglican", "baptist", "methodist", "lutheran",
          "presbyterian", "evangelical", "orthodox", "muslim", "islamic", "sunni", "shia", "shiite", "jewish",
          "hindu", "buddhist", "sikh", "jain", "mormon", "quaker", "episcopal", "episcopalian", "pentecostal",
          "calvinist", "zoroastrian", "taoist", "confucian", "shinto", "adventist", "mennonite", "amish"}
INSTANCE_OF = "instance_of"  # a topic's class, when the text relates it to no named thing
TOOK_PART_IN = "took_part_in"  # an event that modifies the subject's class ("a World War I flying ace")
# A subject's stated class ("X is a band") gives no fact; it types the subject (see classes.CLASS_TYPES).

LABELS: tuple[str, ...] = tuple(sorted({*VERBS, *NOUNS, NATIONALITY, RELIGION, TOOK_PART_IN, INSTANCE_OF, RELATED_TO}))

_VERB_INDEX: dict[str, str] = {}
for _label, _triggers in VERBS.items():
    for _t in _triggers:
        _VERB_INDEX.setdefault(_t, _label)
_NOUN_INDEX: dict[str, str] = {}
for _label, _triggers in NOUNS.items():
    for _t in _triggers:
        _NOUN_INDEX.setdefault(_t, _label)


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace("_", " ")).strip()


def verb_label(lemma: str, prep: str | None = None, particle: str = "") -> str:
    """The label of a verb (its lemma, particle and the preposition that introduces the object)."""
    base = _clean(f"{lemma} {particle}")
    if prep:
        for key in (f"{base} {_clean(prep)}", f"{_clean(lemma)} {_clean(prep)}"):
            if key in _VERB_INDEX:
                return _VERB_INDEX[key]
    if base in _VERB_INDEX and not prep:
        return _VERB_INDEX[base]
    if prep is None:
        return _VERB_INDEX.get(_clean(lemma), RELATED_TO)
    return RELATED_TO


def noun_label(noun: str, prep: str) -> str | None:
    """The label of a relational noun with its preposition ("capital of"), or None when it is not one."""
    words = _clean(noun).split(" ")
    for k in range(len(words)):  # the longest known ending: "a previous Prime Minister of" is a prime minister
        key = f"{' '.join(words[k:])} {_clean(prep)}"
        if key in _NOUN_INDEX:
            return _NOUN_INDEX[key]
    return None


def canonical(raw: str) -> str:
    """A label for a phrase given whole ("located in", "CEO of", "ceo_of"): for the LLM path and old labels."""
    text = _clean(raw)
    if text.replace(" ", "_") in LABELS:
        return text.replace(" ", "_")
    words = text.split(" ")
    if len(words) >= 2:
        head, prep = " ".join(words[:-1]), words[-1]
        found = noun_label(head, prep)
        if found:
            return found
        label = verb_label(_lemma_guess(head), prep)
        if label != RELATED_TO:
            return label
    label = verb_label(_lemma_guess(text))
    return label


def _lemma_guess(text: str) -> str:
    """A rough lemma for a phrase from an LLM ("located", "was born", "founded"): strip auxiliaries and endings."""
    words = [w for w in text.split(" ") if w not in {"is", "was", "were", "are", "be", "been", "has", "had", "have"}]
    if not words:
        return text
    verb = words[0]
    for suffix, repl in (("ied", "y"), ("ed", ""), ("ing", ""), ("es", ""), ("s", "")):
        if verb.endswith(suffix) and len(verb) > len(suffix) + 2:
            stem = verb[: -len(suffix)] + repl
            if stem in _KNOWN_LEMMAS:
                verb = stem
                break
            if stem + "e" in _KNOWN_LEMMAS:
                verb = stem + "e"
                break
    if verb == "born":
        verb = "bear"
    return " ".join([verb, *words[1:]])


_KNOWN_LEMMAS = {t.split(" ")[0] for t in _VERB_INDEX}
