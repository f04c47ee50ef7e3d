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
