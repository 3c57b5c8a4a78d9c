"""spaCy loaded without its command line (services/graph/nlp.py): the same pipeline, the same parses, and
``spacy.info`` and ``spacy.cli`` still there for anyone who asks. Each check runs in a new interpreter, where
spaCy is imported for the first time (in this test process another test may have imported it already)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from services.settings import get_settings

ROOT = Path(__file__).resolve().parents[3]
TEXT = "In 1998 Ada Chen became CEO of Acme Corp. in Springfield, and she said it would grow."
PARSE = """
import json, sys
{load}
doc = nlp({text!r})
print(json.dumps({{"parse": [[t.text, t.tag_, t.dep_, t.head.i, t.lemma_, t.ent_type_] for t in doc],
                  "cli": sorted(m for m in sys.modules if m.startswith(("spacy.cli", "typer", "weasel"))),
                  "pipes": nlp.pipe_names}}))
"""
OURS = "from services.graph.nlp import load_spacy\nnlp = load_spacy({model!r})"
PLAIN = "import spacy\nnlp = spacy.load({model!r}, disable=['textcat'])"


def _run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ}, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_pipeline_parses_as_spacy_loaded_plainly_does():
    model = get_settings().spacy_model
    ours = _run(PARSE.format(load=OURS.format(model=model), text=TEXT))
    plain = _run(PARSE.format(load=PLAIN.format(model=model), text=TEXT))
    assert ours["parse"] == plain["parse"] and ours["pipes"] == plain["pipes"]
    assert ours["cli"] == [] and "spacy.cli" in plain["cli"]  # the command line was left out, and only that


def test_spacys_command_line_is_still_there_when_asked_for():
    code = f"""
import json, sys
from services.graph.nlp import load_spacy
load_spacy({get_settings().spacy_model!r})
import spacy
info = spacy.info(markdown=False, silent=True)
import spacy.cli
print(json.dumps({{"version": info["spacy_version"], "download": callable(spacy.cli.download)}}))
"""
    found = _run(code)
    import spacy

    assert found == {"version": spacy.__version__, "download": True}
