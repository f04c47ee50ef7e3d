"""The driver: statistics that add up, duplicate deals, unfinished games and misbehaving bots."""

from __future__ import annotations

import random

import pytest

from muggins.bots import BotError, make_bot
from muggins.core import Action, GameState, get_game
from muggins.core.records import replay, to_record
from muggins.sim.driver import DealChance, play_game, run


def _score_sums(state: GameState) -> list[int]:
    sums = [0] * state.num_sides
    for e in state.log:
        if e.kind == "score":
            sums[e.data["side"]] += e.points
    return sums


@pytest.mark.parametrize("game", ["dominoes", "card-muggins", "cribbage"])
def test_statistics_add_up(game: str) -> None:
    spec = get_game(game)
    rules = spec.rules(None, {"target": 61})
    for seed in range(3):
        state = spec.new(rules, 2, chance=DealChance(seed))
        res = run(state, [make_bot("beginner", seed), make_bot("casual", seed + 1)], seed)
        assert res.finished and res.side_scores == state.side_scores() == _score_sums(state)
        assert [s.score for s in res.seats] == res.side_scores
        assert sum(s.stolen for s in res.seats) == sum(s.mugged for s in res.seats)
        for s in res.seats:
            # every point of a seat's own moves is announced with the move, later, or left unclaimed
            assert s.claims_true == s.claims_made + s.late_claims + s.unclaimed
            assert s.decisions > 0 and s.seconds >= 0
        assert len(res.winners) >= 1
        assert res.hands >= 1


def test_muggins_figures_match_the_log() -> None:
    spec = get_game("dominoes")
    state = spec.new(spec.rules("muggins", {"target": 150}), 2, chance=DealChance(3))
    res = run(state, [make_bot("beginner", 1), make_bot("club", 2)], 3)
    calls = [e for e in state.log if e.kind == "muggins"]
    assert sum(s.calls + s.false_calls for s in res.seats) == len(calls)
    assert sum(s.stolen for s in res.seats) == sum(e.data["points"] for e in calls)
    logged = sum(e.data["points"] for e in state.log if e.kind == "missed")
    # beyond the logged misses, only the last window (closed by the end of the game) can hold any
    assert 0 <= sum(s.missed for s in res.seats) - logged <= 30


def test_points_per_hand_counts_hands() -> None:
    spec = get_game("dominoes")
    state = spec.new(spec.rules("muggins"), 2, chance=DealChance(4))
    res = run(state, [make_bot("greedy", 1), make_bot("greedy", 2)], 4)
    assert res.hands == sum(1 for e in state.log if e.kind == "hand_start") > 1


def test_same_seed_same_deals_whatever_the_play() -> None:
    """Deal n of a game depends only on the seed: the basis of duplicate tournaments."""
    spec = get_game("dominoes")
    rules = spec.rules("muggins")
    a = spec.new(rules, 2, chance=DealChance(42))
    b = spec.new(rules, 2, chance=DealChance(42))
    run(a, [make_bot("random", 1), make_bot("greedy", 2)], 42)
    run(b, [make_bot("greedy", 1), make_bot("random", 2)], 42)
    deals_a = [o for o in a.chance.outcomes if o["kind"] == "deal"]
    deals_b = [o for o in b.chance.outcomes if o["kind"] == "deal"]
    assert a.history != b.history
    k = min(len(deals_a), len(deals_b))
    assert k >= 2 and deals_a[:k] == deals_b[:k]
    other = spec.new(rules, 2, chance=DealChance(43))
    assert next(o for o in other.chance.outcomes if o["kind"] == "deal") != deals_a[0]


@pytest.mark.parametrize("game", ["dominoes", "card-muggins", "cribbage"])
def test_duplicate_deals_hold_on_the_default_engine_of_every_game(game: str) -> None:
    """The default (native where built) states draw a DealChance's outcomes through its own streams: the
    n-th outcome of each kind is the same whatever the play, and another seed deals otherwise."""
    spec = get_game(game)

    def outcomes(seed: int, bots: tuple[str, str]) -> dict[str, list[object]]:
        st = spec.new(spec.rules(None), 2, chance=DealChance(seed))
        run(st, [make_bot(bots[0], 1), make_bot(bots[1], 2)], seed)
        by_kind: dict[str, list[object]] = {}
        for o in st.chance.outcomes:
            by_kind.setdefault(o["kind"], []).append(o)
        return by_kind

    a, b = outcomes(42, ("random", "greedy")), outcomes(42, ("greedy", "random"))
    for kind in a.keys() & b.keys():
        k = min(len(a[kind]), len(b[kind]))
        assert k >= 1 and a[kind][:k] == b[kind][:k], kind
    other = outcomes(43, ("random", "greedy"))
    assert any(other[kind][0] != a[kind][0] for kind in a.keys() & other.keys())


def test_duplicate_chance_streams_are_per_kind() -> None:
    c1, c2 = DealChance(7), DealChance(7)
    c1.next("lot", lambda r: {"x": r.random()})
    d1 = c1.next("deal", lambda r: {"x": r.random()})
    d2 = c2.next("deal", lambda r: {"x": r.random()})  # no lot before it
    assert d1 == d2


def test_a_driven_game_replays_from_its_record() -> None:
    spec = get_game("card-muggins")
    state = spec.new(spec.rules("muggins"), 3, chance=DealChance(9))
    run(state, [make_bot("beginner", i) for i in range(3)], 9)
    again = replay(to_record(state))
    assert again.side_scores() == state.side_scores() and again.is_over()


def test_play_game_checks_the_seat_count() -> None:
    spec = get_game("dominoes")
    with pytest.raises(ValueError, match="2 seats need 2 bots"):
        play_game(spec, spec.rules(), 2, [make_bot("random")], 0)


def test_unfinished_games_stop_at_the_cap() -> None:
    spec = get_game("dominoes")
    res = play_game(spec, spec.rules(), 2, [make_bot("random"), make_bot("random")], 0, max_actions=30)
    assert not res.finished and res.actions == 30 and res.winners == []


class _Lazy:
    name = "lazy"

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action | None:
        return None


class _Cheat:
    name = "cheat"

    def act(self, state: GameState, seat: int, rng: random.Random) -> Action | None:
        return Action("pass")


def test_a_bot_that_does_nothing_when_waited_for_is_an_error() -> None:
    spec = get_game("dominoes")
    with pytest.raises(BotError, match="did nothing"):
        play_game(spec, spec.rules(), 2, [_Lazy(), _Lazy()], 0)


def test_an_illegal_bot_move_is_an_error() -> None:
    spec = get_game("dominoes")
    with pytest.raises(BotError, match="illegal move"):
        play_game(spec, spec.rules(), 2, [_Cheat(), _Cheat()], 0)


def test_search_iterations_are_counted_per_game() -> None:
    spec = get_game("dominoes")
    bot = make_bot("search:iterations=5", 0)
    rules = spec.rules("muggins", {"target": 30})
    r1 = play_game(spec, rules, 2, [bot, make_bot("random")], 1)
    r2 = play_game(spec, rules, 2, [bot, make_bot("random")], 2)
    assert r1.seats[0].search_iterations > 0 and r2.seats[0].search_iterations > 0
    assert r1.seats[0].search_iterations + r2.seats[0].search_iterations == bot.stats()["total_iterations"]
