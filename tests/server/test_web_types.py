"""The page's modules are type-checked: the JSDoc types of src/muggins/web/js are checked by TypeScript
(``tsc --checkJs --noEmit``, configured in tsconfig.json). The test installs the project's npm packages
(tests/npm_packages.py); without node and npm it skips, which fails under CI=true (tests/conftest.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.npm_packages import npm_package_file

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_modules_type_check() -> None:
    npx = shutil.which("npx")
    if npx is None or shutil.which("node") is None:
        pytest.skip("node and npx are needed to type-check the page (apt-get install nodejs npm)")
    npm_package_file("typescript", "bin", "tsc")
    r = subprocess.run([npx, "--no-install", "tsc", "-p", str(ROOT / "tsconfig.json")], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, "type errors in the page's modules:\n" + r.stdout + r.stderr
    # the check covers every module of the page
    listed = subprocess.run([npx, "--no-install", "tsc", "-p", str(ROOT / "tsconfig.json"), "--listFilesOnly"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    for module in (ROOT / "src" / "muggins" / "web" / "js").glob("*.js"):
        assert module.name in listed, module
