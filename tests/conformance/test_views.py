"""Views and events leak nothing.

``inventory()`` says where every piece lies. A piece is *secret* from seat s when it lies in another
seat's hand or in the stock, has never lain anywhere public (a layout, a pile, the crib...) in this game
and was never named in an event everybody receives (a cut, a shown hand); the spectator (``None``) has no
hand of his own. No view of s may name a piece secret from s, and during the first deal (before any piece
went back from the table into a hand or the stock) neither may the events s receives. Views are plain
JSON. The stronger check, that a view does not change when the hidden pieces do, is in ``test_hidden``."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from muggins.core.protocol import GameState
from tests.conformance.cases import HAND_PREFIX, STOCK, Case, choose, json_round_trip, params, pieces

SEED = 31
_SPLIT = re.compile(r"[\s,;:()\[\]{}|]+")


def hidden_places(name: str) -> bool:
    return name.startswith(HAND_PREFIX) or name == STOCK


def tokens(data: Any) -> set[str]:
    """Every word of every text in ``data`` (keys too); a word ``a-b`` also as ``b-a`` (a tile read
    from its other end)."""
    out: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, str):
            for w in _SPLIT.split(x):
                if w:
                    out.add(w)
                    a, dash, b = w.partition("-")
                    if dash:
                        out.add(f"{b}-{a}")
    return out


def secret_from(inv: dict[str, list[str]], seat: int | None, exposed: set[str]) -> set[str]:
    own = f"{HAND_PREFIX}{seat}"
    return {p for name, where in inv.items() if hidden_places(name) and name != own for p in where} - exposed


@pytest.mark.parametrize("case", params())
def test_views_and_events_name_no_secret_piece(case: Case) -> None:
    rng = random.Random(SEED)
    state: GameState = case.new(SEED)
    exposed: set[str] = set()
    first_deal = True
    told = 0
    checked = 0
    while not state.is_over():
        exposed |= tokens(state.events_for(None, told))  # what the table told everybody is public
        told = len(state.log)
        inv = state.inventory()
        for name, where in inv.items():
            if hidden_places(name):
                first_deal = first_deal and not exposed.intersection(where)
            else:
                exposed.update(where)
        if len(state.history) % 3 == 0:
            for seat in [None, *range(state.num_players)]:
                secret = secret_from(inv, seat, exposed)
                typed = state.view(seat)
                view = typed.to_json()
                assert json_round_trip(view) == view == typed, f"the view of seat {seat} is not plain JSON"
                leaked = secret & tokens(view)
                assert not leaked, f"the view of seat {seat} names {sorted(leaked)} after {len(state.history)} actions"
                if first_deal:
                    events = state.events_for(seat)
                    assert json_round_trip(events) == events
                    leaked = secret & tokens(events)
                    assert not leaked, f"the events of seat {seat} name {sorted(leaked)}"
                checked += len(secret)
        seat, action = choose(state, rng)
        state.apply(seat, action)
    assert checked or not pieces(case.new(SEED)), "no secret piece was ever checked"


@pytest.mark.parametrize("case", params())
@pytest.mark.usefixtures("both_engines")
def test_a_view_of_a_seat_the_game_does_not_have_is_refused(case: Case) -> None:
    """-1 is not the last seat, and neither a bool nor a float is a seat: a view for them is refused (on
    both engines) rather than showing some seat's hand."""
    from muggins.core.errors import NoSuchSeat

    state = case.new(seed=SEED)
    for seat in (-1, case.players, True, 1.0, "0"):
        with pytest.raises(NoSuchSeat):
            state.view(seat)  # type: ignore[arg-type]
    assert state.view(None).seat is None and state.view(case.players - 1).seat == case.players - 1


@pytest.mark.parametrize("case", params())
@pytest.mark.usefixtures("both_engines")
def test_legal_actions_of_a_seat_the_game_does_not_have_are_refused(case: Case) -> None:
    """The moves of seat -1, of a seat past the last, of a bool or a float: refused on both engines (not
    the last seat's moves, an empty list or an overflow), also once the game is over."""
    from muggins.core.errors import NoSuchSeat

    state = case.new(seed=SEED)
    rng = random.Random(SEED)
    for over in (False, True):
        for seat in (-1, case.players, 2**70, True, 1.0, "0", None):
            with pytest.raises(NoSuchSeat):
                state.legal_actions(seat)  # type: ignore[arg-type]
        assert state.is_over() == over
        while not state.is_over():
            state.apply(*choose(state, rng))
    assert state.legal_actions(case.players - 1) == []
