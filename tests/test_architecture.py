"""Layering rules, checked on the source with ast: services never import the UI; components never import pages."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _py_files(folder: str) -> list[Path]:
    files = sorted((ROOT / folder).glob("*.py"))
    assert files, f"no Python files found in {folder}/"
    return files


def _imported_roots(path: Path) -> set[str]:
    """Top-level names of every module a file imports (absolute imports; relative ones count as local)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                roots.add(node.module.split(".")[0])
            elif node.level > 0:
                # "from .. import pages" / "from ..pages import x" inside a package
                target = (node.module or "").split(".")[0]
                roots.update({target} if target else {alias.name.split(".")[0] for alias in node.names})
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module", "__import__"
        ):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                roots.add(node.args[0].value.split(".")[0])
    return roots


def test_import_walker_sees_all_forms(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os.path\nimport streamlit as st\nfrom components.x import y\n"
        "def f():\n    import pages.search\n    from importlib import import_module\n"
        "    import_module('streamlit.runtime')\n",
        encoding="utf-8",
    )
    assert {"os", "streamlit", "components", "pages", "importlib"} <= _imported_roots(sample)


@pytest.mark.parametrize("path", _py_files("services"), ids=lambda p: p.name)
def test_services_do_not_import_the_ui(path: Path):
    forbidden = _imported_roots(path) & {"streamlit", "components", "pages"}
    assert not forbidden, f"services/{path.name} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", _py_files("components"), ids=lambda p: p.name)
def test_components_do_not_import_pages(path: Path):
    assert "pages" not in _imported_roots(path), f"components/{path.name} imports pages"


def _unsafe_html_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "unsafe_allow_html" and not (
                    isinstance(kw.value, ast.Constant) and kw.value.value is False
                ):
                    lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("folder", ["services", "components", "pages"])
def test_no_unsafe_allow_html(folder: str):
    offenders = {}
    for path in _py_files(folder):
        text = path.read_text(encoding="utf-8")
        calls = _unsafe_html_calls(path)
        if calls or "unsafe_allow_html=True" in text.replace(" ", ""):
            offenders[path.name] = calls
    assert not offenders, f"unsafe_allow_html used in {folder}/: {offenders}"


def test_unsafe_html_detector_finds_calls(tmp_path: Path):
    sample = tmp_path / "page.py"
    sample.write_text(
        "import streamlit as st\nst.markdown('<b>x</b>', unsafe_allow_html=True)\n"
        "st.markdown('ok')\nst.markdown('ok', unsafe_allow_html=False)\nflag = True\n"
        "st.html('y', unsafe_allow_html=flag)\n",
        encoding="utf-8",
    )
    assert _unsafe_html_calls(sample) == [2, 6]
