"""The Gymnasium environment: Gymnasium's checker over every game, bots in the other seats, rewards that
follow the learner's score, seeded episodes that replay, and illegal actions ending the episode or raising."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import muggins.rl  # noqa: E402
from muggins.core.errors import IllegalAction, RulesError  # noqa: E402
from muggins.core.rules import all_games  # noqa: E402
from muggins.rl.gymnasium_env import MugginsGymEnv  # noqa: E402


@pytest.mark.parametrize("game", list(all_games()))
def test_check_env(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no gymnasium registration: alternative render modes
        check_env(muggins.rl.gym_env(game=game))
        check_env(MugginsGymEnv(game=game, render_mode="ansi", opponents="random"))


def play(env: MugginsGymEnv, seed: int) -> tuple[float, list[int]]:
    """One episode with random masked actions: the learner's total reward and the actions it took."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    total, taken = 0.0, []
    while True:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert env.action_masks()[a]
        taken.append(a)
        obs, reward, terminated, truncated, _ = env.step(a)
        total += reward
        if terminated or truncated:
            return total, taken


@pytest.mark.parametrize(("game", "preset", "players", "seat"), [
    ("dominoes", "muggins", 2, 0), ("dominoes", "all-fives", 3, 2), ("card-muggins", "muggins", 2, 1),
    ("cribbage", "cribbage-muggins", 2, 0), ("cribbage", "four-hand", 4, 3)])
def test_an_episode_against_bots(game: str, preset: str, players: int, seat: int) -> None:
    env = MugginsGymEnv(game=game, preset=preset, players=players, seat=seat, opponents="club")
    total, taken = play(env, seed=4)
    st = env.game_state
    assert st.is_over()
    assert total == st.scores()[seat]  # points: the learner's score, step by step
    assert len(taken) == sum(1 for s, _ in st.history if s == seat) + taken.count(env.aec.let_go)
    again, taken_again = play(env, seed=4)
    assert (again, taken_again) == (total, taken)  # a seeded episode replays, bots included
    won = MugginsGymEnv(game=game, preset=preset, players=players, seat=seat, reward="win", opponents="club")
    total, _ = play(won, seed=4)
    assert total == (1.0 if seat in won.game_state.winners() else -1.0)


def test_opponents_one_per_seat() -> None:
    env = MugginsGymEnv(game="dominoes", players=3, opponents=["random", "heuristic"])
    assert [b.name for b in env.bots.values()] == ["random", "heuristic"]
    with pytest.raises(RulesError, match="opponents"):
        MugginsGymEnv(game="dominoes", players=3, opponents=["random"])
    with pytest.raises(RulesError, match="seat"):
        MugginsGymEnv(game="dominoes", seat=2)
    with pytest.raises(RulesError, match="unknown bot"):
        MugginsGymEnv(game="dominoes", opponents="grandmaster")


def test_illegal_action_ends_the_episode_or_raises() -> None:
    env = MugginsGymEnv(game="card-muggins")
    obs, _ = env.reset(seed=2)
    history = list(env.game_state.history)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False) and "illegal_action" in info
    assert env.game_state.history == history  # the game refused it
    with pytest.raises(IllegalAction, match="reset"):
        env.step(bad)
    strict = MugginsGymEnv(game="card-muggins", illegal_reward=None)
    strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(bad)
    assert strict.game_state.history == history
