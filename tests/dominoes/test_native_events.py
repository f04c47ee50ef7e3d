"""The native domino engine's event log against the pure engine's: the same games, the same events.

Each game is dealt by the native engine (``NativeDominoState``) and its lots and deals are handed to the
pure ``DominoState`` as chance outcomes, so both play the same tiles all game long. Players mix random and
greedy moves, manual and automatic claims (true, under-, over- and no claims), muggins calls (right, false,
naming an amount or not), late claims and moves refused as illegal. After every move both must agree on
the events (kind, seat, data, secret), the scores, who may act and every seat's legal ids and actions;
at the end ``to_pure()`` must give the pure game again. Every preset is played with 2-4 players, and so
are the option families of the lockstep tests (knocking, the muggable bonus, voluntary draws, extra turns,
the spinner filled first...). Skips when the native module is not built (fails instead under CI=true:
tests/conftest.py).
"""

from __future__ import annotations

import collections
import dataclasses
import random
from typing import Any

import pytest

from muggins._accel import load_native
from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction
from muggins.core.protocol import Action
from muggins.core.rules import get_game
from muggins.dominoes.rules import PRESETS
from muggins.dominoes.state import DominoState

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

from muggins.dominoes.fast import NativeDominoState  # noqa: E402 - after the skip
from tests.dominoes.test_native import FAMILY  # noqa: E402 - the lockstep tests' option families

SPEC = get_game("dominoes")
PLAYERS = (2, 3, 4)
# every preset with every player count the native engine plays it with: presets join as its scope grows
CASES = [(p, n) for p in PRESETS for n in PLAYERS
         if n in SPEC.players_for(PRESETS[p]) and native.unsupported(PRESETS[p], n) is None]
# muggins options drawn per game, so that late claims, forfeits, deductions and penalties all occur
OPTIONS: list[dict[str, Any]] = [
    {}, {"claim_timing": "lenient"}, {"muggins": "steal_and_deduct", "false_call_penalty": "deduct"},
    {"muggins": "forfeit", "over_claim": "opponent_scores"}, {"false_call_penalty": "award", "claim_timing": "lenient"},
    # and rule options whose events are rare in the presets: entry, target and lead rules, end-of-hand wins
    {"entry_threshold": 10, "exact_target": True, "target": 61},
    {"no_win_on_down": True, "target": 31, "claim_timing": "lenient"},
    {"win_check": "end_of_hand", "target": 41, "muggins": "steal_and_deduct"},
    {"out_bonus": "subtract_own", "target": 100, "false_call_penalty": "deduct"},
    {"blocked": "subtract_own", "target": 100, "claim_timing": "lenient"},
    {"blocked": "cascade", "next_lead": "lowest_score", "draw": "none", "target": 80},
    {"blocked_tie": "split", "draw": "none", "first_lead": "highest_double", "target": 50},
    {"blocked_tie": "all_tied_score", "draw": "none", "round_to": 1, "hand_double_counts_once": True},
]


def test_no_preset_is_left_out() -> None:
    """The native engine plays every preset with every player count the pure engine allows it, so every
    one is compared here."""
    allowed = {(p, n) for p in PRESETS for n in PLAYERS if n in SPEC.players_for(PRESETS[p])}
    assert allowed == set(CASES)
    assert {p for p, _ in CASES} == set(PRESETS) and ("seven-rocks", 4) in CASES


def same(pure: DominoState, fast: NativeDominoState, seen: int) -> int:
    """Assert that the two games agree; returns how many events are checked."""
    a, b = pure.log, fast.log
    assert len(a) == len(b), f"{len(a)} pure events, {len(b)} native"
    for x, y in zip(a[seen:], b[seen:], strict=True):
        assert (x.to_dict("all"), x.secret) == (y.to_dict("all"), y.secret)
    assert pure.side_scores() == fast.side_scores() and pure.scores() == fast.scores()
    assert pure.is_over() == fast.is_over() and pure.winners() == fast.winners()
    assert pure.waiting_for() == fast.waiting_for() and pure.to_act() == fast.to_act()
    for seat in range(pure.num_players):
        assert pure.legal_action_ids(seat) == fast.legal_action_ids(seat), seat
    for seat in pure.to_act():
        assert pure.legal_actions(seat) == fast.legal_actions(seat), seat
    return len(a)


def choose(pure: DominoState, rng: random.Random, style: float) -> tuple[int, Action]:
    """A move of a seat that may act: random or greedy, with a claim that may be wrong or missing, or now and
    then a call or a late claim."""
    seats = sorted(pure.to_act())
    seat = rng.choice(seats) if rng.random() < 0.3 else min(pure.waiting_for())
    acts = pure.legal_actions(seat)
    regular = [a for a in acts if a.kind not in ("muggins", "claim")]
    calls = [a for a in acts if a.kind in ("muggins", "claim")]
    top = pure.max_step_points()
    if calls and (not regular or rng.random() < 0.5):
        a = rng.choice(calls)
        if a.kind == "muggins":
            return seat, a.with_claim(rng.choice([None, None, 0, 1, pure.muggable(seat), rng.randint(0, top)]))
        true = a.claim
        return seat, a.with_claim(rng.choice([true, true, max(true - 1, 0), min(true + 2, top), 0]))
    if rng.random() < style:
        a = max(regular, key=lambda x: (pure.claim_for(seat, x), rng.random()))
    else:
        a = rng.choice(regular)
    if a.kind == "play" and pure.rules.claims == "manual":
        true = pure.claim_for(seat, a)
        a = a.with_claim(rng.choice([true, true, true, None, max(true - 5, 0), min(true + 5, top), 0]))
    return seat, a


def refused_alike(pure: DominoState, fast: NativeDominoState, rng: random.Random) -> None:
    """A move that is no legal move now: both engines refuse it with the same exception type, and change
    nothing."""
    n = pure.num_players
    seat = rng.randrange(n)
    tiles = pure._all_tiles
    bad = rng.choice([Action("play", rng.choice(tiles), rng.choice(tiles)), Action("pass"), Action("draw"),
                      Action("muggins", claim=rng.randint(0, 3)), Action("claim", claim=1),
                      Action("play", rng.choice(tiles), claim=pure.max_step_points() + 1)])
    before = len(pure.log), len(fast.log), pure.side_scores()
    errors = []
    for st in (fast, pure):  # the native engine first: it deals any new hand
        try:
            st.apply(seat, bad)
        except IllegalAction as e:
            errors.append(type(e))
        else:
            errors.append(None)
        pure.chance.outcomes.extend(fast.native.chance_outcomes()[len(pure.chance.outcomes):])
    if errors[1] is None:  # it was legal after all (a call, a pass): the two applied it alike
        assert errors[0] is None
        return
    assert errors[0] is errors[1], (bad, errors)
    assert (len(pure.log), len(fast.log), pure.side_scores()) == before
    i = rng.randrange(pure.num_distinct_actions())
    errors = []
    for st in (fast, pure):
        try:
            st.apply_action_id(seat, i)
        except IllegalAction as e:
            errors.append(type(e))
        else:
            errors.append(None)
        pure.chance.outcomes.extend(fast.native.chance_outcomes()[len(pure.chance.outcomes):])
    assert errors[0] is errors[1], (i, errors)


def play_game(preset: str, players: int, seed: int, family: dict[str, object] | None = None,
              seen: collections.Counter[str] | None = None) -> None:
    """One game compared move by move: the preset with options drawn by ``seed``, or with the options of
    ``family`` alone. ``seen`` counts the kinds of events logged and the paths the game took."""
    rng = random.Random(seed * 7919 + players)
    if family is None:
        claims = rng.choice(["manual", "auto"]) if seed % 3 else None
        options = dict(OPTIONS[(seed * 5 + players) % len(OPTIONS)])
        if claims is not None:
            options["claims"] = claims
        rules = SPEC.rules(preset, options)
    else:
        rules = dataclasses.replace(PRESETS[preset], **family)
    fast = NativeDominoState(rules, players, seed)
    pure = DominoState.new(rules, players, Chance(outcomes=fast.native.chance_outcomes()))
    style = rng.random()
    checked = same(pure, fast, 0)
    moves = 0
    while not pure.is_over() and moves < MAX_MOVES:
        moves += 1
        if rng.random() < 0.05:
            refused_alike(pure, fast, rng)
            checked = same(pure, fast, checked)
            continue
        seat, action = choose(pure, rng, style)
        if rng.random() < 0.5:
            fast.apply(seat, action)
        else:
            fast.apply_action_id(seat, pure.action_id(action))
        pure.chance.outcomes.extend(fast.native.chance_outcomes()[len(pure.chance.outcomes):])  # a new deal
        hand = pure.hand_no
        pure.apply(seat, action)
        checked = same(pure, fast, checked)
        if seen is not None:
            if action.kind == "play" and pure.turn == seat and pure.hand_no == hand and not pure.is_over():
                seen["extra turn"] += 1
            if pure._window is not None and pure._window.reason == "domino":
                seen["bonus window"] += 1
    if seen is not None:
        seen.update(e.kind for e in pure.log)
        seen["voluntary draw"] += sum(1 for e in pure.log if e.kind == "draw" and not e.data["forced"])
    twin = fast.to_pure()
    assert [e.to_dict("all") for e in twin.log] == [e.to_dict("all") for e in pure.log]
    assert twin.side_scores() == pure.side_scores() and twin.history == pure.history


GAMES = 10
MAX_MOVES = 1500  # a game that runs long is compared that far


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_native_and_pure_games_log_the_same_events(preset: str, players: int) -> None:
    for seed in range(GAMES):
        play_game(preset, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_many_native_and_pure_games_log_the_same_events(preset: str, players: int) -> None:
    for seed in range(GAMES, GAMES + 90):
        play_game(preset, players, seed)


# the event that shows each path of the lockstep tests' families was taken ("claim" and "draw" are events too)
_PATH_EVENTS = {"muggins": "muggins", "knock": "knock"}


@pytest.mark.parametrize(("preset", "players", "options", "paths"), FAMILY,
                         ids=lambda x: x if isinstance(x, str) else None)
def test_option_families_log_the_same_events(preset: str, players: int, options: dict[str, object],
                                             paths: tuple[str, ...]) -> None:
    """The families of tests/dominoes/test_native.py: knocks and knocks back, muggable bonuses claimed late,
    called or missed, voluntary draws, kept turns, partnership scores, winners and hand ends."""
    seen: collections.Counter[str] = collections.Counter()
    for seed in range(FAMILY_GAMES):
        play_game(preset, players, 31 * players + seed, options, seen)
    assert all(seen[_PATH_EVENTS.get(p, p)] for p in paths), seen


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "options", "paths"), FAMILY,
                         ids=lambda x: x if isinstance(x, str) else None)
def test_many_option_family_games_log_the_same_events(preset: str, players: int, options: dict[str, object],
                                                      paths: tuple[str, ...]) -> None:
    for seed in range(FAMILY_GAMES, FAMILY_GAMES + 40):
        play_game(preset, players, 31 * players + seed, options)


FAMILY_GAMES = 6


# ------------------------------------------------------------------------------- speed figures ----
def test_random_play_through_the_integer_protocol_on_both_engines() -> None:
    from muggins.perf import random_play

    for kw in ({"ids": True}, {"native": True}):
        r = random_play("dominoes", "all-fives", 3, 0.05, **kw)
        assert r["moves"] > 0 and r["games"] >= 1
    r = random_play("dominoes", "five-up", 2, 0.05, native=True)  # once refused, now native too
    assert r["moves"] > 0 and r["games"] >= 1
    with pytest.raises(ValueError, match="does not play"):  # what the native engine refuses: sniff spinners
        random_play("dominoes", "muggins", 2, 0.05, options={"spinner": "sniff_option"}, native=True)


def test_bench_names_the_native_backed_protocol_it_measured() -> None:
    import json

    from typer.testing import CliRunner

    from muggins.cli.main import app

    res = CliRunner().invoke(app, ["bench", "--seconds", "0.05", "--runs", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["native_protocol"]["moves_per_second"] > 0
    assert "NativeDominoState" in out["native_protocol"]["engine"] and "moves_per_second" in out  # old keys kept
    res = CliRunner().invoke(app, ["bench", "--seconds", "0.05", "--runs", "1"])
    assert "Native-backed protocol, muggins.dominoes.fast.NativeDominoState" in " ".join(res.output.split())
    res = CliRunner().invoke(app, ["bench", "-p", "five-up", "--seconds", "0.05", "--runs", "1", "--json"])
    out = json.loads(res.output)
    assert out["native_protocol"]["moves_per_second"] > 0 and "native_protocol_unavailable" not in out
    res = CliRunner().invoke(app, ["bench", "-p", "five-up", "-o", "spinner=sniff_option", "--seconds", "0.05",
                                   "--runs", "1", "--json"])
    out = json.loads(res.output)
    assert "native_protocol" not in out and "five-up" not in out["native_protocol_unavailable"]
    assert "does not play" in out["native_protocol_unavailable"]
    assert "spinner='sniff_option'" in out["native_protocol_unavailable"]


@pytest.mark.parametrize(("preset", "players"), [("muggins", 2), ("muggins-spinner", 3), ("all-fives", 4),
                                                ("seven-rocks", 4), ("merry-go-round", 3), ("five-up", 2)])
def test_a_native_game_read_from_a_pure_one_logs_what_follows_alike(preset: str, players: int) -> None:
    """``from_pure`` mid-game: the native log starts where the pure one stands (hands in their order, the
    layout's free places in the pure engine's order), and ``to_pure()`` continues the pure game."""
    rules = SPEC.rules(preset, {"claim_timing": "lenient"})
    rng = random.Random(players)
    pure = DominoState.new(rules, players, Chance(players))
    for _ in range(9):
        seat, action = choose(pure, rng, 0.5)
        pure.apply(seat, action)
    fast = NativeDominoState.from_pure(pure, seed=5)
    pure.chance = pure.chance.fork()  # from here on the deals are the native engine's
    start = len(pure.log)
    assert fast.log == pure.log
    seen = same(pure, fast, start)
    dealt = 0
    while not pure.is_over():
        seat, action = choose(pure, rng, 0.5)
        fast.apply(seat, action)
        deals = fast.native.chance_outcomes()[dealt:]
        pure.chance.outcomes.extend(deals)
        dealt += len(deals)
        pure.apply(seat, action)
        seen = same(pure, fast, seen)
    twin = fast.to_pure()
    assert twin.log == pure.log and twin.side_scores() == pure.side_scores() and twin.history == pure.history


def test_the_log_is_off_unless_asked_for_and_off_in_clones() -> None:
    rules = PRESETS["muggins"]
    plain = native.NativeDominoes.new(rules, 2, 1)
    assert not plain.logging
    with pytest.raises(ValueError, match="log=True"):
        plain.events()
    with pytest.raises(ValueError, match="before the game starts"):
        plain.logging = True
    logged = native.NativeDominoes.new(rules, 2, 1, log=True)
    assert logged.logging and [e.kind for e in logged.events()][-3:] == ["hand_start", "dealt", "dealt"]
    rollout = logged.clone()
    assert not rollout.logging
    rollout.playout(0, 3)
    assert rollout.is_over() and not logged.is_over()
    kept = logged.clone(log=True)
    assert kept.logging and kept.events() == logged.events()
    logged.logging = False
    size = len(logged.log_ints())
    logged.playout(0, 3)
    assert len(logged.log_ints()) == size
    with pytest.raises(ValueError):
        logged.log_ints(-1)
