"""Use the compiled speed-ups only while they match their Python sources.

The engine's hot modules may be compiled (see setup.py). A compiled module found next to a newer ``.py``
(the source or its ``.pxd`` was edited after the build) would run stale code, so this finder imports the
sources instead: of every accelerated module, since compiled modules depend on each other's declarations
(a compiled game state derives from the compiled protocol). ``MUGGINS_PURE_PYTHON=1`` always imports the
sources."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ACCELERATED = ("muggins.core.chance", "muggins.core.claims", "muggins.core.protocol", "muggins.dominoes.tiles",
               "muggins.dominoes.state", "muggins.cards.deck", "muggins.cards.muggins31.state",
               "muggins.cards.cribbage.pegging", "muggins.cards.cribbage.show", "muggins.cards.cribbage.game")
#: Native engines compiled from .pyx: no Python twin (the pure engine of their game is the reference), used
#: only where asked for (playouts, ``muggins bench``, the batched learning environment). Optional: without a
#: build ``load_native`` says why and callers keep to the pure engine.
NATIVE = ("muggins.dominoes.native", "muggins.cards.cribbage.native", "muggins.dominoes.vector_native",
          "muggins.cards.muggins31.native", "muggins.cards.muggins31.vector_native",
          "muggins.cards.cribbage.vector_native")

_ROOT = Path(__file__).resolve().parent


def _paths(name: str) -> tuple[Path, list[Path]]:
    rel = name.split(".")[1:]
    source = _ROOT.joinpath(*rel).with_suffix(".py")
    compiled = [p for suffix in importlib.machinery.EXTENSION_SUFFIXES
                if (p := source.with_name(rel[-1] + suffix)).exists()]
    return source, compiled


def source_path(name: str) -> str:
    """The source file of an accelerated module, relative to the project root (``setup.py`` compiles it)."""
    return "src/" + name.replace(".", "/") + ".py"


def native_state(name: str) -> str:
    """"built", "stale" (its .pyx, its .pxd or a .pxd of the project it cimports changed after it was compiled)
    or "not built"."""
    source, compiled = _paths(name)
    if not compiled:
        return "not built"
    sources = _declarations(source.with_suffix(".pyx"))
    if sources and any(c.stat().st_mtime < max(p.stat().st_mtime for p in sources) for c in compiled):
        return "stale"
    return "built"


_CIMPORT = re.compile(r"^\s*(?:from\s+(muggins(?:\.\w+)+)\s+cimport\b|cimport\s+(muggins(?:\.\w+)+))", re.M)


def _declarations(pyx: Path) -> list[Path]:
    """What a native module is compiled from: its .pyx, its own .pxd and the project's .pxd files it cimports
    (the declarations of a C struct shared with another module are compiled into both)."""
    if not pyx.exists():
        return []
    found = [pyx, pyx.with_suffix(".pxd")]
    for m in _CIMPORT.finditer(pyx.read_text(encoding="utf-8")):
        found.append(_ROOT.joinpath(*(m.group(1) or m.group(2)).split(".")[1:]).with_suffix(".pxd"))
    return [p for p in found if p.exists()]


def load_native(name: str) -> tuple[ModuleType | None, str | None]:
    """The native module ``name`` and None, or None and why it cannot be used (a stale build is refused:
    it would run old code)."""
    state = native_state(name)
    if state != "built":
        src = source_path(name)[:-3] + ".pyx"
        why = "not built" if state == "not built" else \
            f"stale build ({src} or a .pxd it reads changed after it was compiled)"
        return None, f"{why}: python setup.py build_ext --inplace, or pip install again"
    try:
        return importlib.import_module(name), None
    except ImportError as e:  # pragma: no cover - a broken build
        return None, f"cannot import {name}: {e}"


def compiled_in_use(name: str) -> bool:
    """Whether ``name`` (imported) runs compiled code."""
    mod = sys.modules.get(name)
    return mod is not None and not str(getattr(mod, "__file__", "")).endswith(".py")


def _stale(name: str) -> bool:
    source, compiled = _paths(name)
    if not compiled or not source.exists():
        return False
    newest = max(p.stat().st_mtime for p in (source, source.with_suffix(".pxd")) if p.exists())
    return any(c.stat().st_mtime < newest for c in compiled)


class _FreshSourceFinder(importlib.abc.MetaPathFinder):
    def __init__(self, pure: bool) -> None:
        self.pure = pure or any(_stale(name) for name in ACCELERATED)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in ACCELERATED:
            return None
        source, compiled = _paths(fullname)
        if not compiled or not source.exists():
            return None
        if self.pure:
            return importlib.util.spec_from_file_location(fullname, source)
        return None


def install() -> None:
    if not any(isinstance(f, _FreshSourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _FreshSourceFinder(os.environ.get("MUGGINS_PURE_PYTHON", "") not in ("", "0")))


def build_status() -> dict[str, object]:
    """Which build runs: ``mode`` is "compiled" (every accelerated module compiled), "pure" (none) or
    "partial", with the reason the compiled modules are not used (``MUGGINS_PURE_PYTHON``, a stale build,
    not built) and the state of each module; ``native`` gives the state of each native engine (built, stale,
    not built). ``muggins bench`` and ``muggins --version`` report it."""
    import importlib

    for name in ACCELERATED:
        importlib.import_module(name)
    modules = {name: compiled_in_use(name) for name in ACCELERATED}
    built = [name for name in ACCELERATED if _paths(name)[1]]
    stale = [name for name in ACCELERATED if _stale(name)]
    used = sum(modules.values())
    mode = "compiled" if used == len(ACCELERATED) else "pure" if used == 0 else "partial"
    reason = None
    if mode != "compiled":
        if os.environ.get("MUGGINS_PURE_PYTHON", "") not in ("", "0"):
            reason = "MUGGINS_PURE_PYTHON is set"
        elif stale:
            reason = (f"stale build: {', '.join(source_path(n) for n in stale)} changed after it was compiled "
                      f"(rebuild: python setup.py build_ext --inplace, or pip install again)")
        elif len(built) < len(ACCELERATED):
            missing = [source_path(n) for n in ACCELERATED if n not in built]
            reason = f"not compiled: {', '.join(missing)}"
    return {"mode": mode, "reason": reason, "modules": modules, "native": {n: native_state(n) for n in NATIVE}}


def describe_build() -> str:
    """One line for people: the build in use and, when it is not the compiled one, why."""
    st = build_status()
    if st["mode"] == "compiled":
        return "compiled modules in use"
    return f"{st['mode']} Python build ({st['reason']})" if st["reason"] else f"{st['mode']} Python build"
