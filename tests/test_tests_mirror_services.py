"""The test tree mirrors services/ (docs/testing.md): each sub-package ``services/<pkg>`` has its folder
``tests/services/<pkg>/`` with at least one test, tests/services has no folder for a package that does not exist,
and no top-level family of tests/ is named after a service package (its tests belong in tests/services/<pkg>)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUBPACKAGES = sorted(p for p in (ROOT / "services").iterdir() if (p / "__init__.py").is_file())
TEST_FOLDERS = sorted(p for p in (ROOT / "tests" / "services").iterdir() if p.is_dir() and p.name != "__pycache__")


def _test_functions(path: Path) -> list[str]:
    """Names of the module-level test functions of a file, and of the test methods of its Test classes."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            found.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            found += [f"{node.name}.{n.name}" for n in node.body
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")]
    return found


def test_the_walk_sees_the_packages_and_their_folders():
    assert {"graph", "ingest", "retrieval", "stores"} <= {p.name for p in SUBPACKAGES}
    assert {"graph", "ingest", "retrieval", "stores"} <= {p.name for p in TEST_FOLDERS}


@pytest.mark.parametrize("package", SUBPACKAGES, ids=lambda p: p.name)
def test_each_service_package_has_a_test_folder_with_a_test(package: Path):
    folder = ROOT / "tests" / "services" / package.name
    assert folder.is_dir(), f"services/{package.name} has no tests/services/{package.name}/ folder"
    assert (folder / "__init__.py").is_file(), f"tests/services/{package.name}/ needs an __init__.py"
    tests = {f.name: _test_functions(f) for f in sorted(folder.rglob("test_*.py"))}
    assert any(tests.values()), f"tests/services/{package.name}/ holds no test ({sorted(tests) or 'no test_*.py'})"


@pytest.mark.parametrize("folder", TEST_FOLDERS, ids=lambda p: p.name)
def test_each_test_folder_names_a_service_package(folder: Path):
    assert (ROOT / "services" / folder.name / "__init__.py").is_file(), (
        f"tests/services/{folder.name}/ mirrors no services/{folder.name}/ package")


def test_no_top_level_test_family_is_named_after_a_service_package():
    families = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir()}
    clashes = sorted(families & {p.name for p in SUBPACKAGES})
    assert not clashes, f"tests/{clashes[0]}/ belongs in tests/services/{clashes[0]}/"


def test_the_test_finder_counts_functions_and_methods(tmp_path: Path):
    sample = tmp_path / "test_sample.py"
    sample.write_text("def helper(): ...\ndef test_a(): ...\nasync def test_b(): ...\n"
                      "class TestC:\n    def test_d(self): ...\n    def setup_method(self): ...\n", encoding="utf-8")
    assert _test_functions(sample) == ["test_a", "test_b", "TestC.test_d"]
    (tmp_path / "test_empty.py").write_text("X = 1\n", encoding="utf-8")
    assert _test_functions(tmp_path / "test_empty.py") == []


_ROOT_LINE = re.compile(r"^ROOT = Path\(__file__\)\.resolve\(\)\.parents\[(\d+)\]$", re.M)


def _root_claims() -> list[tuple[str, Path]]:
    """Each test module's ``ROOT = Path(__file__).resolve().parents[n]`` and the folder it names."""
    claims = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for found in _ROOT_LINE.finditer(path.read_text(encoding="utf-8")):
            claims.append((str(path.relative_to(ROOT)), path.resolve().parents[int(found.group(1))]))
    return claims


def test_every_tests_root_is_the_repository():
    """A test moved one folder deeper keeps its ``parents[n]``: its subprocesses then start in tests/, where
    ``import services`` finds tests/services (CI failed on that once, in tests/services/graph/test_nlp.py)."""
    claims = _root_claims()
    assert len(claims) >= 20
    wrong = [name for name, root in claims if root != ROOT]
    assert not wrong, f"ROOT is not the repository root in {wrong}"
