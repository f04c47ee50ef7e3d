"""The native cribbage engine (cards/cribbage/native.pyx) against the pure one, move by move.

Lockstep: a random legal id is applied to both engines; after every move their legal id sets (both seats),
scores, phase, turn, count, dealer, hand number, every seat's cards, the crib and the starter must agree.
Chance is shared by feeding: after the pure engine draws a deal or a cut (the outcomes its Chance gives out),
the same cards are fed to the native engine before it applies the move, so the native engine plays the deal,
the cut, his heels and the change of dealer itself. ``from_state`` is checked at every step as well (a copy
taken from the pure state must equal the native engine that played there).

Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from muggins._accel import load_native
from muggins.cards.cribbage.game import CribbageState, stacked
from muggins.cards.cribbage.rules import PRESETS
from muggins.cards.cribbage.show import score_show
from muggins.cards.dealing import CARD_BY_TEXT, DECK
from muggins.core.chance import Chance
from muggins.core.errors import GameOver, IllegalAction, NotYourTurn, UnknownAction

native, WHY = load_native("muggins.cards.cribbage.native")
pytestmark = pytest.mark.skipif(native is None, reason=f"the native cribbage module: {WHY}")

SUPPORTED = ("cribbage", "cribbage-61", "cribbage-muggins", "three-hand", "four-hand", "five-card")


def _ids(state: CribbageState, seat: int) -> list[int]:
    return [i for i, b in enumerate(state.legal_action_mask(seat)) if b]


def _idx(cards: list) -> list[int]:
    return sorted(c.index for c in cards)


def _same(state: CribbageState, nat: object, where: str) -> None:
    over = state.is_over()
    assert nat.is_over() == over, where
    assert list(nat.side_scores()) == state.side_scores(), where
    assert nat.phase() == ("over" if over else state.phase), where
    assert nat.waiting_for() == state.waiting_for(), where
    assert nat.to_act() == state.to_act(), where
    if over:
        assert nat.winner() == state.side_of(min(state.winners())), where
        return
    if state.phase in ("play", "show"):
        assert nat.turn() == state.turn, where
    assert nat.count() == state.count, where
    assert nat.dealer() == state.dealer, where
    assert nat.hand_no() == state.hand_no, where
    assert nat.starter() == (state.starter.index if state.starter is not None else -1), where
    assert nat.crib() == _idx(state.crib), where
    for s in range(state.num_players):
        assert nat.held(s) == _idx(state.hands[s]), where
        assert nat.kept(s) == _idx(state.kept[s]), where
        assert nat.legal_ids(s) == _ids(state, s), where


def _feed(nat: object, outcome: dict) -> None:
    """Give the native engine a chance outcome the pure engine drew."""
    if outcome["kind"] == "deal":
        hands = [[CARD_BY_TEXT[t].index for t in h] for h in outcome["hands"]]
        nat.feed_deal(hands, [CARD_BY_TEXT[t].index for t in outcome["pack"]],
                      [CARD_BY_TEXT[t].index for t in outcome.get("crib", ())])
    elif outcome["kind"] == "starter":
        nat.feed_cut(outcome["cut"])


def lockstep(preset: str, seed: int, resync_check: bool = True, greedy: float = 0.0,
             target: int = 0, start: CribbageState | None = None) -> CribbageState:
    """One game in both engines, random moves (or, with probability ``greedy``, the native greedy policy's
    choice); ``target`` overrides the preset's; ``start`` is a game to begin from instead of a new one.
    Returns the pure engine's finished game."""
    rules = PRESETS[preset] if not target else dataclasses.replace(PRESETS[preset], target=target)
    state = start if start is not None else CribbageState.new(rules, rules.players, Chance(seed))
    nat = native.NativeCribbage.from_state(state)
    nat.seed(seed)
    seen = state.chance.position  # outcomes may be recorded ahead (a stacked deal): feed what was drawn
    rng = random.Random(seed)
    moves = 0
    _same(state, nat, "start")
    while not state.is_over():
        if greedy and rng.random() < greedy:
            seat = nat.to_move()
            i = nat.choose_id(1)
        else:
            seat = rng.choice(sorted(state.to_act()))  # both seats discard, in either order; calls, claims
            i = rng.choice(_ids(state, seat))
        state.apply(seat, state.action_from_id(seat, i))
        for outcome in state.chance.outcomes[seen:state.chance.position]:
            _feed(nat, outcome)
        seen = state.chance.position
        nat.apply_id(seat, i)
        moves += 1
        where = f"{preset} seed {seed} move {moves}: seat {seat} id {i}"
        _same(state, nat, where)
        if resync_check:
            _same(state, native.NativeCribbage.from_state(state), where + " (from_state)")
    assert max(nat.side_scores()) >= rules.target
    assert list(nat.side_scores()) == state.side_scores() and set(nat.winners()) == {
        state.side_of(s) for s in state.winners()}
    return state


@pytest.mark.parametrize("preset", SUPPORTED)
def test_random_games_in_lockstep(preset: str) -> None:
    for seed in range(20):
        lockstep(preset, 1000 + seed, resync_check=seed % 4 == 0)


@pytest.mark.parametrize("preset", ["cribbage", "cribbage-muggins"])
def test_greedy_choices_in_lockstep(preset: str) -> None:
    """The greedy policy's ids are legal for the pure engine, and they lead to positions random play rarely reaches
    (with claims, the greedy id announces the move's true points: ``claim_for``)."""
    for seed in range(6):
        lockstep(preset, 2000 + seed, resync_check=False, greedy=0.7)


def test_greedy_claims_are_the_true_points() -> None:
    rules = PRESETS["cribbage-muggins"]
    state = CribbageState.new(rules, 2, Chance(11))
    nat = native.NativeCribbage.from_state(state)
    checked = 0
    while not state.is_over() and checked < 200:
        seat = nat.to_move()
        i = nat.choose_id(1)
        action = state.action_from_id(seat, i)
        if action.kind in ("play", "go", "count"):
            assert action.claim == state.claim_for(seat, action._replace(claim=None))
            checked += 1
        state.apply(seat, action)
        nat = native.NativeCribbage.from_state(state)
    assert checked > 50


def test_short_targets_end_on_every_kind_of_step() -> None:
    """Small targets end games on his heels, the play, a go and the show alike: the end must agree too."""
    ends = set()
    for target in (2, 3, 5, 9, 17, 31):
        for seed in range(12):
            state = lockstep("cribbage", 3000 + 100 * target + seed, resync_check=seed % 3 == 0, target=target)
            ends.add(next(e.data["reason"] for e in reversed(state.log) if e.kind == "score"))
    for dealer in (0, 1):  # a jack turned up wins a game to 2 for the dealer at the cut
        rules = dataclasses.replace(PRESETS["cribbage"], target=2)
        deal = stacked(rules, [["AC", "2D", "3H", "4S", "5C", "6D"], ["7H", "8S", "9C", "TD", "QH", "KS"]],
                       "JH", dealer=dealer)
        state = lockstep("cribbage", 7 + dealer, target=2, start=deal)
        assert state.winners() == {dealer}
        ends.add(next(e.data["reason"] for e in reversed(state.log) if e.kind == "score"))
    assert {"his heels", "play", "go", "hand", "crib"} <= ends


@pytest.mark.slow
@pytest.mark.parametrize("preset", SUPPORTED)
def test_many_random_games_in_lockstep(preset: str) -> None:
    for seed in range(300):
        lockstep(preset, 50_000 + seed, greedy=0.5 if seed % 2 else 0.0)


def test_show_scores_match_show_py() -> None:
    rng = random.Random(7)
    for k in range(4000):
        five = rng.sample(DECK, 5)
        hand, starter = five[:4], five[4]
        crib = k % 2 == 1
        assert native.show_points([c.index for c in hand], starter.index, crib) == \
            score_show(hand, starter, crib), (hand, starter, crib)


def test_show_known_hands() -> None:
    c = {t: CARD_BY_TEXT[t].index for t in ("5C", "5D", "5H", "5S", "JS", "2H", "4H", "6H", "8H", "KH")}
    assert native.show_points([c["5C"], c["5D"], c["5H"], c["JS"]], c["5S"]) == 29
    assert native.show_points([c["2H"], c["4H"], c["6H"], c["8H"]], c["KH"]) == 5  # flush of five, no fifteen
    assert native.show_points([c["2H"], c["4H"], c["6H"], c["8H"]], c["KH"], True) == 5
    # 2+8+5 and 4+6+5, the run 4-5-6; a crib flush needs the starter's suit too
    assert native.show_points([c["2H"], c["4H"], c["6H"], c["8H"]], c["5C"], True) == 7
    assert native.show_points([c["2H"], c["4H"], c["6H"], c["8H"]], c["5C"]) == 11
    with pytest.raises(ValueError):
        native.show_points([c["5C"], c["5C"], c["5H"], c["JS"]], c["5S"])


def test_every_preset_is_played_and_other_player_counts_say_why() -> None:
    for preset, rules in PRESETS.items():
        assert native.unsupported(rules, rules.players) is None, preset
        out = native.random_games_native(rules, 0.01, 1)
        assert out["games"] > 0 and out["moves"] > 10 * out["games"], preset
        other = 3 if rules.players == 2 else 2
        why = native.unsupported(rules, other)
        assert why is not None and preset in why and str(other) in why
        with pytest.raises(NotImplementedError, match=preset):
            native.random_play_native(rules, other, 0.01)
    with pytest.raises(TypeError, match="CribbageState"):
        native.NativeCribbage.from_state(object())


@pytest.mark.parametrize("preset", ["three-hand", "four-hand", "five-card"])
def test_native_games_of_other_deals(preset: str) -> None:
    """Games dealt by the native engine itself: whole hands, the right sizes, a winner (partners share one)."""
    rules = PRESETS[preset]
    for seed in range(5):
        nat = native.NativeCribbage(seed=seed, rules=rules)
        held = [nat.held(s) for s in range(rules.players)]
        assert all(len(h) == rules.cards_each for h in held)
        assert len(nat.crib()) == rules.crib_dealt
        assert len({c for h in held for c in h} | set(nat.crib())) == rules.players * rules.cards_each + \
            rules.crib_dealt
        if rules.five_card:  # three for last, to the first pone
            assert sorted(nat.side_scores()) == [0, 3]
        nat.playout(seed % 2, seed)
        assert nat.is_over() and max(nat.side_scores()) >= rules.target
        assert len(nat.side_scores()) == (2 if rules.players == 4 else rules.players)
        assert nat.winners() == [max(range(len(nat.side_scores())), key=lambda s: nat.side_scores()[s])]


def _signature(nat: object) -> tuple:
    return (nat.phase(), nat.turn(), nat.count(), nat.dealer(), nat.hand_no(), nat.side_scores(),
            nat.starter(), tuple(nat.crib()), *(tuple(nat.held(s)) for s in range(2)))


@pytest.mark.parametrize("policy", [0, 1])
def test_playout_moves_are_legal(policy: int) -> None:
    """Step a playout one move at a time: each step must reach a position that one legal id reaches. Chance
    is fed before each step (a random deal and cut), so the playout and the trial moves draw the same."""
    rng = random.Random(policy)
    for seed in range(3):
        nat = native.NativeCribbage(seed=seed)
        steps = 0
        while not nat.is_over():
            cards = rng.sample(range(52), 52)
            nat.feed_deal([cards[:6], cards[6:12]], cards[12:])
            nat.feed_cut(rng.randint(4, 36))
            seat = nat.to_move()
            reachable = set()
            for i in nat.legal_ids(seat):
                c = nat.clone()
                c.apply_id(seat, i)
                reachable.add(_signature(c))
            assert nat.playout(policy, seed * 1000 + steps, 1) == 1
            assert _signature(nat) in reachable
            steps += 1
        assert max(nat.side_scores()) >= 121
        assert nat.winner() in (0, 1)


def test_playout_is_reproducible_and_leaves_clones_alone() -> None:
    state = CribbageState.new(PRESETS["cribbage"], 2, Chance(5))
    for _ in range(30):
        seat = min(state.waiting_for())
        state.apply(seat, state.legal_actions(seat)[0])
    nat = native.NativeCribbage.from_state(state)
    keep = _signature(nat)
    a, b = nat.clone(), nat.clone()
    moves = a.playout(0, 42)
    assert b.playout(0, 42) == moves and _signature(a) == _signature(b)
    assert a.is_over() and moves > 0
    assert _signature(nat) == keep
    c = nat.clone()
    assert c.playout(1, 3, max_moves=5) == 5 and not c.is_over()
    with pytest.raises(ValueError):
        nat.playout(2, 0)


def test_bad_moves_raise_and_change_nothing() -> None:
    nat = native.NativeCribbage(seed=9, dealer=0)
    keep = _signature(nat)
    held = nat.held(1)
    with pytest.raises(UnknownAction):
        nat.apply_id(1, 5000)
    with pytest.raises(IllegalAction):
        nat.apply_id(1, 1326 + held[0])  # a play while discarding
    foreign = next(a + b * (b - 1) // 2 for a, b in combinations(range(52), 2) if a not in held and b not in held)
    with pytest.raises(IllegalAction):
        nat.apply_id(1, foreign)
    with pytest.raises(NotYourTurn):
        nat.apply_id(2, nat.legal_ids(1)[0])
    assert _signature(nat) == keep
    nat.apply_id(1, nat.legal_ids(1)[0])
    with pytest.raises(NotYourTurn):
        nat.apply_id(1, nat.legal_ids(0)[0])  # seat 1 has laid away already
    nat.playout(0, 1)
    assert nat.is_over()
    with pytest.raises(GameOver):
        nat.apply_id(0, 1378)


def test_random_games_native_reports_throughput() -> None:
    out = native.random_games_native(PRESETS["cribbage-61"], 0.05, 3)
    assert out["engine"] == "native" and out["games"] > 0 and out["moves"] > 20 * out["games"]


def test_build_status_and_setup_list_the_native_module() -> None:
    from muggins import _accel

    assert _accel.build_status()["native"]["muggins.cards.cribbage.native"] == "built"
    setup = (Path(__file__).resolve().parents[2] / "setup.py").read_text()
    assert '_accelerated("NATIVE", ".pyx")' in setup


def test_bench_reports_the_native_engine_beside_the_protocol() -> None:
    from typer.testing import CliRunner

    from muggins.cli.main import app

    res = CliRunner().invoke(app, ["bench", "--game", "cribbage", "--seconds", "0.05", "--runs", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["engine"].startswith("protocol") and out["games_per_second"] > 0
    assert "native" in out["native"]["engine"] and out["native"]["games_per_second"] > 0
    res = CliRunner().invoke(app, ["bench", "--game", "cribbage", "--preset", "five-card", "--seconds", "0.05",
                                   "--runs", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["native"]["games_per_second"] > 0 and "native_unavailable" not in out
