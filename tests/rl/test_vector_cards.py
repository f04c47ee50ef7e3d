"""The batched card Muggins environment: the C observation equal to the Python encoder's and the C masks equal
to the protocol state's compact masks on seeded games, Gymnasium's vector API (spaces, batching, reset and
step data, seeding, ``check_env``), masks that allow exactly the legal moves, episodes that end and reset
themselves, determinism by seed and threads, every seat learning, and the opponents played in C."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from muggins._accel import load_native  # noqa: E402
from muggins.cards.muggins31.observation import CardMugginsEncoder  # noqa: E402
from muggins.cards.muggins31.state import CardMugginsState  # noqa: E402
from muggins.core.errors import RulesError  # noqa: E402
from muggins.core.rules import get_game  # noqa: E402
from muggins.rl import vector_env  # noqa: E402
from muggins.rl.compact import compact_actions_of  # noqa: E402
from tests.rl.vector_helpers import OneGame, check_determinism, legal_rows  # noqa: E402

native, why = load_native("muggins.cards.muggins31.vector_native")
engine, _ = load_native("muggins.cards.muggins31.native")
pytestmark = pytest.mark.skipif(native is None or engine is None, reason=f"native modules not usable: {why}")

SPEC = get_game("card-muggins")
CASES: list[tuple[str, int, dict[str, Any]]] = [
    (p, n, {}) for p in SPEC.presets for n in (2, 3, 4) if n in SPEC.players_for(SPEC.rules(p))
] + [("muggins", 2, {"claim_timing": "lenient"}), ("muggins", 3, {"mug_last": True, "claim_timing": "lenient"}),
     ("muggins", 2, {"false_call_penalty": "award", "over_claim": "opponent_scores", "muggins": "steal_and_deduct",
                     "window": "until_next_play"}),
     ("muggins", 4, {"go_is_final_for_pile": True, "lead_after_last_passer": True, "win_check": "end_of_round"}),
     ("strict-21", 3, {"close_after_others_pass": True, "thirty_one_plus_last": True, "go_draw": "only_if_below_5"})]


def case_id(case: Any) -> str:
    return f"{case[0]}-{case[1]}" + "".join(f"-{k}={v}" for k, v in case[2].items())


def expected_mask(env: Any, i: int, seat: int) -> Any:
    """The mask of game ``i`` made in Python from the native engine's own legal ids."""
    g = env.game(i)
    c = env.compact
    m = np.zeros(c.moves + 1, np.int8)
    for a in g.legal_ids(seat):
        m[c.pair(a)[0]] = 1
    if g.window() is not None and seat != g.turn() and seat in g.to_act() and not env.declined(i) >> seat & 1:
        m[env.let_go] = 1
    return m


def protocol_positions(rules: Any, n: int, seed: int, limit: int) -> Any:
    """Positions of a game played at random through the protocol (``spec.new``: the native-backed state),
    plays announcing random amounts, calls and late claims made now and then."""
    st = SPEC.new(rules, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if st.is_over():
            return
        yield st
        seat = rng.choice(sorted(st.to_act()))
        ids = st.legal_action_ids(seat) if rng.random() < 0.5 else st.native.legal_ids(seat)
        st.apply_action_id(seat, rng.choice(ids))


@pytest.mark.usefixtures("native_allowed")  # compares the native state with C: under any engine
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_c_observation_and_mask_equal_the_protocol_state(case: tuple[str, int, dict[str, Any]]) -> None:
    """On every few positions of many seeded games (each one with an open window): the C observation of each
    seat equals ``CardMugginsEncoder`` of the pure state, both from the native game that played the moves and
    from one made from the pure state; the C mask equals the compact mask of the protocol state, with "let it
    go" for exactly the seats asked about the window."""
    preset, players, options = case
    rules = SPEC.rules(preset, options)
    enc = CardMugginsEncoder(rules, players)
    checked = 0
    windows = 0
    for seed in range(40):
        if checked > 150:
            break
        for k, st in enumerate(protocol_positions(rules, players, seed, 400)):
            open_window = st.native.window() is not None
            if k % 3 and not open_window:
                continue
            pure = st.to_pure()
            assert isinstance(pure, CardMugginsState)
            again = engine.NativeCardMuggins.from_state(pure)
            c = compact_actions_of(pure)
            asked = pure.to_act() - pure.waiting_for()
            for seat in range(players):
                want = enc.encode(pure, seat)
                assert np.array_equal(native.encode_native(st.native, seat), want), (seed, k, seat)
                assert np.array_equal(native.encode_native(again, seat), want), (seed, k, seat)
                for declined in (0, 1 << seat):
                    mask = native.mask_native(st.native, seat, declined)
                    assert np.array_equal(mask[:-1], c.move_mask(pure, seat)), (seed, k, seat)
                    assert mask[-1] == (seat in asked and not declined), (seed, k, seat, declined)
                checked += 1
            windows += open_window
    assert checked > 150 and windows > (10 if rules.claims == "manual" else -1)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_masks_are_the_legal_moves_and_episodes_reset(case: tuple[str, int, dict[str, Any]]) -> None:
    preset, players, options = case
    env = vector_env("card-muggins", preset, players, num_envs=6, opponents="greedy", seed=4,
                     autoreset="next_step", **options)
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    ended = np.zeros(env.num_envs, bool)
    term = np.zeros(env.num_envs, bool)
    restarted = np.zeros(env.num_envs, bool)
    for step in range(4000):
        assert env.observation_space.contains(obs)
        if step % 3 == 0:
            for i in range(env.num_envs):
                assert np.array_equal(obs["action_mask"][i], expected_mask(env, i, int(info["seat"][i])))
                assert obs["action_mask"][i].any() or term[i]
        last = term.copy()  # (copy=False: the next step overwrites it)
        before = [env.game(i).side_scores() for i in range(env.num_envs)]
        obs, rew, term, trunc, info = env.step(legal_rows(obs, rng, env))
        assert not info["illegal"].any() and not trunc.any()
        for i in np.flatnonzero(~last):  # the learner (seat 0): its score's change over the step
            assert rew[i] == env.game(i).side_scores()[0] - before[i][0]
        for i in np.flatnonzero(term):
            assert env.game(i).is_over() and not obs["action_mask"][i].any()
        for i in np.flatnonzero(last):  # the step after an end deals a new game, ignoring its action
            assert rew[i] == 0 and not term[i] and obs["action_mask"][i].any()
            assert env.game(i).round_no() >= 1 and not env.game(i).is_over()
            restarted[i] = True
        ended |= term
        if restarted.all():
            break
    assert ended.all() and restarted.all(), "every game ends and is dealt anew"


def test_an_unmasked_move_ends_the_episode_with_the_penalty() -> None:
    env = vector_env("card-muggins", "muggins", 2, num_envs=3, opponents="random", seed=1, illegal_reward=-5.0)
    obs, _ = env.reset()
    acts = np.zeros((3, 2), np.int64)
    acts[:, 0] = [int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]]
    acts[1] = (int(obs["action_mask"][1].argmax()), 0)  # a legal one for game 1
    before = env.game(0).held(0), env.game(0).side_scores()
    obs, rew, term, _, info = env.step(acts)
    assert list(term) == [True, False, True] and list(info["illegal"]) == [True, False, True]
    assert rew[0] == rew[2] == -5.0 and (env.game(0).held(0), env.game(0).side_scores()) == before
    assert not obs["action_mask"][0].any()


def test_a_late_claim_naming_nothing_is_refused() -> None:
    """The late claim names its points (amount 1 or more): amount 0 is an illegal action, as in the ids."""
    env = vector_env("card-muggins", "muggins", 2, num_envs=16, opponents="greedy", seed=3, claim_timing="lenient")
    obs, _ = env.reset()
    claim = env.compact.move_start("claim")
    rng = np.random.default_rng(5)
    for _ in range(500):
        rows = legal_rows(obs, rng, env)
        rows[rows[:, 0] < 52, 1] = 0  # announce nothing: the learner's windows stay open for a late claim
        can = obs["action_mask"][:, claim] == 1
        if can.any():
            rows[can] = (claim, 0)
            _, rew, term, _, info = env.step(rows)
            assert info["illegal"][can].all() and term[can].all() and (rew[can] == -1.0).all()
            return
        obs, *_ = env.step(rows)
    pytest.fail("the learner never had a late claim to make")


def test_same_step_autoreset_keeps_the_final_observation() -> None:
    env = vector_env("card-muggins", "no-muggins", 3, num_envs=4, opponents="random", seed=2, autoreset="same_step")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    over = CardMugginsEncoder(env.rules, 3).layout.slice_of("over")
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(2000):
        obs, _, term, _, info = env.step(legal_rows(obs, rng, env))
        assert obs["action_mask"].any(1).all()  # always a fresh decision
        for i in np.flatnonzero(term):
            assert info["_final_obs"][i]
            assert info["final_obs"]["observation"][i][over][0] == 1.0
            assert not info["final_obs"]["action_mask"][i].any()
            assert not env.game(i).is_over()
            seen += 1
        if seen >= 6:
            break
    assert seen >= 6


@pytest.mark.parametrize("opponents", ["greedy", None])
def test_determinism_by_seed_and_threads(opponents: str | None) -> None:
    check_determinism("card-muggins", "muggins", 3, opponents)


def test_vector_api_data() -> None:
    """What Gymnasium's checks ask of reset and step, for a vector: the batched spaces, the types and shapes
    returned, data not reused between calls (``copy=True``) or reused (``copy=False``), and actions sampled
    from the action space accepted."""
    env = vector_env("card-muggins", "muggins", 2, num_envs=4, opponents="greedy", seed=0)
    assert env.observation_space == batch_space(env.single_observation_space, 4)
    assert env.action_space == batch_space(env.single_action_space, 4)
    assert list(env.single_action_space.nvec) == [56, 34] and env.compact.moves == 55
    assert env.single_observation_space["observation"].shape == (CardMugginsEncoder(env.rules, 2).size,)
    obs, info = env.reset(seed=5)
    assert isinstance(info, dict) and env.observation_space.contains(obs)
    obs2, rew, term, trunc, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(obs2)
    assert rew.shape == term.shape == trunc.shape == (4,) and term.dtype == trunc.dtype == np.bool_
    assert not np.shares_memory(obs2["observation"], obs["observation"])
    env.close()
    fast = vector_env("card-muggins", "no-muggins", 2, num_envs=4, copy=False)
    assert list(fast.single_action_space.nvec) == [54, 1]
    o1, _ = fast.reset(seed=1)
    o2, *_ = fast.step(np.stack([o1["action_mask"].argmax(1), np.zeros(4, np.int64)], 1))
    assert np.shares_memory(o1["observation"], o2["observation"])
    with pytest.raises(ValueError):
        fast.step(np.zeros((3, 2), np.int64))


def test_bad_arguments_are_refused() -> None:
    for kwargs in ({"opponents": "heuristic"}, {"opponents": ["random", "greedy"]}, {"num_envs": 0},
                   {"threads": 9}, {"reward": "money"}, {"autoreset": "never"}, {"seat": 2}):
        with pytest.raises(RulesError):
            vector_env("card-muggins", "muggins", 2, **{"num_envs": 4, **kwargs})
    with pytest.raises(RulesError, match="more than one pack"):
        vector_env("card-muggins", "muggins", 4, num_envs=2, hand_size=14)
    with pytest.raises(RuntimeError):
        vector_env("card-muggins", "muggins", 2, num_envs=2).step(np.zeros((2, 2), np.int64))


def test_one_game_passes_gymnasium_check_env() -> None:
    check_env(OneGame("card-muggins"), skip_render_check=True)


def test_the_environment_observes_the_seat_to_act_when_every_seat_learns() -> None:
    env = vector_env("card-muggins", "muggins", 3, num_envs=4, opponents=None, seed=9, copy=False)
    obs, info = env.reset()
    rng = np.random.default_rng(2)
    seats = set()
    term = np.zeros(4, bool)
    for _ in range(300):
        for i in range(4):
            seat = int(info["seat"][i])
            seats.add(seat)
            want = np.clip(native.encode_native(env.game(i), seat), -1, 1)
            assert np.array_equal(obs["observation"][i], want)
            assert np.array_equal(obs["action_mask"][i], expected_mask(env, i, seat))
        before = [env.game(i).side_scores() for i in range(4)]
        actors = info["seat"].copy()
        last = term.copy()  # (copy=False: the next step overwrites it)
        obs, rew, term, _, info = env.step(legal_rows(obs, rng, env))
        assert info["rewards"].shape == (4, 3)
        for i in range(4):  # each seat's reward is its score's change; the returned one the actor's
            assert rew[i] == info["rewards"][i, actors[i]]
            if last[i]:  # a new game was dealt: nobody scored
                assert not info["rewards"][i].any()
            elif not term[i]:
                after = env.game(i).side_scores()
                assert info["rewards"][i].tolist() == [a - b for a, b in zip(after, before[i], strict=True)]
    assert seats == {0, 1, 2}


def play_out(opponents: str, games: int, seed: int) -> float:
    """A learner moving at random and announcing its plays' true points, against ``opponents`` in C for
    ``games`` 2-player ``muggins`` games: the share it won."""
    env = vector_env("card-muggins", "muggins", 2, num_envs=8, opponents=opponents, seed=seed, autoreset="same_step",
                     reward="win")
    obs, info = env.reset()
    rng = np.random.default_rng(seed)
    won: list[float] = []
    while len(won) < games:
        rows = legal_rows(obs, rng, env)
        for i in range(env.num_envs):  # a play announces its true points; a call or claim nothing / its due
            g = env.game(i)
            m = int(rows[i, 0])
            if m < 52:
                rows[i, 1] = g.true_points(0, m * env.compact.amounts) + 1
                rows[i, 1] = rows[i, 1] if rows[i, 1] > 1 else 0
            elif m != env.let_go:
                rows[i] = (env.let_go if obs["action_mask"][i, env.let_go] else m, 0)
        obs, rew, term, _, info = env.step(rows)
        assert not info["illegal"].any()
        for i in np.flatnonzero(term):
            won.append(float(rew[i] > 0))
    return float(np.mean(won))


def test_greedy_opponent_in_c_beats_random_play() -> None:
    """The greedy opponent takes the most points now and calls every missed point: random play that the
    ``random`` opponent meets about evenly loses most games to it."""
    against_random = play_out("random", 80, seed=7)
    against_greedy = play_out("greedy", 80, seed=7)
    assert 0.3 < against_random < 0.7
    assert against_greedy < against_random - 0.15


@pytest.mark.parametrize("preset,players", [("muggins", 2), ("strict-21", 3), ("deal-seven", 2)])
def test_play_amounts_read_from_the_observation_are_the_true_points(preset: str, players: int) -> None:
    """The training's amounts (``PlayAmounts``, from the observation alone) of every card the learner may
    lay are the amounts of its true points (``c + 1`` for ``c`` points, 0 for none), and a learning task
    on the native environment uses them."""
    from muggins.cards.muggins31.train import PlayAmounts
    from muggins.rl.learn import Task

    amounts = PlayAmounts(preset, players)
    env = vector_env("card-muggins", preset, players, num_envs=8, opponents="random", seed=6, autoreset="same_step")
    obs, _ = env.reset()
    rng = np.random.default_rng(4)
    scoring = 0
    for _ in range(150):
        for i in range(env.num_envs):
            cards = np.flatnonzero(obs["action_mask"][i][:52])
            got = amounts(np.repeat(obs["observation"][i:i + 1], len(cards), 0), cards)
            g = env.game(i)
            want = [g.true_points(g.turn(), int(m) * env.compact.amounts) for m in cards]
            assert got.tolist() == [p + 1 if p else 0 for p in want]
            scoring += sum(1 for p in want if p)
        obs, *_ = env.step(legal_rows(obs, rng, env))
    assert scoring > 100
    assert Task("card-muggins", preset, players).backend == "native"
    with pytest.raises(ValueError, match="mug_last"):
        PlayAmounts(preset, players, mug_last=True)
