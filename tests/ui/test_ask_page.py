"""A two-turn conversation on the Ask page, with citations and a resolved follow-up (AppTest)."""

from __future__ import annotations

from tests.utils.app import open_page


def _shown(at) -> str:
    """What the page shows as text: plain text elements and the answers drawn as HTML (components/rich_text.py)."""
    return "\n".join([t.value for t in at.text] + [h.proto.body for h in at.get("html")])


def test_two_turn_conversation_with_citations(services, zorbex_collection):
    at = open_page("ask")
    at.multiselect(key="ask.scope").set_value([zorbex_collection]).run()
    at.chat_input(key="ask.input").set_value("Who founded Zorbex?").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    conv_id = at.session_state["ask.conversation_id"]
    assert any("Extracted from your documents" in c.value for c in at.caption)
    assert "Ivana Petrova" in _shown(at) and "founded Zorbex in 2001." in _shown(at)
    (status,) = at.status  # Ask shows its phases while it works, then says it is done
    assert status.label.startswith("Answered in ") and status.state == "complete"
    assert [m.value for m in status.markdown] == ["retrieving", "walking the graph", "composing"]

    at.chat_input(key="ask.input").set_value("What does she grow?").run()
    assert not at.exception
    turns = services.conversations.turns(conv_id)
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
    assert turns[1].details["citations"] and "tomatoes" in turns[3].content
    assert turns[3].details["diagnostics"]["follow_up"].startswith("resolved")
    assert "tomatoes" in _shown(at)
