"""The compiled speed-ups are used only while they match their sources, and can be switched off."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

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


def test_setup_compiles_exactly_the_accelerated_list() -> None:
    """setup.py reads the one list in _accel.py: the two cannot drift apart."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    tree = ast.parse((root / "setup.py").read_text())
    paths = {_accel.source_path(n) for n in _accel.ACCELERATED}
    assert not any(isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in paths
                   for n in ast.walk(tree)), \
        "setup.py keeps no list of its own"
    code = ("import ast, pathlib, sys\n"
            f"src = pathlib.Path({str(root / 'setup.py')!r}).read_text()\n"
            "tree = ast.parse(src)\n"
            "fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == '_accelerated')\n"
            "mod = ast.Module(body=[n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) "
            "and 'setuptools' not in ast.dump(n)] + [fn], type_ignores=[])\n"
            f"ns = {{'__file__': {str(root / 'setup.py')!r}}}\n"
            "exec(compile(mod, 'setup.py', 'exec'), ns)\n"
            "print('\\n'.join(ns['_accelerated']()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [_accel.source_path(n) for n in _accel.ACCELERATED]


def test_build_status_names_the_mode_and_why() -> None:
    code = "import json, muggins._accel as a; print(json.dumps(a.build_status()))"
    env = {**os.environ, "MUGGINS_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    import json

    st = json.loads(out.stdout)
    assert st["mode"] == "pure" and "MUGGINS_PURE_PYTHON" in st["reason"]
    assert set(st["modules"]) == set(_accel.ACCELERATED) and not any(st["modules"].values())
    here = _accel.build_status()
    expect = "compiled" if all(here["modules"].values()) else "pure" if not any(here["modules"].values()) \
        else "partial"
    assert here["mode"] == expect


def test_version_and_bench_say_which_build_runs() -> None:
    from typer.testing import CliRunner

    from muggins.cli.main import app

    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.startswith("muggins ")
    assert _accel.describe_build() in res.output
    res = CliRunner().invoke(app, ["bench", "--seconds", "0.05", "--runs", "1", "--json"])
    assert res.exit_code == 0
    import json

    assert json.loads(res.output)["build"] == _accel.build_status()


def test_a_native_module_is_stale_when_a_declaration_it_reads_changed(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Its .pyx, its own .pxd and the project's .pxd files it cimports are what it was compiled from: any of them
    newer than the build makes it stale (a C struct declared in a .pxd is compiled into every module reading it)."""
    import importlib.machinery

    (tmp_path / "core").mkdir()
    (tmp_path / "game").mkdir()
    shared, own, pyx = tmp_path / "core" / "shared.pxd", tmp_path / "game" / "mod.pxd", tmp_path / "game" / "mod.pyx"
    other = tmp_path / "core" / "other.pxd"
    shared.write_text("cdef struct S:\n    int x\n")
    own.write_text("cdef int f()\n")
    other.write_text("cdef int g()\n")
    pyx.write_text("# cython: language_level=3\nfrom libc.stdint cimport uint64_t\n"
                   "from muggins.core.shared cimport S\n\ncdef int f():\n    return 0\n")
    built = tmp_path / "game" / ("mod" + importlib.machinery.EXTENSION_SUFFIXES[0])
    built.write_bytes(b"")
    monkeypatch.setattr(_accel, "_ROOT", tmp_path)
    for p in (shared, own, other, pyx):
        os.utime(p, (1_000_000, 1_000_000))
    os.utime(built, (2_000_000, 2_000_000))
    assert _accel.native_state("muggins.game.mod") == "built"
    os.utime(other, (3_000_000, 3_000_000))  # a declaration it does not read
    assert _accel.native_state("muggins.game.mod") == "built"
    for p in (shared, own, pyx):
        os.utime(p, (3_000_000, 3_000_000))
        assert _accel.native_state("muggins.game.mod") == "stale", p.name
        mod, why = _accel.load_native("muggins.game.mod")
        assert mod is None and why is not None and "stale build" in why
        os.utime(p, (1_000_000, 1_000_000))
    built.unlink()
    assert _accel.native_state("muggins.game.mod") == "not built"
