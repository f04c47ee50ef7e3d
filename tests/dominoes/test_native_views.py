"""The native domino state's views against the pure engine's: made from the C data, equal field for field.

Each game is played on a ``NativeDominoState`` and a pure ``DominoState`` dealt from the same chance (a
seed deals the same tiles on both), with the moves of the event tests (random and greedy, claims right,
wrong or missing, muggins calls, late claims). After every move the two views of every seat and of a
spectator (None) must be equal, so a native view shows a seat nothing the pure view hides. Games are played
through the integer ids, and the native state must not have built its pure twin to answer. Every preset
with 2-4 players, the rule options of the event tests and the option families of the lockstep tests.
Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins._accel import load_native
from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, NoSuchSeat
from muggins.dominoes.rules import PRESETS
from muggins.dominoes.state import DominoState

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

from muggins.dominoes.fast import NativeDominoState  # noqa: E402 - after the skip
from tests.dominoes.test_native import FAMILY  # noqa: E402 - the lockstep tests' option families
from tests.dominoes.test_native_events import CASES, OPTIONS, SPEC, choose  # noqa: E402

MAX_MOVES = 1500


def same_views(pure: DominoState, fast: NativeDominoState) -> None:
    for seat in [None, *range(pure.num_players)]:
        a, b = pure.view(seat), fast.view(seat)
        assert a.to_json() == b.to_json(), (seat, {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)})


def same_answers(pure: DominoState, fast: NativeDominoState) -> None:
    """What bots and the server ask on every move: the points of each legal move, its id, the move read
    back from its text, what a call would take."""
    for seat in range(pure.num_players):
        assert fast.muggable(seat) == pure.muggable(seat)
    for seat in pure.to_act():
        for a in pure.legal_actions(seat):
            points = pure.claim_for(seat, a)
            assert fast.claim_for(seat, a) == points, (seat, a)
            assert fast.action_id(a) == pure.action_id(a), a
            if a.kind not in ("muggins", "claim"):
                text = pure.format_action(a)
                assert fast.parse_action(text, seat) == pure.parse_action(text, seat) == a
            if pure.rules.claims == "manual" and a.kind in ("play", "muggins"):
                b = a.with_claim(points)
                assert fast.action_id(b) == pure.action_id(b), b


def play_game(preset: str, players: int, seed: int, family: dict[str, object] | None = None,
              by_action: float = 0.0) -> NativeDominoState:
    """One game, views compared after every move; ``by_action``: how often a move goes in as an Action
    rather than by its id."""
    rng = random.Random(seed * 6007 + players)
    if family is None:
        options = dict(OPTIONS[(seed * 3 + players) % len(OPTIONS)])
        if seed % 3:
            options["claims"] = rng.choice(["manual", "auto"])
        rules = SPEC.rules(preset, options)
    else:
        rules = dataclasses.replace(PRESETS[preset], **family)
    fast = NativeDominoState.new(rules, players, Chance(seed))
    pure = DominoState.new(rules, players, Chance(seed))
    style = rng.random()
    same_views(pure, fast)
    moves = 0
    while not pure.is_over() and moves < MAX_MOVES:
        moves += 1
        seat, action = choose(pure, rng, style)
        if rng.random() < by_action:
            fast.apply(seat, action)
        else:
            fast.apply_action_id(seat, pure.action_id(action))
        pure.apply(seat, action)
        same_views(pure, fast)
        if moves % 37 == 0:
            assert fast.history == pure.history
        if moves % 3 == 0:
            same_answers(pure, fast)
    assert fast.history == pure.history  # read from the native log, as the pure engine keeps it
    for seat, action in pure.history[-20:]:
        assert fast.action_to_json(seat, action) == pure.action_to_json(seat, action)
    return fast


GAMES = 3


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_native_views_equal_the_pure_views_after_every_move(preset: str, players: int) -> None:
    for seed in range(GAMES):
        fast = play_game(preset, players, seed)
        # the views and the history were made from the C data, not from a replayed pure game
        assert fast._twin_cache is None


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_many_native_views_equal_the_pure_views(preset: str, players: int) -> None:
    for seed in range(GAMES, GAMES + 40):
        play_game(preset, players, seed, by_action=0.5)


@pytest.mark.parametrize(("preset", "players", "options"), [f[:3] for f in FAMILY],
                         ids=lambda x: x if isinstance(x, str) else None)
def test_option_families_views_equal_the_pure_views(preset: str, players: int, options: dict[str, object]) -> None:
    """Knocks, muggable bonus windows, voluntary draws, kept turns, the spinner filled first, partnerships."""
    for seed in range(2):
        fast = play_game(preset, players, 17 * players + seed, options, by_action=0.3)
        assert fast._twin_cache is None


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "options"), [f[:3] for f in FAMILY],
                         ids=lambda x: x if isinstance(x, str) else None)
def test_many_option_family_views_equal_the_pure_views(preset: str, players: int,
                                                       options: dict[str, object]) -> None:
    for seed in range(2, 30):
        play_game(preset, players, 17 * players + seed, options, by_action=0.3)


def test_a_view_leaves_the_offered_actions_to_apply() -> None:
    """Reading views between ``legal_actions`` and ``apply`` changes nothing the move relies on: the Action
    offered is applied, as the pure engine applies it."""
    rules = SPEC.rules("muggins", {})
    fast = NativeDominoState.new(rules, 3, Chance(4))
    pure = DominoState.new(rules, 3, Chance(4))
    for _ in range(30):
        if pure.is_over():
            break
        seat = min(pure.waiting_for())
        offered = fast.legal_actions(seat)
        assert offered == pure.legal_actions(seat)
        for s in (None, 0, 1, 2):
            fast.view(s)
        fast.apply(seat, offered[-1])
        pure.apply(seat, offered[-1])
        same_views(pure, fast)
    assert fast._twin_cache is None and len(fast.history_ids()) == len(pure.history)
    assert [e.to_dict("all") for e in fast.log] == [e.to_dict("all") for e in pure.log]


def test_a_view_of_a_seat_the_game_does_not_have_is_refused() -> None:
    rules = SPEC.rules("all-fives", {})
    fast = NativeDominoState.new(rules, 2, Chance(1))
    each = rules.tiles_each(2)
    for bad in (-1, 2, True, 1.0, "0"):
        with pytest.raises(NoSuchSeat):
            fast.view(bad)  # type: ignore[arg-type]
    assert fast.view(None)["hand_sizes"] == [each, each] and len(fast.view(0)["my_hand"]) == each
    assert "my_hand" not in fast.view(None) and "legal" not in fast.view(None)


def read_from_pure(preset: str, players: int, seed: int, moves: int,
                   rng: random.Random) -> tuple[DominoState, NativeDominoState]:
    """A pure game played ``moves`` moves, and the native game read from it."""
    pure = DominoState.new(SPEC.rules(preset, {"claim_timing": "lenient"}), players, Chance(seed))
    for _ in range(moves):
        seat, action = choose(pure, rng, 0.5)
        pure.apply(seat, action)
    return pure, NativeDominoState.from_pure(pure)


def test_a_native_game_read_from_a_pure_one_views_alike() -> None:
    """``from_pure`` mid-game (the layout's geometry comes from the pure state), then played on."""
    rng = random.Random(3)
    pure, fast = read_from_pure("muggins-spinner", 3, 8, 12, rng)
    same_views(pure, fast)
    while not pure.is_over():
        seat, action = choose(pure, rng, 0.5)
        fast.apply(seat, action)
        pure.apply(seat, action)
        same_views(pure, fast)
    assert fast.history == pure.history  # the pure start's, then the native game's


@pytest.mark.parametrize(("preset", "players"), [("muggins", 2), ("all-fives", 3), ("seven-rocks", 4),
                                                ("five-up", 2), ("merry-go-round", 3)])
def test_undo_replays_natively_and_views_alike(preset: str, players: int) -> None:
    """``undo`` of a game dealt from a chance is played again by its action ids on the native engine: the
    same views and events as the pure engine undone, with no pure twin built."""
    rules = SPEC.rules(preset, {"claims": "manual", "claim_timing": "lenient"})
    rng = random.Random(players)
    fast = NativeDominoState.new(rules, players, Chance(11))
    pure = DominoState.new(rules, players, Chance(11))
    for _round in range(6):
        for _ in range(rng.randrange(5, 40)):
            if pure.is_over():
                break
            seat, action = choose(pure, rng, 0.5)
            fast.apply_action_id(seat, pure.action_id(action))
            pure.apply(seat, action)
        steps = rng.randrange(0, 9)
        fast.undo(steps)
        pure.undo(steps)
        same_views(pure, fast)
        assert [e.to_dict("all") for e in fast.log] == [e.to_dict("all") for e in pure.log]
        assert len(fast.history_ids()) == len(pure.history)
    assert fast._twin_cache is None
    with pytest.raises(IllegalAction):
        fast.undo(len(pure.history) + 1)
    with pytest.raises(IllegalAction):
        fast.undo(-1)
    assert len(fast.history_ids()) == len(pure.history)


def test_undo_of_a_native_game_read_from_a_pure_one() -> None:
    """A game read from a pure one (``from_pure``): undone natively within its own moves, on the pure
    engine past them; the same views as the pure game undone either way."""
    rng = random.Random(5)
    pure, fast = read_from_pure("muggins", 2, 21, 8, rng)
    for _ in range(20):
        if pure.is_over():
            break
        seat, action = choose(pure, rng, 0.5)
        fast.apply(seat, action)
        pure.apply(seat, action)
    for steps in (3, 0, 19):  # the last goes back past the native game's first move
        fast.undo(steps)
        pure.undo(steps)
        same_views(pure, fast)
        assert [e.to_dict("all") for e in fast.log] == [e.to_dict("all") for e in pure.log]
    while not pure.is_over():  # the same deals afterwards
        seat, action = choose(pure, rng, 0.5)
        fast.apply(seat, action)
        pure.apply(seat, action)
        same_views(pure, fast)
