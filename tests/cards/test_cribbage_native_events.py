"""The native cribbage engine's event log against the pure engine's, a differential test.

Random games are played in both engines from the same deals (the pure engine draws them, the native one is
fed the same outcomes): after every move the events the native engine logged since the last check must equal
the new entries of the pure ``state.log`` (kind, seat, data as ``to_dict("all")`` and secret fields), and the
side scores and every seat's legal ids must agree. Every preset is tried with two to four players; the
combinations the native engine refuses are named, so that a new refusal (or a new support) shows here.

Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins._accel import load_native
from muggins.cards.cribbage.game import CribbageState
from muggins.cards.cribbage.rules import PRESETS, CribbageRules
from muggins.cards.dealing import CARD_BY_TEXT, DECK
from muggins.core.chance import Chance
from muggins.core.errors import RulesError
from muggins.core.protocol import Event

native, WHY = load_native("muggins.cards.cribbage.native")
pytestmark = pytest.mark.skipif(native is None, reason=f"the native cribbage module: {WHY}")

#: (preset, players) the native engine does not play: none (every preset with each number of players its
#: rules allow, which leaves out only five-card with three or four, refused by the rules themselves).
LEFT_OUT: set[tuple[str, int]] = set()
#: The muggins rule's other options, on the two-player game.
MANUAL_OPTIONS = [
    {"claim_timing": "lenient", "mug_his_heels": True, "muggins": "steal_and_deduct",
     "over_claim": "opponent_scores", "false_call_penalty": "deduct"},
    {"muggins": "forfeit", "false_call_penalty": "none", "mug_his_heels": True, "target": 61},
    {"claim_timing": "lenient", "false_call_penalty": "award", "false_call_points": 3},
]


def _variants() -> list[tuple[str, int, CribbageRules]]:
    """Every preset with every number of players its rules allow (2-4)."""
    out = []
    for name, rules in PRESETS.items():
        for n in (2, 3, 4):
            try:
                out.append((name, n, dataclasses.replace(rules, players=n)))
            except RulesError:  # five-card is for two
                continue
    return out


VARIANTS = _variants()
PLAYED = [(name, n) for name, n, rules in VARIANTS if native is not None and native.unsupported(rules, n) is None]


def _ids(state: CribbageState, seat: int) -> list[int]:
    return [i for i, b in enumerate(state.legal_action_mask(seat)) if b]


def _feed(nat: object, outcome: dict) -> None:
    if outcome["kind"] == "deal":
        hands = [[CARD_BY_TEXT[t].index for t in h] for h in outcome["hands"]]
        nat.feed_deal(hands, [CARD_BY_TEXT[t].index for t in outcome["pack"]],
                      [CARD_BY_TEXT[t].index for t in outcome.get("crib", ())])
    elif outcome["kind"] == "starter":
        nat.feed_cut(outcome["cut"])


def _key(e: Event) -> tuple:
    return e.to_dict("all"), tuple(e.secret)


def _random_move(state: CribbageState, rng: random.Random) -> tuple[int, int]:
    seat = rng.choice(sorted(state.to_act()))
    return seat, rng.choice(_ids(state, seat))


def play_both(rules: CribbageRules, n: int, seed: int, warmup: int = 0) -> tuple[CribbageState, object]:
    """One random game in both engines, checked after every move; returns both finished games. With
    ``warmup`` the pure engine plays that many moves alone first (the native game starts from there)."""
    rng = random.Random(seed)
    state = CribbageState.new(rules, n, Chance(seed))
    for _ in range(warmup):
        if state.is_over():
            break
        seat, i = _random_move(state, rng)
        state.apply(seat, state.action_from_id(seat, i))
    base = len(state.log)
    nat = native.NativeCribbage.from_state(state)
    seen_chance = state.chance.position
    seen = 0
    moves = 0
    while not state.is_over():
        seat, i = _random_move(state, rng)
        state.apply(seat, state.action_from_id(seat, i))
        for outcome in state.chance.outcomes[seen_chance:state.chance.position]:
            _feed(nat, outcome)
        seen_chance = state.chance.position
        nat.apply_id(seat, i)
        moves += 1
        where = f"{rules.preset} x{n} seed {seed} move {moves}: seat {seat} id {i}"
        new = nat.events(seen)
        assert [_key(e) for e in new] == [_key(e) for e in state.log[base + seen:]], where
        seen += len(new)
        assert list(nat.side_scores()) == state.side_scores(), where
        for s in range(n):
            assert nat.legal_ids(s) == _ids(state, s), f"{where}: seat {s}"
    assert nat.is_over() == state.is_over()
    assert nat.events() == state.log[base:]
    return state, nat


def test_the_left_out_variants_are_named() -> None:
    left = {(name, n) for name, n, rules in VARIANTS if native.unsupported(rules, n) is not None}
    assert left == LEFT_OUT
    assert len(VARIANTS) == 16  # six presets with 2-4 players, but five-card with two only
    for name, n, rules in VARIANTS:
        why = native.unsupported(rules, n)
        assert why is None or name in why
    why = native.unsupported(PRESETS["cribbage"], 3)  # players that are not the rules' own
    assert why is not None and "cribbage" in why


@pytest.mark.parametrize(("preset", "n"), PLAYED)
def test_random_games_log_the_same_events(preset: str, n: int) -> None:
    rules = dataclasses.replace(PRESETS[preset], players=n)
    kinds = set()
    for seed in range(30):
        state, _ = play_both(rules, n, 10_000 + seed)
        kinds.update(e.kind for e in state.log)
    assert {"deal", "dealt", "discard", "starter", "play", "go", "reset", "show_start", "show", "explain",
            "score", "game_end"} <= kinds


@pytest.mark.parametrize(("preset", "n"), [("cribbage-muggins", 2), ("cribbage-muggins", 4), ("three-hand", 3)])
def test_games_taken_midway_go_on_logging_the_same_events(preset: str, n: int) -> None:
    """``from_state`` at any point (an open window, a show whose count is still untold) logs what follows
    as the pure engine does."""
    rules = dataclasses.replace(PRESETS[preset], players=n)
    windows = untold = 0
    for seed in range(30_000, 30_040):
        warmup = random.Random(seed).randrange(5, 150)
        play_both(rules, n, seed, warmup)
        rng = random.Random(seed)
        probe = CribbageState.new(rules, n, Chance(seed))
        for _ in range(warmup):  # the position the native game was taken from, to count what it held
            if probe.is_over():
                break
            seat, i = _random_move(probe, rng)
            probe.apply(seat, probe.action_from_id(seat, i))
        windows += probe._window is not None
        untold += probe._explain_due is not None
    if rules.claims == "manual":
        assert windows >= 5 and untold >= 1, (windows, untold)


def test_the_log_can_be_turned_off_and_clones_keep_their_own() -> None:
    state = CribbageState.new(PRESETS["cribbage"], 2, Chance(3))
    nat = native.NativeCribbage.from_state(state)
    assert nat.logging() and nat.events() == []
    for _ in range(2):
        seat = min(nat.waiting_for())
        nat.apply_id(seat, nat.legal_ids(seat)[0])
    logged = nat.events()
    assert [e.kind for e in logged[:2]] == ["discard", "discard"] and logged[2].kind == "starter"
    twin = nat.clone()
    played = twin.playout(0, 5, max_moves=10)
    assert played == 10 and twin.events() == logged  # a playout logs nothing
    seat = nat.to_move()
    nat.apply_id(seat, nat.legal_ids(seat)[0])
    assert len(nat.events()) > len(logged) and twin.events() == logged
    nat.set_logging(False)
    assert not nat.logging() and nat.num_events() == 0
    with pytest.raises(ValueError, match="no event log"):
        nat.events()
    assert not native.from_state(state, 1).logging()  # the rollout copies keep none
    fresh = native.NativeCribbage(seed=4, dealer=1)
    assert [e.kind for e in fresh.events()] == ["deal", "dealt", "dealt"]
    texts = [DECK[c].text for c in fresh.held(0)]
    assert fresh.events(1)[0].to_dict("all") == {"kind": "dealt", "seat": 0, "cards": texts, "count": 6}


@pytest.mark.parametrize("options", MANUAL_OPTIONS)
def test_every_option_of_the_muggins_rule_logs_the_same_events(options: dict) -> None:
    rules = dataclasses.replace(PRESETS["cribbage-muggins"], **options)
    kinds = set()
    for seed in range(25):
        state, _ = play_both(rules, 2, 20_000 + seed)
        kinds.update(e.kind for e in state.log)
    assert {"claim", "over_claim", "missed", "muggins"} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "n"), PLAYED)
def test_many_random_games_log_the_same_events(preset: str, n: int) -> None:
    rules = dataclasses.replace(PRESETS[preset], players=n)
    for seed in range(400):
        play_both(rules, n, 500_000 + seed)
