"""Layering rules, checked on the source with ast.

- services never import the UI; components never import pages;
- the service sub-packages import one another one way only (no import circles between units);
- no import circle between any two modules of the project (imports inside functions count too), and
  no import that runs back up a layer (pages -> components -> services; cli and mcp_server over services);
- nothing imports Streamlit's private ``streamlit.runtime``;
- every page file only defines ``render()`` and ends with ``serve(render)`` (the gate cannot be skipped), and its
  render() stays under 60 lines (the parts are components).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _py_files(folder: str) -> list[Path]:
    """Every Python file under ``folder``, sub-packages included."""
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files, f"no Python files found in {folder}/"
    return files


def _imported_modules(path: Path, *, typing_only: bool = True) -> set[str]:
    """Full dotted names of the modules a file imports absolutely (``from a.b import c`` gives a.b and a.b.c).

    ``typing_only=False`` leaves out imports under ``if TYPE_CHECKING:`` (they never run).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    if not typing_only:
        tree.body = [n for n in tree.body if not (isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


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


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", _py_files("services"), ids=_rel)
def test_services_do_not_import_the_ui(path: Path):
    forbidden = _imported_roots(path) & {"streamlit", "components", "pages", "cli", "mcp_server"}
    assert not forbidden, f"{_rel(path)} imports {sorted(forbidden)}"


def _unit(module: str) -> str | None:
    """The unit a services module belongs to: its sub-package (services.graph), or itself at the top."""
    parts = module.split(".")
    if parts[0] != "services" or len(parts) < 2:
        return None
    return ".".join(parts[:2])


def _unit_graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in _py_files("services"):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        src = _unit(mod)
        for target in _imported_modules(path, typing_only=False):
            dst = _unit(target)
            if src and dst and dst != src and (ROOT / Path(*dst.split("."))).exists() | (
                    ROOT / (Path(*dst.split(".")).as_posix() + ".py")).exists():
                edges.setdefault(src, set()).add(dst)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one unit (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_service_units_import_one_way():
    """No import circle between the service units (a sub-package, or a module at the top of services/)."""
    edges = _unit_graph()
    assert edges, "the import walker found no edges"
    assert _cycles(edges) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("folder", ["services", "components", "pages", "cli", "mcp_server", "scripts"])
def test_nothing_imports_streamlit_private_runtime(folder: str):
    offenders = [_rel(p) for p in _py_files(folder) if any(
        m == "streamlit.runtime" or m.startswith("streamlit.runtime.") for m in _imported_modules(p))]
    offenders += [_rel(p) for p in _py_files(folder) if "streamlit.runtime" in p.read_text(encoding="utf-8")]
    assert not offenders, f"{sorted(set(offenders))} use streamlit.runtime (private API)"


def test_home_does_not_use_streamlit_private_runtime():
    assert "streamlit.runtime" not in (ROOT / "Home.py").read_text(encoding="utf-8")


_PAGE_FILES = sorted((ROOT / "pages").glob("*.py"))


@pytest.mark.parametrize("path", _PAGE_FILES, ids=lambda p: p.name)
def test_page_files_draw_only_through_the_app_shell(path: Path):
    """A page's content is in render(), which only serve(render), the last statement, may call."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    body = tree.body
    last = body[-1]
    assert (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
            and getattr(last.value.func, "id", "") == "serve"
            and [getattr(a, "id", "") for a in last.value.args] == ["render"]), f"{path.name} must end with serve(render)"
    for node in body[:-1]:
        allowed = isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)) or (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))  # the docstring
        allowed = allowed or (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(
            getattr(node, "value", None), ast.Constant))  # a constant
        assert allowed, f"{path.name} line {node.lineno}: only imports, constants and definitions at module level"
    assert any(isinstance(n, ast.FunctionDef) and n.name == "render" for n in body), f"{path.name} has no render()"


@pytest.mark.parametrize("path", _py_files("components"), ids=_rel)
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


def _any_collaborators(path: Path) -> list[str]:
    """``__init__`` parameters of classes annotated ``Any`` (or ``Any | None``): collaborators mypy cannot check."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"):
            for arg in [*fn.args.args, *fn.args.kwonlyargs]:
                text = ast.unparse(arg.annotation) if arg.annotation is not None else ""
                if {p.strip() for p in text.split("|")} & {"Any"}:
                    found.append(f"{cls.name}({arg.arg}: {text})")
    return found


@pytest.mark.parametrize("path", _py_files("services"), ids=_rel)
def test_service_collaborators_have_real_types(path: Path):
    assert not _any_collaborators(path), f"{_rel(path)}: {_any_collaborators(path)}"


def test_the_any_collaborator_check_finds_them(tmp_path: Path):
    sample = tmp_path / "svc.py"
    sample.write_text("class S:\n    def __init__(self, *, graph: Any | None, llm: LLM, **kw: Any) -> None: ...\n")
    assert _any_collaborators(sample) == ["S(graph: Any | None)"]


# --- Import circles between modules, and imports up a layer ---------------------------------------

_PACKAGES = ("services", "components", "pages", "cli", "mcp_server")

# Circles between modules that are known and accepted, each with its reason. Empty: there are none.
_ALLOWED_MODULE_CIRCLES: list[list[str]] = []


def _module_name(path: Path, root: Path = ROOT) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def _project_module(dotted: str, root: Path = ROOT) -> str | None:
    """``dotted`` if it names a module or package under ``root``, else None."""
    base = root / Path(*dotted.split("."))
    return dotted if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file() else None


def _module_imports(path: Path, root: Path = ROOT) -> set[str]:
    """The project modules a file imports, at module level or inside functions (``TYPE_CHECKING`` blocks
    left out: they never run). ``from a.b import c`` counts as a.b.c when c is a module, else as a.b;
    relative imports are resolved against the file's package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = {id(n) for top in ast.walk(tree) if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
            for n in ast.walk(top)}
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names = [f"{base}.{alias.name}" if _project_module(f"{base}.{alias.name}", root) else base
                     for alias in node.names]
        else:
            continue
        found.update(m for m in (_project_module(name, root) for name in names) if m)
    return found


def _module_graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for folder in _PACKAGES:
        for path in _py_files(folder):
            src = _module_name(path)
            edges[src] = {dst for dst in _module_imports(path) if dst != src}
    return edges


def test_the_module_walker_sees_function_level_and_relative_imports(tmp_path: Path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for name in ("__init__.py", "a.py", "b.py", "c.py", "sub/__init__.py", "sub/d.py"):
        (pkg / name).write_text("", encoding="utf-8")
    (pkg / "a.py").write_text(
        "import os\nfrom typing import TYPE_CHECKING\nfrom pkg.b import thing\nif TYPE_CHECKING:\n"
        "    import pkg.c\ndef f():\n    from .sub import d\n    from pkg import sub\n", encoding="utf-8")
    (pkg / "sub" / "d.py").write_text("from ..c import x\n", encoding="utf-8")
    assert _module_imports(pkg / "a.py", tmp_path) == {"pkg.b", "pkg.sub.d", "pkg.sub"}
    assert _module_imports(pkg / "sub" / "d.py", tmp_path) == {"pkg.c"}


def test_no_import_circles_between_modules():
    """Every import, at module level or inside a function, runs one way between the project's modules."""
    edges = _module_graph()
    assert sum(map(len, edges.values())) > 100, "the module walker found too few imports"
    circles = [c for c in _cycles(edges) if c not in _ALLOWED_MODULE_CIRCLES]
    assert circles == [], f"import circles between modules: {circles}"


# Which top-level packages each layer may not import (the layers run pages -> components -> services;
# cli and mcp_server are adapters over services, and the MCP server does not borrow from the CLI).
_UP_A_LAYER = {
    "services": {"streamlit", "components", "pages", "cli", "mcp_server"},
    "components": {"pages", "cli", "mcp_server"},
    "cli": {"streamlit", "components", "pages"},
    "mcp_server": {"streamlit", "components", "pages", "cli"},
}


@pytest.mark.parametrize("layer", sorted(_UP_A_LAYER))
def test_no_import_runs_back_up_a_layer(layer: str):
    offenders = {_rel(p): sorted(_imported_roots(p) & _UP_A_LAYER[layer]) for p in _py_files(layer)}
    offenders = {k: v for k, v in offenders.items() if v}
    assert not offenders, f"{layer}/ imports a layer above it: {offenders}"


# --- Each service sub-package says what it is and what it may import ----------------------------------

_SUBPACKAGES = sorted(p.parent for p in (ROOT / "services").glob("*/__init__.py"))


def _declared_imports(docstring: str) -> set[str]:
    """The units named in backticks after "May import:" in a package docstring."""
    _, found, declared = docstring.partition("May import:")
    assert found, "the docstring has no 'May import:' list"
    names = set(re.findall(r"`(services(?:\.\w+)?)`", declared))
    assert names, "the 'May import:' list names no unit"
    return names


@pytest.mark.parametrize("package", _SUBPACKAGES, ids=lambda p: p.name)
def test_each_service_subpackage_says_what_it_is_and_may_import(package: Path):
    """A paragraph on what lives there, and a "May import:" list that its modules keep to."""
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    what = docstring.partition("May import:")[0]
    assert len(what.split()) >= 25, f"services/{package.name}/__init__.py needs a paragraph on what lives there"
    declared = _declared_imports(docstring)
    assert all(_project_module(name) for name in declared), f"unknown units in {sorted(declared)}"
    used = _unit_graph().get(f"services.{package.name}", set())
    undeclared = sorted(used - declared)
    assert not undeclared, f"services/{package.name} imports {undeclared}, not in its docstring's 'May import:'"


RENDER_LINES = 60


@pytest.mark.parametrize("path", _PAGE_FILES, ids=lambda p: p.name)
def test_page_render_stays_thin(path: Path):
    """A page's render() lays the page out; its parts live in components/ and the work in services/."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    render = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "render")
    lines = render.end_lineno - render.lineno + 1
    assert lines <= RENDER_LINES, f"{path.name} render() is {lines} lines: move its parts into components/"
