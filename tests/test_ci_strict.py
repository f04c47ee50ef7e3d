"""Under CI=true a skip is a failure (see tests/conftest.py); elsewhere it stays a skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = '''
import pytest

def test_needs_a_browser():
    pytest.skip("no Chromium found")

@pytest.mark.skipif(True, reason="no PostgreSQL server")
def test_needs_a_database():
    pass

def test_plain():
    pass
'''


def run_sample(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_sample.py")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


@pytest.mark.parametrize("ci", ["true", "1"])
def test_a_skip_fails_under_ci(tmp_path: Path, ci: str) -> None:
    r = run_sample(tmp_path, ci)
    assert r.returncode == 1, r.stdout
    assert "1 passed" in r.stdout and "skipped" not in r.stdout.splitlines()[-1]
    assert "no Chromium found" in r.stdout and "no PostgreSQL server" in r.stdout


def test_a_skip_stays_a_skip_on_a_developer_machine(tmp_path: Path) -> None:
    r = run_sample(tmp_path, None)
    assert r.returncode == 0, r.stdout
    assert "1 passed, 2 skipped" in r.stdout
