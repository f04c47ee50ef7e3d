"""Count to 21, a game registered only in the tests (:func:`toy_registered`): it proves that adding a game
touches no consumer of the protocol."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from muggins.core.rules import REGISTRY, GameSpec, register, unregister
from tests.toy.state import DESCRIPTIONS, NAME, PRESETS, ToyRules, ToyState

__all__ = ["NAME", "SPEC", "ToyRules", "ToyState", "toy_registered"]

SPEC = GameSpec(name=NAME, title="Count to 21", state_type=ToyState, presets=PRESETS, default_preset="toy",
                min_players=2, max_players=3, descriptions=DESCRIPTIONS)


@contextmanager
def toy_registered() -> Iterator[GameSpec]:
    """Count to 21 in the registry for the duration (it is never registered outside the tests); a nested use
    leaves it registered until the outermost one ends."""
    already = REGISTRY.get(NAME) is SPEC
    register(SPEC)
    try:
        yield SPEC
    finally:
        if not already:
            unregister(NAME)


def in_folder(path: Any, folder: Path) -> bool:
    """Whether ``path`` (a test's or a collector's) is ``folder`` or below it."""
    p = Path(str(path)).resolve()
    return p == folder or folder in p.parents


def collect_with_toy(folder: Path) -> Callable[[pytest.Collector], Generator[None, Any, None]]:
    """A ``pytest_make_collect_report`` hook for the conftest of ``folder``: count to 21 is in the registry
    while the tests of ``folder`` are collected (their cases are read from the registry then), and only
    then (a conftest's hook sees every collector of the run)."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
        if not in_folder(collector.path, folder):
            yield
            return
        with toy_registered():
            yield

    return pytest_make_collect_report
