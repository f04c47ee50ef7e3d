"""The compiled speed-ups are used only while they match their sources, and can be switched off."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

from muggins import _accel


@pytest.mark.parametrize("name", _accel.ACCELERATED)
def test_compiled_module_is_used_only_when_all_are_fresh(name: str) -> None:
    importlib.import_module(name)
    own = bool(_accel._paths(name)[1])
    pure = os.environ.get("MUGGINS_PURE_PYTHON", "") not in ("", "0")
    fresh = not any(_accel._stale(m) for m in _accel.ACCELERATED)
    assert _accel.compiled_in_use(name) == (own and fresh and not pure)


def test_an_edited_source_turns_every_compiled_module_off() -> None:
    if not _accel._paths("muggins.core.claims")[1]:
        pytest.skip("no compiled build here")
    code = ("import importlib, os, muggins._accel as a\n"
            "src, _ = a._paths('muggins.core.claims')\n"
            "st = src.stat()\n"
            "os.utime(src, (st.st_atime, st.st_mtime + 10**6))\n"
            "try:\n"
            "    f = a._FreshSourceFinder(False)\n"
            "finally:\n"
            "    os.utime(src, (st.st_atime, st.st_mtime))\n"
            "print(f.pure)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_pure_python_switch() -> None:
    code = ("import importlib, muggins._accel as a\n"
            "mods = [importlib.import_module(m) for m in a.ACCELERATED]\n"
            "print(all(m.__file__.endswith('.py') for m in mods))")
    env = {**os.environ, "MUGGINS_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
