"""Home says which other workbench processes share its stores, and that the embedded ones outlive the app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.utils.app import open_page
from tests.utils.rendered import rendered_text

ROOT = Path(__file__).resolve().parents[2]


def test_home_names_the_other_processes_on_the_same_stores(services):
    alone = rendered_text(open_page("home"))
    assert "hold_stores.py" not in alone
    holder = subprocess.Popen([sys.executable, "-m", "tests.utils.hold_stores"], cwd=ROOT, env=dict(os.environ),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "READY"
        text = rendered_text(open_page("home"))
    finally:
        holder.stdin.close()
        holder.wait(timeout=120)
    assert f"hold_stores.py pid {holder.pid}" in text
    assert "Shared with" in text and "other process(es)" in text
    if services.settings.uses_embedded_postgres:
        assert "The embedded servers keep running after the app exits (`rag stores status`, `rag stores stop`)." in text
