"""Every field of the domino state is declared for the compiled build and copied by clone and undo."""

from __future__ import annotations

import random
import re
from pathlib import Path

from muggins.core.chance import Chance
from muggins.core.claims import Window
from muggins.core.protocol import _BASE_FIELDS
from muggins.core.rules import get_game
from muggins.dominoes import state as state_module
from muggins.dominoes.state import _FIELDS, DominoState
from tests.helpers import play_randomly

SRC = Path(state_module.__file__).parent / "state.py"  # next to the module, compiled or not


def _assigned() -> set[str]:
    text = SRC.read_text()
    return set(re.findall(r"\b(?:self|s|c)\.(\w+)(?:\[[^\]]*\])? *(?:[-+|]?=)(?!=)", text))


def test_fields_list_every_assigned_attribute() -> None:
    assigned = _assigned() - {"may_claim", "claimed", "missed"}  # a Window's fields
    assert assigned <= set(_FIELDS), assigned - set(_FIELDS)
    assert set(_BASE_FIELDS) <= set(_FIELDS)
    assert len(set(_FIELDS)) == len(_FIELDS)


def test_pxd_declares_every_field() -> None:
    declared: set[str] = set()
    for pxd in (SRC.with_suffix(".pxd"), SRC.parents[1] / "core" / "protocol.pxd"):
        declared |= set(re.findall(r"cdef public \w+ (\w+)", pxd.read_text()))
    assert declared == set(_FIELDS)


def test_clone_and_undo_keep_every_field() -> None:
    spec = get_game("dominoes")
    st = DominoState.new(spec.rules("muggins"), 3, Chance(4))  # the pure state's own fields
    play_randomly(st, random.Random(1), max_actions=40)
    def value(st: DominoState, name: str) -> object:
        v = getattr(st, name)
        return v.public() if isinstance(v, Window) else v

    c = st.clone()
    assert c.chance.outcomes == st.chance.outcomes
    for name in _FIELDS:
        if name not in ("chance", "_legal_cache"):
            assert value(c, name) == value(st, name), name
    before = {name: value(c, name) for name in _FIELDS if name not in ("chance", "_legal_cache")}
    seat = next(iter(st.waiting_for()))
    st.apply(seat, st.legal_actions(seat)[0])
    st.undo()
    for name, v in before.items():
        assert value(st, name) == v, name
