"""The project's npm packages (package.json: TypeScript for the page's type check, axe-core for its
accessibility check), installed by the test run itself the first time a test needs them, with the machine's
npm. Without node and npm the tests that need them skip, which fails under CI=true (tests/conftest.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_tried: list[str] = []


def _install(path: Path) -> str | None:
    """Why ``path`` (under node_modules) is missing after one try of ``npm ci``, or None when it is there."""
    if path.exists():
        return None
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return "node and npm are needed for the page's type and accessibility checks (apt-get install nodejs npm)"
    if not _tried:
        command = [npm, "ci" if (ROOT / "package-lock.json").exists() else "install", "--no-audit", "--no-fund"]
        r = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
        _tried.append(r.stdout[-2000:] + r.stderr[-2000:])
    return None if path.exists() else f"npm could not install {path.relative_to(ROOT)}: {_tried[0]}"


def npm_package_file(*parts: str) -> Path:
    """The path of a file of an installed npm package (``node_modules/<parts>``), running ``npm ci`` once
    when it is missing; skips with the reason when it cannot be had."""
    path = ROOT.joinpath("node_modules", *parts)
    why = _install(path)
    if why is not None:
        pytest.skip(why)
    return path


def npm_package_file_if_any(*parts: str) -> Path | None:
    """Like :func:`npm_package_file`, but None instead of a skip (for a check a test adds where it can)."""
    path = ROOT.joinpath("node_modules", *parts)
    return None if _install(path) is not None else path
