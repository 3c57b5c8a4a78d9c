"""Write services/graph/data/common_words.txt: English words written more often in lower case than capitalised.

    pip download --no-deps spacy-lookups-data==1.0.5 -d /tmp/sld && unzip -o /tmp/sld/*.whl \
        'spacy_lookups_data/data/en_lexeme_prob.json.gz' -d /tmp/sld
    python scripts/make_common_words.py /tmp/sld/spacy_lookups_data/data/en_lexeme_prob.json.gz

The source is spaCy's English word log-probabilities in spacy-lookups-data 1.0.5 (MIT). A word is kept when its
lower-case form is at least as frequent as its capitalised one and more frequent than e^-17. The app reads the
list (services/graph/type_evidence.py: "Guitar Legends" starts with a common word, "Ridley Scott" does not); it
does not need the package.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

THRESHOLD = -17.0
OUT = Path(__file__).resolve().parents[1] / "services" / "graph" / "data" / "common_words.txt"


def main() -> int:
    probs: dict[str, float] = json.loads(gzip.open(sys.argv[1]).read())
    words = sorted(w for w, p in probs.items() if w.isalpha() and w.islower() and len(w) > 1 and p > THRESHOLD
                   and p >= probs.get(w.capitalize(), -25.0))
    header = ["# English words written at least as often in lower case as capitalised (log-probability > -17),",
              "# from spaCy's en_lexeme_prob in spacy-lookups-data 1.0.5 (MIT). Made by scripts/make_common_words.py."]
    OUT.write_text("\n".join(header + words) + "\n", encoding="utf-8")
    print(f"{len(words)} words -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
