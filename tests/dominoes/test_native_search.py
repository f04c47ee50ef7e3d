"""The native search of dominoes: its worlds keep every constraint of the pure sampler and show nothing the
seat has not seen, and its search plays legal, reproducible and sensible moves, inside ``SearchPolicy`` too.

A world is checked against the pure frame (``DominoState.sampling_frame``, what ``sample_hidden`` draws
under): the seat's own hand, every hand size and the boneyard's, the unplayed tiles as a whole, and each
other seat's hand matched to its slots without a forbidden tile. That it shows nothing hidden is checked by
drawing it from two true states the seat cannot tell apart (the second one drawn by ``sample_hidden``
itself): the same seed must give the same world.
"""

from __future__ import annotations

import random

import pytest

from muggins._accel import load_native
from muggins.bots.base import next_decision, regular_actions, true_points, with_true_claim
from muggins.bots.search import SearchPolicy
from muggins.core.rules import get_game
from muggins.dominoes.state import DominoState

pytestmark = pytest.mark.usefixtures("native_allowed")  # tests of the native search, under any engine

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

SPEC = get_game("dominoes")
CASES = [("muggins", 2), ("muggins-spinner", 3), ("all-fives", 4), ("block-muggins", 2),
         ("fives-and-threes", 3), ("sniff", 2), ("all-threes", 4), ("five-up", 3)]


def _positions(preset: str, players: int, seed: int, options: dict[str, object] | None = None,
               games: int = 2) -> list[tuple[DominoState, int]]:
    """Positions along random games (every few moves, the seat to move), over whole games."""
    rules = SPEC.rules(preset, options)
    out: list[tuple[DominoState, int]] = []
    rng = random.Random(seed)
    for g in range(games):
        state = SPEC.new(rules, players, seed=seed * 100 + g)
        moves = 0
        while not state.is_over() and moves < 400:
            nd = next_decision(state)
            assert nd is not None
            seat, acts = nd
            if moves % 3 == 0 and len(acts) > 1:
                out.append((state.clone(), seat))
            state.apply(seat, with_true_claim(state, seat, rng.choice(acts)))
            moves += 1
    return out


def _fits(hand: list[int], masks: list[int]) -> bool:
    """Whether the tiles of ``hand`` go one to a slot with no slot holding a tile its mask forbids."""
    owner = [-1] * len(hand)

    def augment(i: int, seen: set[int]) -> bool:
        for j, t in enumerate(hand):
            if j not in seen and not masks[i] >> t & 1:
                seen.add(j)
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return len(hand) == len(masks) and all(augment(i, set()) for i in range(len(masks)))


def _only_world(masks: list[list[int]], pool: list[int], seat: int) -> bool:
    """Whether the masks leave the hidden hands one way to be (small pools only: every split tried)."""
    from itertools import permutations

    slots = [(s, m) for s, ms in enumerate(masks) if s != seat for m in ms]
    if len(pool) > 7:
        return False
    worlds = set()
    for p in permutations(pool):
        if all(not m >> t & 1 for (_, m), t in zip(slots, p, strict=False)):
            worlds.add(tuple(frozenset(t for (s, _), t in zip(slots, p, strict=False) if s == o)
                             for o in range(len(masks))))
    return len(worlds) == 1


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_worlds_keep_every_constraint_and_show_nothing_hidden(preset: str, players: int) -> None:
    checked = constrained = 0
    for state, seat in _positions(preset, players, seed=7):
        masks, pool = state.sampling_frame(seat)
        unplayed = [t.index for h in state.hands for t in h] + [t.index for t in state.boneyard]
        for seed in (1, 2):
            hands, stock = native.sample_world(state, seat, seed)
            assert hands[seat] == sorted(t.index for t in state.hands[seat])
            assert [len(h) for h in hands] == [len(h) for h in state.hands]
            assert len(stock) == len(state.boneyard)
            assert sorted([t for h in hands for t in h] + stock) == sorted(unplayed)
            assert sorted(set(stock) | {t for s, h in enumerate(hands) if s != seat for t in h}) == sorted(pool)
            for s in range(players):
                if s != seat:
                    assert _fits(hands[s], masks[s]), (s, hands[s], masks[s])
                    constrained += any(masks[s])
            # a true state the seat cannot tell from this one: the same world for the same seed
            twin = state.sample_hidden(seat, random.Random(seed))
            assert native.sample_world(twin, seat, seed) == (hands, stock)
            checked += 1
        worlds = {repr(native.sample_world(state, seat, s)) for s in range(6)}
        assert len(worlds) > 1 or len(pool) <= 1 or _only_world(masks, pool, seat)
    assert checked > 20
    assert constrained > 0  # some seat had shown what it did not hold


def test_a_pass_forbids_the_open_values() -> None:
    """Directly: after another seat drew or passed, none of the worlds gives it a tile it could have played
    on the ends it faced (while it still holds every tile it held then)."""
    found = 0
    for state, seat in _positions("block-muggins", 2, seed=3, games=4):
        other = 1 - seat
        segment = state.log[max(i for i, e in enumerate(state.log) if e.kind == "hand_start"):]
        passes = [e for e in segment if e.kind == "pass" and e.seat == other and e.data.get("ends")]
        played_after = any(e.kind == "play" and e.seat == other for e in
                           segment[segment.index(passes[-1]):]) if passes else True
        if played_after:
            continue
        ends = set(passes[-1].data["ends"])
        tiles = {t.index: t for t in state._all_tiles}
        for seed in range(4):
            hands, _ = native.sample_world(state, seat, seed)
            assert not any(tiles[t].hi in ends or tiles[t].lo in ends for t in hands[other])
        found += 1
    assert found > 0


def test_search_returns_a_legal_reproducible_move() -> None:
    for state, seat in _positions("muggins", 2, seed=11)[:12]:
        acts = regular_actions(state, seat)
        ids = {state.action_id(with_true_claim(state, seat, a)) for a in acts}
        res = native.search(state, seat, 300, 60.0, 0.7, 120, 0.8, 5)
        assert res["action"] in ids
        assert res["iterations"] == 300
        assert 0 < res["rollouts"] <= 300
        assert {a for a, _, _ in res["children"]} <= ids
        assert sum(v for _, v, _ in res["children"]) == 300
        best = max(res["children"], key=lambda c: (c[1], c[2]))
        assert best[0] == res["action"]
        assert native.search(state, seat, 300, 60.0, 0.7, 120, 0.8, 5) == res
    state, seat = _positions("muggins", 2, seed=11)[0]
    with pytest.raises(NotImplementedError, match="not the one to move"):
        native.search(state, 1 - seat, 10, 60.0, 0.7, 120, 0.8, 0)
    with pytest.raises(ValueError, match="at least one iteration"):
        native.search(state, seat, 0, 60.0, 0.7, 120, 0.8, 0)


def test_search_takes_the_winning_play() -> None:
    """With the target a few points away, a play that reaches it wins at once: the search must take it
    whenever some other move does not."""
    found = 0
    for state, seat in _positions("muggins", 2, seed=5, options={"target": 15}, games=12):
        acts = regular_actions(state, seat)
        need = state.rules.target - state.side_scores()[state.side_of(seat)]
        wins = [a for a in acts if true_points(state, seat, a) >= need]
        if not wins or len(wins) == len(acts):
            continue
        res = native.search(state, seat, 1500, 60.0, 0.7, 120, 0.8, 1)
        assert res["action"] in {state.action_id(with_true_claim(state, seat, a)) for a in wins}
        found += 1
    assert found >= 3


@pytest.mark.parametrize(("preset", "players"), [("seven-toed-pete", 2), ("merry-go-round", 3), ("seven-rocks", 4),
                                                 ("muggins", 2)])
def test_out_of_scope_is_refused(preset: str, players: int) -> None:
    """Rules whose inferences the masks cannot hold (a kept or lost extra turn, a knock, a lead rule) and
    partnerships are left to the Python search, whose native rollouts still run."""
    options = {"voluntary_draw": True} if preset == "muggins" else None
    state = SPEC.new(SPEC.rules(preset, options), players, seed=1)
    nd = next_decision(state)
    while nd is not None and len(nd[1]) == 1:  # a real choice, which the search is asked for
        state.apply(nd[0], with_true_claim(state, nd[0], nd[1][0]))
        nd = next_decision(state)
    assert nd is not None
    with pytest.raises(NotImplementedError, match="native search does not play"):
        native.search(state, nd[0], 10, 60.0, 0.7, 120, 0.8, 0)
    with pytest.raises(NotImplementedError):
        native.search(state, nd[0], 10, 60.0, 0.7, 120, 0.8, 0, omniscient=True)
    policy = SearchPolicy(iterations=20, time_limit=60.0)
    assert policy.choose(state, nd[0], nd[1], random.Random(0)) in nd[1]
    assert policy.native_searches == 0 and policy.total_iterations == 20


def test_first_lead_by_the_highest_double_is_refused_unless_the_seat_led() -> None:
    # the first hand's leader chosen by the highest double: only when the seat led it holding a double
    for s in range(20):
        state = SPEC.new(SPEC.rules("muggins", {"first_lead": "highest_double"}), 2, seed=s)
        nd = next_decision(state)
        assert nd is not None
        state.apply(nd[0], with_true_claim(state, nd[0], nd[1][0]))
        nd = next_decision(state)
        assert nd is not None and nd[0] != state._leader
        with pytest.raises(NotImplementedError, match="leader"):
            native.sample_world(state, nd[0], 0)


@pytest.mark.parametrize("native_on", [True, False])
def test_search_policy_plays_a_whole_game(native_on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUGGINS_PURE_PYTHON", raising=False)
    state = SPEC.new(SPEC.rules("muggins", {"target": 61}), 2, seed=4)
    policy = SearchPolicy(iterations=40, time_limit=30.0, native=native_on)
    rng = random.Random(2)
    moves = 0
    while not state.is_over() and moves < 2000:
        nd = next_decision(state)
        assert nd is not None
        seat, acts = nd
        a = policy.choose(state, seat, acts, rng)
        assert a in acts
        state.apply(seat, with_true_claim(state, seat, a))
        moves += 1
    assert state.is_over()
    assert (policy.native_searches > 0) == native_on
    assert policy.total_iterations >= 40 * policy.searches // 2


def test_search_policy_is_deterministic_and_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MUGGINS_PURE_PYTHON", raising=False)
    state, seat = _positions("muggins", 2, seed=13)[4]
    acts = regular_actions(state, seat)
    picks = []
    for _ in range(2):
        policy = SearchPolicy(iterations=200, time_limit=60.0)
        picks.append(policy.choose(state, seat, acts, random.Random(3)))
        assert policy.native_searches == 1 and policy.total_iterations == 200
        assert 0 < policy.native_rollouts <= 200
    assert picks[0] == picks[1]
    only_rollouts = SearchPolicy(iterations=30, time_limit=60.0, native_search=False)
    assert only_rollouts.choose(state, seat, acts, random.Random(3)) in acts
    assert only_rollouts.native_searches == 0 and only_rollouts.native_rollouts > 0
    st = SPEC.new(SPEC.rules("seven-toed-pete"), 2, seed=1)
    nd = next_decision(st)
    while nd is not None and len(nd[1]) == 1:
        st.apply(nd[0], with_true_claim(st, nd[0], nd[1][0]))
        nd = next_decision(st)
    assert nd is not None
    p = SearchPolicy(iterations=10, time_limit=60.0)
    assert p.choose(st, nd[0], nd[1], random.Random(0)) in nd[1]
    assert p.native_searches == 0 and p.total_iterations == 10
