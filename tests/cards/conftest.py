"""``pure_engine``: a module of tests of the pure card engines (the reference) asks for it, so that ``spec.new``
gives the pure states there whichever engine ``MUGGINS_ENGINE`` picks elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from muggins.core.engine import ENGINE_ENV


@pytest.fixture(scope="module")
def pure_engine() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENGINE_ENV, "pure")
        yield
