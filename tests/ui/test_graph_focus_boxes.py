"""The Graph page's boxes follow the entity in focus (AppTest on the real stores; issue 34, item 5)."""

from __future__ import annotations

import pytest

from tests.utils.app import open_page
from tests.utils.stories import make_zorbex


@pytest.fixture
def zorbex(services):
    name, _ = make_zorbex(services)
    yield name
    services.deletion.delete_collection(name)


def test_the_edit_boxes_name_the_entity_the_canvas_shows(zorbex):
    """The walk saw the entity box name the previous focus ("similar negotiation") while the canvas and the
    facts showed the new one (Mexico): the rename and type boxes kept their first value across focus changes."""
    at = open_page("graph", query={"collection": zorbex})
    assert next(t.value for t in at.text_input if t.label == "New name") == "Ivana Petrova"
    at.selectbox(key="graph.entity").set_value("zorbex").run()
    assert not at.exception
    assert any(m.value == "**Facts of Zorbex**" for m in at.markdown)
    boxes = {t.label: t.value for t in at.text_input if t.label in ("New name", "Type")}
    assert boxes == {"New name": "Zorbex", "Type": "NORP"}, boxes
    # A name search that finds nothing, then back: still the entity in focus.
    at.text_input(key="graph.find").set_value("similar negotiation").run()
    at.text_input(key="graph.find").set_value("").run()
    focus = at.selectbox(key="graph.entity").value
    boxes = {t.label: t.value for t in at.text_input if t.label in ("New name", "Type")}
    assert boxes["New name"].lower() == focus, (boxes, focus)
