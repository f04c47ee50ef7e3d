"""Counting the pure twins native states build: :func:`count_twins` wraps the methods that build or bring up
to date the equal pure state of a native one (``NativeDominoState.to_pure``, ``NativeCardState._synced``) and
records who asked, so a test can say that a consumer's path never leaves the native engine."""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from muggins.cards.native_state import NativeCardState
from muggins.dominoes.fast import NativeDominoState

#: the method of each native state class that builds its pure twin
TWIN_METHODS = ((NativeDominoState, "to_pure"), (NativeCardState, "_synced"))


def _caller() -> str:
    """The first frame outside the native states and this module: who asked for the twin."""
    for frame in reversed(traceback.extract_stack()[:-2]):
        name = frame.filename
        if not name.endswith(("fast.py", "native_state.py", "twins.py")):
            return f"{name.rsplit('/src/', 1)[-1].rsplit('/tests/', 1)[-1]}:{frame.lineno} {frame.name}"
    return "?"


@contextmanager
def count_twins(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Within the block, every twin built or brought up to date counted by who asked for it."""
    asked: Counter[str] = Counter()
    for cls, name in TWIN_METHODS:
        original = getattr(cls, name)

        def counted(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            asked[_caller()] += 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, counted)
    yield asked
