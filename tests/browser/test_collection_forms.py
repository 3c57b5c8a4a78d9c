"""Items 1 and 4 of the analyst's day (real browser): the create form starts empty after a create, the
Ingest page says which fields are required before an upload, a required field can be made optional, the
schema shorthand works as in the CLI, and the upload box states the real size limit."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.helpers import alert, idle

pytestmark = pytest.mark.browser


@pytest.fixture
def made(services):
    names: list[str] = []
    yield names
    for name in names:
        try:
            services.deletion.delete_collection(name)
        except Exception:
            pass


def _open_form(page) -> None:
    page.get_by_role("heading", name="Collections").wait_for()
    idle(page)
    form = page.get_by_test_id("stExpander").filter(has_text="Create a collection").first
    if form.locator("details").get_attribute("open") is None:
        form.locator("summary").click()
    page.get_by_label("Name", exact=True).wait_for()


def _create(page, name: str, schema: str = "") -> None:
    _open_form(page)
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Description (required)", exact=True).fill("Made by the browser test.")
    if schema:
        page.get_by_label("Metadata schema (optional JSON)", exact=True).fill(schema)
    page.get_by_role("button", name="Create", exact=True).click()
    page.get_by_text(f"Created collection '{name}'").wait_for()
    idle(page)


def test_a_second_collection_does_not_inherit_the_first_ones_schema(app_url, page, services, made):
    speeches, notes = f"speeches-{uuid.uuid4().hex[:6]}", f"notes-{uuid.uuid4().hex[:6]}"
    made += [speeches, notes]
    page.goto(app_url + "/collections")
    _create(page, speeches, '{"custom": {"year": {"type": "integer", "required": true}}}')
    _open_form(page)
    assert page.get_by_label("Name", exact=True).input_value() == ""
    assert page.get_by_label("Metadata schema (optional JSON)", exact=True).input_value() == ""
    _create(page, notes)
    assert services.collections.get(notes).metadata_schema == {"custom": {}}

    # The next step after a create, and the required field shown before anything is uploaded.
    page.get_by_role("link", name=f"Ingest documents into {notes}").wait_for()
    page.goto(f"{app_url}/ingest?collection={speeches}")
    page.get_by_text("needs: year (integer)").wait_for()

    # The way out: make the required field optional.
    page.goto(app_url + "/collections")
    idle(page)
    page.get_by_label("Collection", exact=True).click()
    page.get_by_role("option", name=speeches, exact=True).click()
    idle(page)
    page.get_by_role("tab", name="Schema").click()
    page.get_by_role("button", name="Make optional").click()
    page.get_by_text("Field year is now optional").wait_for()
    assert services.collections.get(speeches).metadata_schema["custom"]["year"]["required"] is False


def test_the_schema_shorthand_works_and_the_upload_box_states_the_real_limit(app_url, page, services, made):
    name = f"shorthand-{uuid.uuid4().hex[:6]}"
    made.append(name)
    page.goto(app_url + "/collections")
    _create(page, name, '{"year": "integer", "party": "string"}')
    assert not alert(page, "Error").count()
    assert services.collections.get(name).metadata_schema == {
        "custom": {"year": {"type": "integer", "required": False}, "party": {"type": "string", "required": False}}}

    page.goto(f"{app_url}/ingest?collection={name}")
    page.get_by_role("tab", name="Upload files").click()
    instructions = page.get_by_test_id("stFileUploaderDropzoneInstructions")
    instructions.wait_for()
    text = instructions.inner_text()
    assert "50MB" in text.replace(" ", "") and "200" not in text, text
