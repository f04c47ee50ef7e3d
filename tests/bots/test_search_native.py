"""The search bot's rollouts in native code: the same rollout as the pure one, the search still sound, and
the pure rollout wherever the native engine cannot run (not built, rules out of its scope).

A native rollout draws its own chance and choices, so it cannot replay a pure rollout move for move; what
is compared exactly is everything around the moves (the conversion of the world, where the rollout stops,
the rewards read from the native state), and the moves themselves by their distribution: from one world,
many rollouts of each engine score the same points on average (and a policy that differs is told apart)."""

from __future__ import annotations

import random
import statistics
from types import ModuleType

import pytest

from muggins._accel import load_native
from muggins.bots.base import next_decision
from muggins.bots.search import SearchPolicy, _score_rewards, sample_determinization
from muggins.core.rules import get_game
from muggins.sim.bench import sample_positions

CASES = [("dominoes", "muggins", 2, "muggins.dominoes.native"),
         ("cribbage", "cribbage", 2, "muggins.cards.cribbage.native")]


pytestmark = pytest.mark.usefixtures("native_allowed")  # these tests are of the native rollouts


def test_pure_python_turns_the_native_rollouts_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """MUGGINS_PURE_PYTHON runs the sources alone: the search says so and rolls out in Python."""
    state, seat = sample_positions("dominoes", "muggins", 2, count=1, seed=2)[0]
    acts = next_decision(state)[1]
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "1")
    policy = SearchPolicy(iterations=20, time_limit=60.0)
    mod, why = policy.native_engine(state)
    assert mod is None and why is not None and "MUGGINS_PURE_PYTHON" in why
    assert policy.choose(state, seat, acts, random.Random(0)) in acts
    assert policy.native_rollouts == 0 and policy.total_iterations == 20


def _native(name: str) -> ModuleType:
    mod, why = load_native(name)
    if mod is None:
        pytest.skip(f"{name}: {why}")
    return mod


def _world(game: str, preset: str, players: int, k: int) -> tuple[object, int]:
    state, seat = sample_positions(game, preset, players, count=k + 1, seed=3)[k]
    return sample_determinization(state, seat, random.Random(k)), seat


def _pure_gains(policy: SearchPolicy, world: object, seed: int) -> tuple[list[int], bool]:
    d = world.clone()
    before = d.side_scores()
    policy._rollout(d, random.Random(seed), len(d.log), 0)
    return [a - b for a, b in zip(d.side_scores(), before, strict=True)], d.is_over()


def _native_gains(mod: ModuleType, world: object, seed: int, greedy: float,
                  horizon: int) -> tuple[list[int], bool, object]:
    before = world.side_scores()
    nat = mod.from_state(world, seed)
    nat.playout(0, seed, horizon, True, greedy)
    return [a - b for a, b in zip(nat.side_scores(), before, strict=True)], nat.is_over(), nat


@pytest.mark.parametrize(("game", "preset", "players", "name"), CASES)
def test_native_rollout_stops_at_the_end_of_the_hand(game: str, preset: str, players: int, name: str) -> None:
    mod = _native(name)
    world, _ = _world(game, preset, players, 0)
    hand = mod.from_state(world).hand_no
    for seed in range(40):
        nat = mod.from_state(world, seed)
        made = nat.playout(0, seed, 1 << 30, True, 0.8)
        assert made > 0
        assert nat.is_over() or nat.hand_no != hand
        # the same playout without the stop plays on into the next hand (or ends the game)
        again = mod.from_state(world, seed)
        assert again.playout(0, seed, 1 << 30, False, 0.8) >= made
        assert again.is_over()
    capped = mod.from_state(world, 1)
    assert capped.playout(0, 1, 3, True, 0.8) == 3


@pytest.mark.parametrize(("game", "preset", "players", "name"), CASES)
def test_native_rollout_scores_as_the_pure_rollout(game: str, preset: str, players: int, name: str) -> None:
    """Mean points per side over many rollouts of one world, within 4 standard errors; and the test tells a
    different policy apart (pure greedy against pure random)."""
    mod = _native(name)
    runs = 600
    for k in (0, 2):
        world, _ = _world(game, preset, players, k)
        for greedy in (0.8, 0.0):
            policy = SearchPolicy(rollout_greedy=greedy, horizon=10**6, native=False)
            pure = [_pure_gains(policy, world, s)[0] for s in range(runs)]
            native = [_native_gains(mod, world, 10**6 + s, greedy, 10**6)[0] for s in range(runs)]
            for side in range(players):
                a = [g[side] for g in pure]
                b = [g[side] for g in native]
                se = (statistics.pvariance(a) / runs + statistics.pvariance(b) / runs) ** 0.5
                assert abs(statistics.fmean(a) - statistics.fmean(b)) <= 4 * se + 0.05, (k, greedy, side)
        # power: all-greedy against all-random differs, on some side, by more than the tolerance above
        mine = [_native_gains(mod, world, s, 1.0, 10**6)[0] for s in range(runs)]
        other = [_native_gains(mod, world, s, 0.0, 10**6)[0] for s in range(runs)]
        gaps = []
        for side in range(players):
            a = [g[side] for g in mine]
            b = [g[side] for g in other]
            se = (statistics.pvariance(a) / runs + statistics.pvariance(b) / runs) ** 0.5
            gaps.append(abs(statistics.fmean(a) - statistics.fmean(b)) - 4 * se)
        if k == 0:
            assert max(gaps) > 0


@pytest.mark.parametrize(("game", "preset", "players", "name"), CASES)
def test_native_rewards_are_the_pure_rewards(game: str, preset: str, players: int, name: str) -> None:
    """Read from the same world (no move left, or the world a pure rollout reached), the native state gives
    exactly the rewards ``_rewards`` gives."""
    mod = _native(name)
    world, _ = _world(game, preset, players, 1)
    before = [s - 7 * i for i, s in enumerate(world.side_scores())]
    for seed in range(20):
        d = world.clone()
        SearchPolicy(native=False)._rollout(d, random.Random(seed), len(d.log), 0)
        nat = mod.from_state(d, seed)
        assert nat.playout(0, seed, 0, True, 0.8) == 0
        got = _score_rewards(d.num_sides, nat.is_over(), set(nat.winners()), list(nat.side_scores()), before,
                             10.0)
        assert got == SearchPolicy()._rewards(d, before, 10.0)
        # playing for points, a finished game is priced by its points like an unfinished one
        by_points = _score_rewards(d.num_sides, nat.is_over(), set(nat.winners()), list(nat.side_scores()), before,
                                   10.0, points=True)
        assert SearchPolicy(play_for_points=True)._rewards(d, before, 10.0) == by_points
        assert by_points == got or d.is_over()


def test_native_playout_checks_its_probability() -> None:
    mod = _native("muggins.dominoes.native")
    world, _ = _world("dominoes", "muggins", 2, 0)
    nat = mod.from_state(world)
    with pytest.raises(ValueError, match="probability"):
        nat.playout(0, 0, 10, True, 1.5)
    with pytest.raises(ValueError, match="negative"):
        nat.playout(0, 0, -1, True, 0.5)


@pytest.mark.parametrize(("game", "preset", "players", "name"), CASES)
def test_search_with_native_rollouts_plays_legal_moves_to_the_end(game: str, preset: str, players: int,
                                                                  name: str) -> None:
    _native(name)
    spec = get_game(game)
    rules = spec.rules(preset, {"target": 61} if game == "dominoes" else None)
    state = spec.new(rules, players, seed=5)
    policy = SearchPolicy(iterations=25, time_limit=10.0)
    mod, why = policy.native_engine(state)
    assert mod is not None and why is None
    rng = random.Random(9)
    moves = 0
    while not state.is_over() and moves < 3000:
        nd = next_decision(state)
        assert nd is not None
        seat, acts = nd
        a = policy.choose(state, seat, acts, rng)
        assert a in acts
        state.apply(seat, a)
        moves += 1
    assert state.is_over()
    assert policy.native_rollouts > 0


def test_search_is_deterministic_for_a_seed() -> None:
    _native("muggins.dominoes.native")
    state, seat = sample_positions("dominoes", "muggins", 2, count=2, seed=1)[1]
    acts = next_decision(state)[1]
    picks = []
    for _ in range(2):
        policy = SearchPolicy(iterations=120, time_limit=60.0)
        picks.append(policy.choose(state, seat, acts, random.Random(4)))
        assert policy.native_rollouts > 0
    assert picks[0] == picks[1]


def test_falls_back_to_the_pure_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not built (as load_native reports it), an unsupported preset, or turned off: the pure rollout."""
    import muggins._accel as accel

    state, seat = sample_positions("dominoes", "muggins", 2, count=1, seed=2)[0]
    acts = next_decision(state)[1]
    monkeypatch.setattr(accel, "load_native", lambda name: (None, "not built: python setup.py build_ext"))
    policy = SearchPolicy(iterations=40, time_limit=60.0)
    mod, why = policy.native_engine(state)
    assert mod is None and why is not None and "not built" in why
    assert policy.choose(state, seat, acts, random.Random(0)) in acts
    assert policy.native_rollouts == 0 and policy.total_iterations == 40
    monkeypatch.undo()

    monkeypatch.setenv("MUGGINS_ENGINE", "pure")  # the switch that forces the reference forces its rollouts too
    forced = SearchPolicy(iterations=40, time_limit=60.0)
    assert forced.native_engine(state) == (None, "MUGGINS_ENGINE=pure: the reference engine alone runs")
    assert forced.choose(state, seat, acts, random.Random(0)) in acts and forced.native_rollouts == 0
    monkeypatch.undo()

    off = SearchPolicy(iterations=40, time_limit=60.0, native=False)
    assert off.choose(state, seat, acts, random.Random(0)) in acts
    assert off.native_rollouts == 0 and off.native_engine(state) == (None, "native rollouts turned off")

    for game, preset, options in (("dominoes", "sniff", {"spinner": "sniff_stub"}),):  # cribbage: all native
        spec = get_game(game)
        st = spec.new(spec.rules(preset, options), 2, seed=1)
        p = SearchPolicy(iterations=20, time_limit=60.0)
        mod, why = p.native_engine(st)
        assert mod is None and why is not None
        nd = next_decision(st)
        assert nd is not None
        assert p.choose(st, nd[0], nd[1], random.Random(0)) in nd[1]
        assert p.native_rollouts == 0


@pytest.mark.parametrize("game, preset, players, name", CASES)
def test_the_omniscient_ceiling_searches_natively_on_the_true_state(game: str, preset: str, players: int,
                                                                     name: str) -> None:
    """The ceiling's native search reads the true hands: two states the seat cannot tell apart give the
    fair search the same statistics and the omniscient one different ones (same seed, same budget)."""
    mod = _native(name)
    from muggins.bots.search import true_determinization

    checked = 0
    for state, seat in sample_positions(game, preset, players, count=6, seed=11):
        twin = state.sample_hidden(seat, random.Random(5))
        if all(sorted(map(str, twin.hands[s])) == sorted(map(str, state.hands[s])) for s in range(players)):
            continue  # nothing hidden differs: nothing to tell apart
        try:
            fair = [mod.search(x, seat, 300, 60.0, 0.7, 120, 0.8, 9)["children"] for x in (state, twin)]
        except NotImplementedError:
            continue
        seen = [mod.search(x, seat, 300, 60.0, 0.7, 120, 0.8, 9, omniscient=True)["children"]
                for x in (state, twin)]
        assert fair[0] == fair[1]
        assert seen[0] != seen[1]
        checked += 1
        acts = next_decision(state)[1]
        policy = SearchPolicy(iterations=50, time_limit=60.0, determinize=true_determinization)
        assert policy.choose(state, seat, acts, random.Random(1)) in acts
        assert policy.native_searches == 1 and policy.total_iterations == 50
    assert checked >= 2


@pytest.mark.parametrize("game, preset, players, name", CASES)
def test_the_reward_scale_reaches_the_native_search(game: str, preset: str, players: int, name: str) -> None:
    """``search:scale=N`` sets the points difference the squashed reward turns on, in C as in Python: the
    same seed with another scale gives other reward sums; nonsense scales are refused."""
    mod = _native(name)
    from muggins.bots.registry import make_bot

    state, seat = sample_positions(game, preset, players, count=1, seed=4)[0]
    runs = [mod.search(state, seat, 400, 60.0, 0.7, 120, 0.8, 2, reward_scale=s)["children"] for s in (0.0, 5.0, 400.0)]
    default = max(5.0, state.rules.target / 10.0)
    same = mod.search(state, seat, 400, 60.0, 0.7, 120, 0.8, 2, reward_scale=default)["children"]
    assert runs[0] == same  # 0 means the default scale
    assert runs[1] != runs[2]
    bot = make_bot("search:scale=30")
    assert bot.policy.reward_scale == 30.0
    with pytest.raises(ValueError):
        SearchPolicy(reward_scale=0.0)
