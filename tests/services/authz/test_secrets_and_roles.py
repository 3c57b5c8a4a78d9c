"""services/authz's own rules, without the stores: password hashes and tokens (secrets.py), who a principal is and
which role allows what (principal.py). Every operation × every role on the real stores is tests/access."""

from __future__ import annotations

import re

import pytest

from services.authz.principal import ROLES, Principal, role_allows
from services.authz.secrets import MAX_PASSWORD, MIN_PASSWORD, TOKEN_PREFIX, hash_password, new_token, token_hash, verify_password
from services.errors import ValidationFailed


def test_a_password_hash_verifies_only_its_password():
    stored = hash_password("correct horse")
    assert re.fullmatch(r"scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+", stored)
    assert "correct horse" not in stored
    assert verify_password("correct horse", stored)
    assert not verify_password("correct horsE", stored)
    assert not verify_password("", stored)


def test_the_same_password_hashes_differently_each_time():
    first, second = hash_password("same password"), hash_password("same password")
    assert first != second  # a fresh salt each time
    assert verify_password("same password", first) and verify_password("same password", second)


@pytest.mark.parametrize("password", ["", "x" * (MIN_PASSWORD - 1), "x" * (MAX_PASSWORD + 1)])
def test_a_password_too_short_or_too_long_is_refused(password):
    with pytest.raises(ValidationFailed, match=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters"):
        hash_password(password)


@pytest.mark.parametrize("stored", [None, "", "plain", "md5$abc", "scrypt$x$8$1$AAAA$AAAA", "scrypt$16384$8$1$!!$!!"])
def test_a_missing_or_malformed_hash_never_verifies(stored):
    assert verify_password("any password", stored) is False


def test_a_password_over_the_limit_is_not_even_hashed_to_compare():
    stored = hash_password("x" * MAX_PASSWORD)
    assert verify_password("x" * MAX_PASSWORD, stored)
    assert not verify_password("x" * (MAX_PASSWORD + 1), stored)


def test_tokens_are_random_and_stored_as_their_sha256():
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50 and all(t.startswith(TOKEN_PREFIX) and len(t) > 40 for t in tokens)
    token = tokens.pop()
    assert re.fullmatch(r"[0-9a-f]{64}", token_hash(token))
    assert token_hash(token) == token_hash(token) != token_hash(token + "x")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("need", ROLES)
def test_each_role_allows_what_it_needs_and_below(role, need):
    assert role_allows(role, need) is (ROLES.index(role) >= ROLES.index(need))


@pytest.mark.parametrize("role", [None, "", "admin", "Owner"])
def test_no_role_or_an_unknown_one_allows_nothing(role):
    assert not any(role_allows(role, need) for need in ROLES)


def test_who_acts():
    operator, admin, user = Principal.operator(), Principal.user("ada", admin=True), Principal.user("ben")
    visitor = Principal.anonymous("session-1")
    assert operator.unrestricted and admin.unrestricted
    assert not user.unrestricted and not visitor.unrestricted
    # whose conversations and memory: shared for the operator, each user's own, each visitor's browser session
    assert (operator.owner_key, user.owner_key, visitor.owner_key) == (None, "user:ben", "anonymous:session-1")
    assert Principal.anonymous("session-2").owner_key != visitor.owner_key
