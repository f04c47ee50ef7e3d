"""Count to 21 (``tests.toy``) joins the registry while the conformance suite is collected (its cases are read
from the registry then) and while each of the suite's tests runs, so the suite checks it like any game; no
other test sees it. Every test of the suite runs on both engines (``both_engines``: native states where a game
has them, then the pure reference)."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from tests.toy import collect_with_toy, in_folder, toy_registered

HERE = Path(__file__).resolve().parent
pytest_make_collect_report = collect_with_toy(HERE)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, None]:
    if not in_folder(item.path, HERE):  # a hook of this file sees every test of the run: only the suite's get the toy
        yield
        return
    with toy_registered():
        yield


@pytest.fixture(autouse=True)
def _each_engine(both_engines: str) -> str:
    return both_engines
