"""Which engine backs the game states that ``spec.new`` gives: the native one (a game's compiled engine,
where it is built and the rules are in its scope) or the pure one (the reference).

``MUGGINS_ENGINE=pure`` forces the reference everywhere; ``native`` (the default, also when unset) uses a
game's native engine where it can. The choice is read when asked, so a test may switch it."""

from __future__ import annotations

import os
from types import ModuleType

ENGINE_ENV = "MUGGINS_ENGINE"
CHOICES = ("native", "pure")


def engine_choice() -> str:
    """``"native"`` or ``"pure"``, from MUGGINS_ENGINE; ValueError for anything else."""
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "native"
    if value not in CHOICES:
        raise ValueError(f"{ENGINE_ENV}={value!r}: choose one of {', '.join(CHOICES)}")
    return value


def native_module(name: str) -> ModuleType | None:
    """The native engine module ``name`` when native states are wanted and it is built; None otherwise
    (the caller uses the pure engine)."""
    if engine_choice() == "pure":
        return None
    from muggins._accel import load_native

    return load_native(name)[0]
