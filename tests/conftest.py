"""Suite-wide rules. Under CI (``CI=true``) a test that cannot run its real component fails instead of
skipping: a green CI must mean that Chromium was driven, PostgreSQL answered and the compiled build was
tested. On a developer's machine without them the same tests skip with their reason."""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

STRICT = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
WHY = "CI=true, so a test that cannot run its real component fails instead of skipping"

# `muggins serve` takes MUGGINS_REDIS_URL from its environment (scale-out mode); the Redis server of the tests is
# given by the same name, so it is moved aside here: the servers the other tests start stay in the embedded mode,
# and the scale-out tests pass it on explicitly (tests/server/redis_helpers.py).
if os.environ.get("MUGGINS_REDIS_URL"):
    os.environ["MUGGINS_TEST_REDIS_URL"] = os.environ.pop("MUGGINS_REDIS_URL")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that hangs (a socket waited on forever) fails after the suite's ``timeout`` (pyproject.toml)
    instead of stopping the run; the long runs of ``-m slow`` have no limit."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(0))


def _fail_skip(report: Any) -> None:
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"{WHY}: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip(outcome.get_result())


ENGINES = ("native", "pure")


@pytest.fixture(params=ENGINES)
def both_engines(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The test runs once with each engine behind ``spec.new`` (``MUGGINS_ENGINE``): a game's native states
    where they play its rules, and the pure reference. Use it with ``pytest.mark.usefixtures``."""
    monkeypatch.setenv("MUGGINS_ENGINE", request.param)
    return str(request.param)


@pytest.fixture
def native_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests of the native engines themselves (their rollouts and searches): a whole run under
    MUGGINS_ENGINE=pure or MUGGINS_PURE_PYTHON still checks them, with the switches cleared here. Use it
    with ``pytest.mark.usefixtures`` (the tests of what the switches do set them again)."""
    monkeypatch.delenv("MUGGINS_PURE_PYTHON", raising=False)
    monkeypatch.delenv("MUGGINS_ENGINE", raising=False)
