"""The compiled speed-ups are used only while they match their sources, and can be switched off."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

from muggins import _accel


@pytest.mark.parametrize("name", _accel.ACCELERATED)
def test_compiled_module_is_used_only_when_fresh(name: str) -> None:
    importlib.import_module(name)
    source, compiled = _accel._paths(name)
    fresh = bool(compiled) and all(c.stat().st_mtime >= source.stat().st_mtime for c in compiled)
    pure = os.environ.get("MUGGINS_PURE_PYTHON", "") not in ("", "0")
    assert _accel.compiled_in_use(name) == (fresh and not pure)


def test_pure_python_switch() -> None:
    code = ("import importlib, muggins._accel as a\n"
            "mods = [importlib.import_module(m) for m in a.ACCELERATED]\n"
            "print(all(m.__file__.endswith('.py') for m in mods))")
    env = {**os.environ, "MUGGINS_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
