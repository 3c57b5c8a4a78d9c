"""The Ingest page's URL tab: analysis and ingest buttons, with the default (public-only) fetch settings."""

from __future__ import annotations

from tests.utils.app import open_page


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def test_url_tab_refuses_private_addresses_inline(services, collection):
    at = open_page("ingest")
    at.selectbox(key="ingest.collection").set_value(collection).run()
    at.text_input(key="ingest.url").set_value("http://169.254.169.254/latest/").run()
    _button(at, "Analyze site").click().run()
    assert not at.exception
    assert any("metadata address" in e.value for e in at.error)

    at.text_input(key="ingest.url").set_value("http://10.0.0.1/docs/").run()
    _button(at, "Ingest this page").click().run()
    assert not at.exception
    assert any("private-network" in e.value for e in at.error)
