"""The native domino engine against the pure one: the same random games, move by move.

Each game is played in lockstep: a random legal id (any claim, call or late claim included) is applied to
the pure ``DominoState`` (through ``action_from_id``) and to the native state, and after every move the
two must agree on every seat's legal ids, the scores, the seat to move, the count, the hands, the
boneyard, the muggins window and the end. Draws need nothing more: the native ``apply_id`` draws the
boneyard's last tile, as the pure engine does. A deal (a new hand) is the one chance event the engines do
not share: the scores, the hand number and the end are compared first, then the native state takes the
pure deal with ``from_state``.
"""

from __future__ import annotations

import collections
import dataclasses
import random

import numpy as np
import pytest

from muggins._accel import load_native
from muggins.core.errors import ClaimError, GameOver, IllegalAction, NoSuchSeat, UnknownAction
from muggins.core.rules import get_game
from muggins.dominoes.rules import PRESETS
from muggins.dominoes.state import DominoState

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

SPEC = get_game("dominoes")
# every preset the native engine plays, with the player counts it plays them with
SUPPORTED = [(p, n) for p in PRESETS for n in SPEC.players_for(PRESETS[p])
             if native.unsupported(PRESETS[p], n) is None]


def test_every_preset_is_played_with_every_player_count() -> None:
    """Nothing of the game's preset list is left out: each preset with each count of 2 to 4 players its
    rules allow (seven-rocks is a partnership game for four)."""
    assert sorted({p for p, _ in SUPPORTED}) == sorted(SPEC.presets)
    allowed = [(p, n) for p in PRESETS for n in SPEC.players_for(PRESETS[p]) if 2 <= n <= 4]
    assert allowed == SUPPORTED
    assert [n for p, n in SUPPORTED if p == "seven-rocks"] == [4]
    assert all((p, n) in SUPPORTED for p in PRESETS if p != "seven-rocks" for n in (2, 3, 4))


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("muggins", 2, {"tile_set": 12}),
    ("sniff", 3, {"spinner": "sniff_stub"}),
    ("muggins", 2, {"draw": "one_then_pass"}),
    ("muggins", 3, {"first_lead": "highest_double_forced"}),
    ("fives-and-threes", 4, {"partnerships": True}),
], ids=lambda x: str(x))
def test_out_of_scope_rules_are_refused_by_name(preset: str, players: int, options: dict[str, object]) -> None:
    rules = dataclasses.replace(PRESETS[preset], **options)
    state = SPEC.new(rules, players, seed=1)
    why = native.unsupported(rules, players)
    assert why is not None and next(iter(options)) in why
    with pytest.raises(NotImplementedError, match=why.split("=")[0]):
        native.NativeDominoes.from_state(state)
    with pytest.raises(NotImplementedError):
        native.NativeDominoes.new(rules, players, 1)


def legal_ids(state: DominoState, seat: int) -> list[int]:
    return np.flatnonzero(np.frombuffer(state.legal_action_mask(seat), dtype=np.uint8)).tolist()


def check_same(state: DominoState, nat: native.NativeDominoes) -> None:
    """Everything the two engines must agree on."""
    where = f"hand {state.hand_no}, after {len(state.history)} actions"
    assert nat.is_over() == state.is_over(), where
    assert nat.side_scores() == state.side_scores(), where
    assert nat.winners() == sorted(state.winners()), where
    if state.is_over():
        assert nat.to_move() == -1 and nat.to_act() == []
    else:
        assert nat.to_move() == state.turn, where
        assert nat.to_act() == sorted(state.to_act()), where
        assert nat.count == state.count, where
    assert nat.hand_no == state.hand_no, where
    assert nat.hands() == [sorted(t.index for t in h) for h in state.hands], where
    assert nat.boneyard() == [t.index for t in state.boneyard], where
    w = state._window
    assert nat.window() == (None if w is None else (w.scorer, w.missed, w.may_claim)), where
    for seat in range(state.num_players):
        assert nat.legal_ids(seat) == legal_ids(state, seat), f"{where}, seat {seat}"


def pick(rng: random.Random, state: DominoState, nat: native.NativeDominoes) -> tuple[int, int]:
    """A seat that may act and one of its legal ids: mostly the seat to move; any claim, call or late
    claim, with a play's true claim or its silence, a call naming nothing and a true late claim made
    likelier (so that games end and every path of the muggins rule is taken)."""
    seats = sorted(state.to_act())
    seat = state.turn if state.turn in seats and rng.random() < 0.7 else rng.choice(seats)
    ids = nat.legal_ids(seat)
    own = [i for i in ids if i < _play_stop(state) + 3]  # plays, draw, pass
    calls = ids[len(own):]  # a muggins call, a late claim
    i = rng.choice(calls if calls and (not own or rng.random() < 0.25) else own)
    if state._manual:
        width = state.max_step_points() + 2
        u = rng.random()
        if i < _play_stop(state):
            if u < 0.4:
                i = i // width * width + nat.points_of(i) + 1
            elif u < 0.6:
                i = i // width * width
        elif _play_stop(state) + 3 <= i < _play_stop(state) + 3 + width:
            if u < 0.3:  # a call naming nothing
                i = _play_stop(state) + 3
        elif i >= _play_stop(state) + 3 + width and u < 0.5 and state._window is not None:  # the true late claim
            i = _play_stop(state) + 3 + width + state._window.late_claimable()
    return seat, i


def _play_stop(state: DominoState) -> int:
    space = state._action_space()
    return int(space.by_kind["play"].stop)


def lockstep(preset: str, players: int, seed: int, max_actions: int = 1500,
             seen: collections.Counter[str] | None = None, **options: object) -> int:
    """Play one random game on both engines (or its first ``max_actions`` actions: calls and penalties can
    keep scores from the target); returns the actions made. ``seen`` counts the kinds of actions made
    and the paths they took (``extra turn``: a play that kept the turn, ``bonus window``: a late claim
    open on a going-out bonus, ``voluntary draw``: a draw beside a play)."""
    rules = dataclasses.replace(PRESETS[preset], **options) if options else PRESETS[preset]
    state = SPEC.new(rules, players, seed=seed)
    nat = native.NativeDominoes.from_state(state, seed)
    rng = random.Random(seed)
    while True:
        check_same(state, nat)
        if state.is_over() or len(state.history) >= max_actions:
            return len(state.history)
        if len(state.history) % 25 == 24:  # the state played along is the state read afresh
            check_same(state, native.NativeDominoes.from_state(state))
        seat, i = pick(rng, state, nat)
        hand = state.hand_no
        action = state.action_from_id(seat, i)
        if seen is not None:
            seen[action.kind] += 1
            if action.kind == "draw" and any(a.kind == "play" for a in state._regular(seat)):
                seen["voluntary draw"] += 1
        state.apply(seat, action)
        nat.apply_id(seat, i)
        if seen is not None and action.kind == "play" and state.turn == seat and state.hand_no == hand \
                and not state.is_over():
            seen["extra turn"] += 1
        if seen is not None and state._window is not None and state._window.reason == "domino":
            seen["bonus window"] += 1
        if state.hand_no != hand:  # a deal: what came before it must agree, then take the pure deal
            assert nat.hand_no == state.hand_no
            assert nat.side_scores() == state.side_scores()
            assert nat.is_over() == state.is_over()
            nat = native.NativeDominoes.from_state(state, seed)


GAMES = 10  # for each player count: 30 games a preset
# the claim modes each preset is played with in turn: as set, automatic claims, late claims allowed
CLAIMS: list[dict[str, object]] = [{}, {"claims": "auto"}, {"claims": "manual", "claim_timing": "lenient"}]


@pytest.mark.parametrize(("preset", "players"), SUPPORTED)
def test_lockstep_random_games(preset: str, players: int) -> None:
    total = 0
    seen: collections.Counter[str] = collections.Counter()
    for g in range(GAMES):
        total += lockstep(preset, players, seed=1000 * players + g, seen=seen, target=61, **CLAIMS[g % 3])
    assert total > GAMES * 10
    assert seen["play"] and seen["muggins"] and seen["claim"]  # calls and late claims were made
    if PRESETS[preset].extra_turn != "none":
        assert seen["extra turn"]


@pytest.mark.parametrize("options", [
    {"claim_timing": "lenient", "muggins": "steal_and_deduct", "false_call_penalty": "deduct"},
    {"claim_timing": "lenient", "muggins": "forfeit", "false_call_penalty": "award", "over_claim": "opponent_scores"},
    {"win_check": "end_of_hand", "entry_threshold": 10, "no_win_on_down": True},
    {"blocked": "cascade", "draw": "none", "out_bonus": "total_round5", "hand_double_counts_once": True},
    {"blocked": "lightest_takes_opponents", "blocked_tie": "split", "draw": "none", "round_mode": "none",
     "out_bonus": "largest_hand_per5", "score_fn": "fives_per5"},
    {"blocked_tie": "all_tied_score", "draw": "none", "round_mode": "net", "out_bonus": "raw",
     "first_lead": "highest_double", "next_lead": "lowest_score", "lot_tie": "high_end"},
    {"first_lead": "lot_lightest", "boneyard_reserve": 2, "spinner": "first_double", "spinner_sides_first": False},
    {"tile_set": 9, "spinner": "first_double", "spinner_count": "sniff_ends", "score_fn": "threes_and_fives_pips"},
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_lockstep_other_options(options: dict[str, object]) -> None:
    for players in (2, 3, 4):
        for g in range(2):
            lockstep("muggins", players, seed=77 * players + g, target=61, **options)


# the rest of the preset family's options, each path checked in lockstep: (preset, players, options, the
# counts of ``lockstep``'s ``seen`` that must be positive over the games)
FAMILY: list[tuple[str, int, dict[str, object], tuple[str, ...]]] = [
    ("seven-rocks", 4, {"knocking": True, "draw": "until_playable", "hand_size": 5, "target": 100}, ("knock",)),
    ("muggins", 4, {"partnerships": True, "knocking": True, "hand_size": 5, "claim_timing": "lenient",
                    "mug_bonus": True, "partner_pips_deducted": True, "target": 100},
     ("knock", "bonus window", "claim", "muggins")),
    ("muggins", 4, {"partnerships": True, "knocking": True, "hand_size": 4, "claims": "auto",
                    "partner_pips_deducted": True, "round_mode": "none", "next_lead": "lowest_score",
                    "target": 100}, ("knock",)),
    ("seven-rocks", 4, {"blocked": "cascade", "next_lead": "lowest_score", "win_check": "end_of_hand",
                        "target": 100}, ()),
    ("seven-rocks", 4, {"blocked": "lightest_takes_opponents", "blocked_tie": "split", "muggins": "steal_and_deduct",
                        "false_call_penalty": "award", "over_claim": "opponent_scores", "target": 100}, ("muggins",)),
    ("seven-rocks", 4, {"blocked": "lightest_takes_difference", "blocked_tie": "all_tied_score",
                        "out_bonus": "largest_hand_per5", "target": 100}, ()),
    ("seven-rocks", 4, {"blocked": "lightest_takes_difference", "out_bonus": "heaviest_tile_prime",
                        "entry_threshold": 10, "target": 100}, ()),
    ("merry-go-round", 3, {"voluntary_draw": True, "mug_bonus": True, "claim_timing": "lenient"},
     ("voluntary draw", "bonus window")),
    ("five-up", 2, {"voluntary_draw": True, "spinner_fill_first": True, "lead_must_be": "double",
                    "extra_turn": "double_or_scoring", "tile_set": 9}, ("voluntary draw", "extra turn")),
    ("five-up", 3, {"tile_set": 9, "spinner_sides_first": False, "spinner_count": "sniff_ends",
                    "max_draws_per_turn": 1, "draw": "none", "next_lead": "lowest_score"}, ()),
    ("seven-toed-pete", 3, {"first_lead": "must_set_double", "draw": "until_playable", "mug_bonus": True,
                            "over_claim": "opponent_scores"}, ("extra turn", "draw")),
    ("seven-toed-pete", 4, {"lead_must_be": "double", "claims": "auto", "voluntary_draw": True}, ("extra turn",)),
    ("all-fives", 2, {"lead_must_be": "double", "draw": "until_playable", "boneyard_reserve": 2,
                      "spinner_fill_first": True, "voluntary_draw": True}, ("voluntary draw",)),
]


@pytest.mark.parametrize(("preset", "players", "options", "paths"), FAMILY,
                         ids=lambda x: x if isinstance(x, str) else None)
def test_lockstep_preset_family_options(preset: str, players: int, options: dict[str, object],
                                        paths: tuple[str, ...]) -> None:
    seen: collections.Counter[str] = collections.Counter()
    for g in range(6):
        lockstep(preset, players, seed=91 * players + g, seen=seen, max_actions=800, **options)
    assert all(seen[p] for p in paths), seen


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), SUPPORTED)
def test_lockstep_many_games_to_the_preset_target(preset: str, players: int) -> None:
    for g in range(60):
        lockstep(preset, players, seed=50_000 + 1000 * players + g, **CLAIMS[g % 3])


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "options", "paths"), FAMILY,
                         ids=lambda x: x if isinstance(x, str) else None)
def test_lockstep_many_preset_family_games(preset: str, players: int, options: dict[str, object],
                                          paths: tuple[str, ...]) -> None:
    for g in range(40):
        lockstep(preset, players, seed=70_000 + 100 * players + g, **options)


# ------------------------------------------------------------------------------------- the API ----
def midgame(preset: str = "muggins", players: int = 2, seed: int = 3, moves: int = 9) -> DominoState:
    state = SPEC.new(PRESETS[preset], players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.turn
        acts = state._regular(seat)
        a = rng.choice(acts)
        state.apply(seat, a.with_claim(state.claim_for(seat, a)) if a.kind == "play" else a)
    return state


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    state = midgame()
    nat = native.NativeDominoes.from_state(state)
    before = (nat.hands(), nat.boneyard(), nat.side_scores(), nat.to_move(), nat.legal_ids(nat.to_move()))
    other = 1 - nat.to_move()
    legal = nat.legal_ids(nat.to_move())
    illegal = next(i for i in range(nat.num_distinct_actions()) if i not in legal)
    with pytest.raises(IllegalAction):
        nat.apply_id(nat.to_move(), illegal)
    with pytest.raises(IllegalAction):
        nat.apply_id(other, legal[0])
    with pytest.raises(UnknownAction):
        nat.apply_id(0, nat.num_distinct_actions())
    with pytest.raises(NoSuchSeat):
        nat.apply_id(2, legal[0])
    with pytest.raises(NoSuchSeat):
        nat.legal_ids(2)
    with pytest.raises(TypeError, match="from_state"):
        native.NativeDominoes()
    if nat.window() is None:
        with pytest.raises(ClaimError):
            nat.apply_id(other, nat.num_distinct_actions() - 1)
    assert (nat.hands(), nat.boneyard(), nat.side_scores(), nat.to_move(), nat.legal_ids(nat.to_move())) == before


def test_a_finished_game_takes_no_move() -> None:
    nat = native.NativeDominoes.from_state(midgame())
    nat.playout(0, 1)
    assert nat.is_over() and nat.legal_ids(0) == [] and nat.to_move() == -1
    with pytest.raises(GameOver):
        nat.apply_id(0, 0)


@pytest.mark.parametrize("policy", [0, 1])
def test_playouts_end_the_game_and_repeat_from_their_seed(policy: int) -> None:
    nat = native.NativeDominoes.from_state(midgame("all-fives", 3))
    a, b, c = nat.clone(), nat.clone(), nat.clone()
    made = a.playout(policy, 7)
    assert a.is_over() and made > 0 and max(a.side_scores()) >= 200 and a.winners()
    assert b.playout(policy, 7) == made and b.side_scores() == a.side_scores()
    # the original is untouched by its clones' playouts
    assert not nat.is_over() and nat.side_scores() == native.NativeDominoes.from_state(
        midgame("all-fives", 3)).side_scores()
    assert c.playout(policy, 7, max_moves=5) == 5 and not c.is_over()


def test_different_seeds_give_different_playouts() -> None:
    nat = native.NativeDominoes.from_state(midgame())
    results = set()
    for seed in range(12):
        c = nat.clone()
        results.add((c.playout(0, seed), tuple(c.side_scores())))
    assert len(results) > 6


def test_greedy_makes_the_highest_scoring_play() -> None:
    """One greedy move scores what the best play of the pure engine's list scores."""
    checked = 0
    for seed in range(40):
        state = midgame("all-fives", 2, seed=seed, moves=4)
        if state.is_over() or (state._window is not None and state._window.missed):
            continue
        seat = state.turn
        plays = [a for a in state._regular(seat) if a.kind == "play"]
        if not plays:
            continue
        best = max(state.claim_for(seat, a) for a in plays)
        nat = native.NativeDominoes.from_state(state)
        before = nat.side_scores()[seat]
        nat.playout(1, seed, max_moves=1)
        if nat.hand_no != state.hand_no or nat.is_over():
            continue
        assert nat.side_scores()[seat] - before == best
        checked += 1
    assert checked >= 20


def test_native_games_are_whole_games() -> None:
    rules = PRESETS["muggins"]
    for players in (2, 3, 4):
        nat = native.NativeDominoes.new(rules, players, seed=players)
        assert nat.hand_no == 1 and sum(len(h) for h in nat.hands()) + len(nat.boneyard()) == 28
        assert nat.playout(0, players) > 20 and nat.is_over()
        assert max(nat.side_scores()) >= rules.target and len(nat.winners()) == 1
    out = native.random_play_native(rules, 2, 0.05, seed=1)
    assert out["games"] >= 1 and out["moves"] > out["games"] * 10


def test_bench_reports_the_native_engine_beside_the_protocol() -> None:
    import json

    from typer.testing import CliRunner

    from muggins.cli.main import app

    res = CliRunner().invoke(app, ["bench", "--seconds", "0.05", "--runs", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["native"]["engine"].startswith("muggins.dominoes.native")
    assert out["native"]["moves_per_second"] > 0 and out["moves_per_second"] > 0
    assert out["build"]["native"]["muggins.dominoes.native"] == "built"
    res = CliRunner().invoke(app, ["bench", "--seconds", "0.05", "--runs", "1"])
    assert res.exit_code == 0 and "Native engine muggins.dominoes.native" in res.output
    res = CliRunner().invoke(app, ["bench", "-p", "five-up", "--seconds", "0.05", "--runs", "1", "--json"])
    out = json.loads(res.output)
    assert out["native"]["moves_per_second"] > 0 and "native_unavailable" not in out
    res = CliRunner().invoke(app, ["bench", "-o", "spinner=sniff_stub", "--seconds", "0.05", "--runs", "1", "--json"])
    out = json.loads(res.output)
    assert "native" not in out and "sniff_stub" in out["native_unavailable"]
