from __future__ import annotations

import pytest

from tests.utils.stories import make_zorbex


@pytest.fixture(scope="module")
def zorbex(services):
    name, ids = make_zorbex(services)
    yield name, ids
    services.deletion.delete_collection(name)
