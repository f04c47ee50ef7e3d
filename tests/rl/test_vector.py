"""The batched domino environment: Gymnasium's vector API (spaces, batching, reset and step data, seeding),
masks that allow exactly the legal moves, episodes that end and reset themselves, determinism by seed, and
the C observation equal to the Python encoder's."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from muggins._accel import load_native  # noqa: E402
from muggins.core.errors import RulesError  # noqa: E402
from muggins.core.rules import get_game  # noqa: E402
from muggins.dominoes.observation import DominoEncoder  # noqa: E402
from muggins.rl import compact_actions, vector_env  # noqa: E402
from tests.rl.vector_helpers import OneGame, check_determinism, legal_rows  # noqa: E402

native, why = load_native("muggins.dominoes.vector_native")
engine, _ = load_native("muggins.dominoes.native")
pytestmark = pytest.mark.skipif(native is None or engine is None, reason=f"native modules not usable: {why}")

SPEC = get_game("dominoes")
NATIVE_CASES: list[tuple[str, int, dict[str, Any]]] = [
    (p, n, {}) for p in SPEC.presets for n in (2, 3, 4)
    if n in SPEC.players_for(SPEC.rules(p)) and engine is not None and engine.unsupported(SPEC.rules(p), n) is None
] + [("muggins", 2, {"claim_timing": "lenient"}), ("muggins", 3, {"mug_bonus": True, "claim_timing": "lenient"}),
     ("muggins", 2, {"false_call_penalty": "award", "over_claim": "opponent_scores", "muggins": "steal_and_deduct"}),
     ("all-fives", 4, {"partnerships": True, "knocking": True, "voluntary_draw": True})]


def case_id(case: Any) -> str:
    return f"{case[0]}-{case[1]}" + "".join(f"-{k}={v}" for k, v in case[2].items())


def expected_mask(env: Any, i: int, seat: int) -> Any:
    """The mask of game ``i`` made in Python from the native engine's own legal ids."""
    g = env.game(i)
    c = env.compact
    m = np.zeros(c.moves + 1, np.int8)
    for a in g.legal_ids(seat):
        m[c.pair(a)[0]] = 1
    w = g.window()
    if w is not None and seat != g.to_move() and seat in g.to_act() and not env.declined(i) >> seat & 1:
        m[env.let_go] = 1
    return m


@pytest.mark.parametrize("case", NATIVE_CASES, ids=case_id)
def test_masks_are_the_legal_moves_and_episodes_reset(case: tuple[str, int, dict[str, Any]]) -> None:
    preset, players, options = case
    env = vector_env("dominoes", preset, players, num_envs=6, opponents="greedy", seed=4, autoreset="next_step",
                     **options)
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    ended = np.zeros(env.num_envs, bool)
    term = np.zeros(env.num_envs, bool)
    restarted = np.zeros(env.num_envs, bool)
    for step in range(4000):
        assert env.observation_space.contains(obs)
        if step % 5 == 0:
            for i in range(env.num_envs):
                assert np.array_equal(obs["action_mask"][i], expected_mask(env, i, int(info["seat"][i])))
                assert obs["action_mask"][i].any() or term[i]
        last = term
        before = [env.game(i).side_scores() for i in range(env.num_envs)]
        obs, rew, term, trunc, info = env.step(legal_rows(obs, rng, env))
        assert not info["illegal"].any() and not trunc.any()
        for i in np.flatnonzero(~last):  # the learner (seat 0, side 0): its side's score change over the step
            assert rew[i] == env.game(i).side_scores()[0] - before[i][0]
        for i in np.flatnonzero(term):
            assert env.game(i).is_over() and not obs["action_mask"][i].any()
        for i in np.flatnonzero(last):  # the step after an end deals a new game, ignoring its action
            assert rew[i] == 0 and not term[i] and obs["action_mask"][i].any()
            assert env.game(i).hand_no == 1 and not env.game(i).is_over()
            restarted[i] = True
        ended |= term
        if restarted.all():
            break
    assert ended.all() and restarted.all(), "every game ends and is dealt anew"


def test_an_unmasked_move_ends_the_episode_with_the_penalty() -> None:
    env = vector_env("dominoes", "muggins", 2, num_envs=3, opponents="random", seed=1, illegal_reward=-5.0)
    obs, _ = env.reset()
    acts = np.zeros((3, 2), np.int64)
    acts[:, 0] = [int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]]
    acts[1] = (int(obs["action_mask"][1].argmax()), 0)  # a legal one for game 1
    before = env.game(0).hand_no, env.game(0).side_scores()
    obs, rew, term, _, info = env.step(acts)
    assert list(term) == [True, False, True] and list(info["illegal"]) == [True, False, True]
    assert rew[0] == rew[2] == -5.0 and (env.game(0).hand_no, env.game(0).side_scores()) == before
    assert not obs["action_mask"][0].any()


def test_same_step_autoreset_keeps_the_final_observation() -> None:
    env = vector_env("dominoes", "block-muggins", 2, num_envs=4, opponents="random", seed=2, autoreset="same_step")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(2000):
        obs, _, term, _, info = env.step(legal_rows(obs, rng, env))
        assert obs["action_mask"].any(1).all()  # always a fresh decision
        for i in np.flatnonzero(term):
            assert info["_final_obs"][i]
            final = info["final_obs"]["observation"][i]
            assert final[DominoEncoder(env.rules, 2).layout.slice_of("over")][0] == 1.0
            assert not info["final_obs"]["action_mask"][i].any()
            assert env.game(i).hand_no == 1 and not env.game(i).is_over()
            seen += 1
        if seen >= 4:
            break
    assert seen >= 4


@pytest.mark.parametrize("opponents", ["random", None])
def test_determinism_by_seed_and_threads(opponents: str | None) -> None:
    check_determinism("dominoes", "all-fives", 3, opponents)


def test_vector_api_data() -> None:
    """What Gymnasium's checks ask of reset and step, for a vector: the batched spaces, the types and shapes
    returned, data not reused between calls, and actions sampled from the action space accepted."""
    env = vector_env("dominoes", "muggins", 2, num_envs=4, opponents="greedy", seed=0)
    assert env.observation_space == batch_space(env.single_observation_space, 4)
    assert env.action_space == batch_space(env.single_action_space, 4)
    assert list(env.single_action_space.nvec) == [env.compact.moves + 1, 220] and env.compact.moves == 89
    obs, info = env.reset(seed=5)
    assert isinstance(info, dict) and env.observation_space.contains(obs)
    obs2, rew, term, trunc, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(obs2)
    assert rew.shape == term.shape == trunc.shape == (4,) and term.dtype == trunc.dtype == np.bool_
    assert obs2["observation"] is not obs["observation"] and not np.shares_memory(obs2["observation"],
                                                                                    obs["observation"])
    assert info["illegal"].any()  # a sampled action is rarely legal: the episode ends, nothing breaks
    env.close()
    other = vector_env("dominoes", "muggins", 2, num_envs=4)
    other.reset()
    with pytest.raises(ValueError):
        other.step(np.zeros((3, 2), np.int64))


def test_bad_arguments_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    for kwargs in ({"opponents": "heuristic"}, {"opponents": ["random", "greedy"]}, {"num_envs": 0},
                   {"opponents": "search", "search_iterations": 0},
                   {"threads": 9}, {"reward": "money"}, {"autoreset": "never"}, {"seat": 2}):
        args = {"num_envs": 4, **kwargs}
        with pytest.raises(RulesError):
            vector_env("dominoes", "muggins", 2, **args)
    import dataclasses

    import muggins.rl.vector as rv

    # a game that registers no native batched environment
    monkeypatch.setattr(rv, "get_game", lambda name: dataclasses.replace(get_game(name), vector=None))
    with pytest.raises(NotImplementedError):
        vector_env("cribbage", None, 2, num_envs=2, backend="native")
    with pytest.raises(NotImplementedError):
        vector_env("cribbage", None, 2, num_envs=2, opponents=None)
    monkeypatch.undo()
    with pytest.raises(RulesError):
        vector_env("dominoes", "muggins", 2, num_envs=2, backend="fast")
    with pytest.raises(NotImplementedError):
        vector_env("dominoes", "muggins", 2, num_envs=2, tile_set=12)
    with pytest.raises(RuntimeError):
        vector_env("dominoes", "muggins", 2, num_envs=2).step(np.zeros((2, 2), np.int64))
    with pytest.raises(NotImplementedError, match="search opponent in C does not play partnerships"):
        vector_env("dominoes", "all-fives", 4, num_envs=2, opponents="search", partnerships=True)


def test_one_game_passes_gymnasium_check_env() -> None:
    check_env(OneGame("dominoes"), skip_render_check=True)


def native_positions(rules: Any, n: int, seed: int, limit: int) -> Any:
    """Positions of a native game played at random through the integer protocol, plays announcing random
    amounts and calls made now and then: (protocol state, its native game)."""
    from muggins.dominoes.fast import NativeDominoState

    st = NativeDominoState(rules, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if st.is_over():
            return
        yield st
        seat = rng.choice(sorted(st.to_act()))
        ids = st.legal_action_ids(seat) if rng.random() < 0.5 else st.native.legal_ids(seat)
        st.apply_action_id(seat, rng.choice(ids))


@pytest.mark.parametrize("case", NATIVE_CASES, ids=case_id)
def test_c_observation_equals_the_python_encoder(case: tuple[str, int, dict[str, Any]]) -> None:
    preset, players, options = case
    encode_native = native.encode_native
    rules = SPEC.rules(preset, options)
    enc = DominoEncoder(rules, players)
    checked = 0
    for seed in range(7, 30):
        if checked > 60:
            break
        for k, st in enumerate(native_positions(rules, players, seed, 160)):
            if k % 4 and st.native.window() is None:
                continue
            pure = st.to_pure()
            for seat in range(players):
                assert np.array_equal(encode_native(st.native, seat), enc.encode(pure, seat)), (seed, k, seat)
                checked += 1
    assert checked > 60


def test_the_environment_observes_the_seat_to_act() -> None:
    env = vector_env("dominoes", "muggins", 3, num_envs=4, opponents=None, seed=9, copy=False)
    obs, info = env.reset()
    rng = np.random.default_rng(2)
    seats = set()
    for _ in range(200):
        for i in range(4):
            seat = int(info["seat"][i])
            seats.add(seat)
            want = np.clip(native.encode_native(env.game(i), seat), -1, 1)
            assert np.array_equal(obs["observation"][i], want)
        before = [env.game(i).side_scores() for i in range(4)]
        actors = info["seat"].copy()
        obs, rew, term, _, info = env.step(legal_rows(obs, rng, env))
        assert info["rewards"].shape == (4, 3)
        for i in range(4):  # each seat's reward is its score's change; the returned one the actor's
            assert rew[i] == info["rewards"][i, actors[i]]
            if not term[i]:
                after = env.game(i).side_scores()
                assert info["rewards"][i].tolist() == [a - b for a, b in zip(after, before[i], strict=True)]
    assert seats == {0, 1, 2}


@pytest.mark.parametrize("game", ["dominoes", "card-muggins"])
def test_without_the_native_build_a_clear_error(monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    import muggins.rl.vector as rv

    monkeypatch.setattr(rv, "load_native", lambda name: (None, "not built: python setup.py build_ext --inplace"))
    with pytest.raises(RuntimeError, match="not built"):
        vector_env(game, "muggins", 2, num_envs=2)


@pytest.mark.parametrize("game,preset,backend", [("card-muggins", "muggins", "python"),
                                                 ("cribbage", "cribbage", "python"), ("dominoes", "muggins", "python")])
def test_python_backend_speaks_the_same_spaces(game: str, preset: str, backend: str) -> None:
    env = vector_env(game, preset, 2, num_envs=3, opponents="greedy", seed=5, backend=backend)
    c = compact_actions(game, preset, 2)
    assert env.single_action_space == gymnasium.spaces.MultiDiscrete([c.moves + 1, c.amounts])
    assert env.observation_space == batch_space(env.single_observation_space, 3)
    obs, _ = env.reset()
    again, _ = vector_env(game, preset, 2, num_envs=3, opponents="greedy", backend=backend).reset(seed=5)
    assert data_equivalence(obs, again, exact=True)
    rng = np.random.default_rng(3)
    term = np.zeros(3, bool)
    for k in range(200):
        assert env.observation_space.contains(obs)
        assert all(obs["action_mask"][i].any() for i in range(3) if not term[i])
        obs, _, term, trunc, info = env.step(legal_rows(obs, rng, SimpleNamespace(compact=c)))
        assert "illegal_action" not in info and not trunc.any()
        if k >= 60 and not term.any():
            break
    bad = np.zeros((3, 2), np.int64)
    bad[:, 0] = [int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]]
    _, rew, term, _, info = env.step(bad)
    assert term.all() and (rew == -1.0).all()


def random_learner(opponents: str, games: int, seed: int, **kwargs: Any) -> tuple[float, list[Any]]:
    """The share of ``games`` 2-player ``muggins`` games won by a learner moving at random and announcing its
    plays' true points (the ``random`` bot's play), against ``opponents`` in C; and every step's output. The
    masks are checked against the engine's legal ids all along, and no action may be refused."""
    from muggins.dominoes.train import PlayAmounts

    amounts = PlayAmounts()
    env = vector_env("dominoes", "muggins", 2, num_envs=8, opponents=opponents, seed=seed, autoreset="same_step",
                     **kwargs)
    obs, info = env.reset()
    rng = np.random.default_rng(seed)
    won: list[bool] = []
    out: list[Any] = [obs]
    while len(won) < games:
        for i in range(env.num_envs):
            assert np.array_equal(obs["action_mask"][i], expected_mask(env, i, int(info["seat"][i])))
        moves = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(1)
        obs, rew, term, _, info = env.step(np.stack([moves, amounts(obs["observation"], moves)], 1))
        assert not info["illegal"].any()
        out += [obs, rew, term]
        for i in np.flatnonzero(term):
            final = info["final_obs"]["observation"][i]
            assert final[DominoEncoder(env.rules, 2).layout.slice_of("over")][0] == 1.0
            won.append(bool(final[4] > final[5]))  # the scores, the learner's first
    return float(np.mean(won)), out


def test_search_opponent_in_c_beats_random_play_and_replays() -> None:
    """The search bot (native SO-ISMCTS at a small budget) plays the other seat inside the C step: the
    learner's masks stay the engine's legal moves, every game ends, and random play that the ``random``
    opponent meets evenly loses nearly every game to it. Its budget is iterations, not time: a run replays."""
    against_random, _ = random_learner("random", 40, seed=7)
    against_search, steps = random_learner("search", 40, seed=7, search_iterations=32)
    assert against_random > 0.3
    assert against_search < 0.2
    _, again = random_learner("search", 8, seed=7, search_iterations=32)
    assert data_equivalence(steps[:len(again)], again, exact=True)
