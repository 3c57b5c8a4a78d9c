"""The app once users exist (AppTest): the user-name login, and the admin's audit log on Home."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from components.state import Keys
from services.authz.principal import Principal
from tests.utils.app import HOME


def test_login_form_then_admin_sees_the_audit_log(services) -> None:
    suffix = uuid.uuid4().hex[:6]
    admin, user = f"root-{suffix}", f"una-{suffix}"
    op = Principal.operator()
    services.access.add_user(admin, "admin password", admin=True, by=op)
    services.access.add_user(user, "user password", by=op)
    try:
        at = AppTest.from_file(HOME, default_timeout=120).run()
        assert not at.exception, at.exception
        assert [t.label for t in at.text_input] == ["User name", "Password"]
        at.text_input[0].input(user)
        at.text_input[1].input("wrong password")
        at.button[0].click().run()
        assert any("Wrong user name or password." in e.value for e in at.error)

        signed = AppTest.from_file(HOME, default_timeout=120)
        signed.session_state[Keys.AUTH_USER] = admin
        signed.run()
        assert not signed.exception, signed.exception
        audit = next(e for e in signed.expander if e.label == "Audit log (admins)")
        frame = audit.dataframe[0].value
        assert ("user.add", user) in set(zip(frame["action"], frame["target"]))

        plain = AppTest.from_file(HOME, default_timeout=120)
        plain.session_state[Keys.AUTH_USER] = user
        plain.run()
        assert not plain.exception, plain.exception
        assert all(e.label != "Audit log (admins)" for e in plain.expander)
        assert any(f"Signed in as {user}" in c.value for c in plain.sidebar.caption)
    finally:
        with services.engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM app_users WHERE name LIKE :p"), {"p": f"%-{suffix}"})
