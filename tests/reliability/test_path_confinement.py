"""Directory ingest stays inside ``allowed_roots``: traversal, symlinked directories and files, sidecars.

The settings are a copy of the session's with ``allowed_roots`` set, passed to the
real request builders (the Ingest page, the CLI and MCP call the same ones).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from services.errors import ValidationFailed
from services.ingest.requests import describe_directory, directory_request, files_request

SECRET = "The vault combination is 31-07-1984 and nobody outside may read it."


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """An allowed root with ordinary files, and a secret folder beside it (outside the root)."""
    root, outside = tmp_path / "allowed", tmp_path / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (root / "docs" / "harbour.md").write_text("# Harbour\n\nTugboats guide the ferry into the berth.")
    (outside / "secret.md").write_text(SECRET)
    (tmp_path / "allowed-evil").mkdir()
    (tmp_path / "allowed-evil" / "evil.md").write_text("A sibling folder whose name starts like the root.")
    return {"root": root, "outside": outside, "base": tmp_path}


@pytest.fixture
def confined(services, tree):
    return services.settings.model_copy(update={"allowed_roots": [tree["root"]]})


@pytest.mark.parametrize("path", [
    "{root}/../outside", "{root}/docs/../../outside", "{outside}", "{base}/allowed-evil", "/", "~", "/etc",
], ids=["dotdot", "dotdot-nested", "absolute-outside", "sibling-prefix", "filesystem-root", "home", "etc"])
def test_paths_outside_the_allowed_roots_are_refused(services, collection, tree, confined, path):
    path = path.format(**{k: str(v) for k, v in tree.items()})
    with pytest.raises(ValidationFailed, match="outside the allowed directories"):
        directory_request(collection, path, settings=confined)
    with pytest.raises(ValidationFailed, match="outside the allowed directories"):
        describe_directory(path, settings=confined)


def test_a_symlinked_directory_pointing_out_of_the_root_is_refused(services, collection, tree, confined):
    link = tree["root"] / "escape"
    link.symlink_to(tree["outside"], target_is_directory=True)
    with pytest.raises(ValidationFailed, match="outside the allowed directories"):
        directory_request(collection, str(link), settings=confined)
    # Walking the root itself does not descend into the link either.
    request = directory_request(collection, str(tree["root"]), settings=confined)
    assert [i.title for i in request.items] == ["docs/harbour.md"]


def _secret_is_absent(services, collection) -> None:
    hits = services.search.search("vault combination", collections=[collection], mode="keyword").hits
    assert hits == []
    with services.engine.connect() as conn:
        import sqlalchemy as sa

        assert conn.execute(sa.text("SELECT count(*) FROM documents WHERE content LIKE '%vault combination%'")
                            ).scalar_one() == 0


def test_a_symlinked_file_pointing_out_of_the_root_is_skipped_unread(services, collection, tree, confined):
    (tree["root"] / "docs" / "innocent.md").symlink_to(tree["outside"] / "secret.md")
    (tree["root"] / "docs" / "passwd.md").symlink_to("/etc/passwd")
    request = directory_request(collection, str(tree["root"]), settings=confined)
    preview = describe_directory(str(tree["root"]), settings=confined)
    assert preview["matched"] == 3 and preview["supported"] == 1
    result = services.ingestion.run(request)
    by_title = {i["title"]: i for i in result.items}
    assert by_title["docs/harbour.md"]["status"] == "ingested"
    for name in ("docs/innocent.md", "docs/passwd.md"):
        assert by_title[name]["status"] == "skipped"
        assert by_title[name]["reason"].startswith("a link that points outside")
    _secret_is_absent(services, collection)


def test_symlinked_file_out_of_the_folder_is_skipped_even_without_allowed_roots(services, collection, tree):
    (tree["root"] / "docs" / "innocent.md").symlink_to(tree["outside"] / "secret.md")
    assert services.settings.allowed_roots == []
    result = services.ingestion.run(directory_request(collection, str(tree["root"]), settings=services.settings))
    assert {i["title"]: i["status"] for i in result.items} == {"docs/harbour.md": "ingested",
                                                               "docs/innocent.md": "skipped"}
    _secret_is_absent(services, collection)


def test_a_symlink_inside_the_root_and_a_link_loop_are_handled(services, collection, tree, confined):
    (tree["root"] / "alias.md").symlink_to(tree["root"] / "docs" / "harbour.md")
    (tree["root"] / "loop-a.md").symlink_to(tree["root"] / "loop-b.md")
    (tree["root"] / "loop-b.md").symlink_to(tree["root"] / "loop-a.md")
    os.mkfifo(tree["root"] / "pipe.md")  # reading a FIFO would block forever
    result = services.ingestion.run(directory_request(collection, str(tree["root"]), settings=confined))
    by_title = {i["title"]: i for i in result.items}
    assert set(by_title) == {"alias.md", "docs/harbour.md"}  # loops and the FIFO are not files
    assert by_title["alias.md"]["status"] == "ingested"
    assert by_title["docs/harbour.md"]["status"] == "skipped"
    # The dedup check runs before the previous item is written, so the constraint may catch it instead.
    assert re.search("Identical content|same title or content", by_title["docs/harbour.md"]["reason"])


def test_a_symlinked_sidecar_pointing_out_of_the_root_is_not_read(services, collection, tree, confined):
    (tree["outside"] / "metadata.csv").write_text("file,leak\ndocs/harbour.md,SECRET-FROM-OUTSIDE\n")
    (tree["root"] / "metadata.csv").symlink_to(tree["outside"] / "metadata.csv")
    with pytest.raises(ValidationFailed, match="metadata.csv is a link that points outside"):
        directory_request(collection, str(tree["root"]), settings=confined)
    request = directory_request(collection, str(tree["root"]), settings=confined, use_sidecar=False)
    assert all("leak" not in i.metadata for i in request.items)


def test_an_upload_name_with_a_path_is_reduced_to_its_file_name(services, collection):
    request = files_request(collection, [("../../etc/passwd.txt", b"only the words of this upload")],
                            settings=services.settings)
    [item] = request.items
    assert item.title == "passwd.txt" and item.source == "upload:passwd.txt"
    result = services.ingestion.run(request)
    assert result.items[0]["status"] == "ingested"
    doc = services.documents.get(result.items[0]["document_id"])
    assert doc.content == "only the words of this upload"
