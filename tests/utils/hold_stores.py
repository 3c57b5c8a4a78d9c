"""A stand-in for another workbench process: connects to the configured stores and holds on until stdin closes.

``python -m tests.utils.hold_stores`` prints ``READY`` once its connection is open; its
``application_name`` names it ``hold_stores.py pid <pid>`` like any app, CLI or MCP process.
"""

from __future__ import annotations

import sys

from services.settings import get_settings
from services.stores.postgres import create_db_engine

if __name__ == "__main__":
    engine = create_db_engine(get_settings())
    with engine.connect():
        print("READY", flush=True)
        sys.stdin.read()
    engine.dispose()
