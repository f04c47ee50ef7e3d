"""The training script of the learned bot's network (muggins.rl.learn) on the Python backend of the batched
environment: the learner's announcements, the final observations, the margin, a few PPO updates."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from muggins.rl.learn import Task, _moves, final_observations


def muggins_calls_on(env: Any, seat: int) -> int:
    """Muggins! calls made on ``seat`` so far in every game of a Python-backend vector ``env``."""
    return sum(1 for e in env.envs for ev in e.env.game_state.log
               if ev.kind == "muggins" and ev.data.get("on") == seat)


def play_card_muggins(announce: bool, steps: int = 60) -> tuple[int, int, list[float]]:
    """(scoring plays made, Muggins! calls on the learner, margins of finished games) of random card Muggins
    play against ``greedy`` that announces the Task's amounts, or nothing."""
    task = Task("card-muggins", "muggins", 2, backend="python")
    [env, _] = task.envs(6, "greedy", seed=3)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    calls = scoring = 0
    margins: list[float] = []
    for _ in range(steps):
        mask = obs["action_mask"]
        moves = _moves(task, mask, (rng.random((6, task.moves)) * mask[:, :task.moves]).argmax(1))
        amounts = task.amounts(env, obs["observation"], moves) if announce else np.zeros(6, np.int64)
        scoring += int((task.amounts(env, obs["observation"], moves) > 0).sum())
        obs, _, term, _, info = env.step(np.stack([moves, amounts], 1))
        assert "illegal_action" not in info
        final = final_observations(info, obs["observation"], term)
        margins += task.margin(final[term]).tolist()
        calls = max(calls, muggins_calls_on(env, 0))
    return scoring, calls, margins


def test_the_learner_announces_true_points_and_is_never_mugged() -> None:
    scoring, calls, margins = play_card_muggins(announce=True)
    assert scoring > 20 and calls == 0 and margins
    scoring, calls, _ = play_card_muggins(announce=False)
    assert scoring > 20 and calls > 0  # saying nothing: greedy calls the missed points


def test_task_shapes_and_margin() -> None:
    cm = Task("card-muggins")  # the native environment, whose amounts are read from the observation
    assert (cm.game, cm.preset, cm.players, cm.backend) == ("card-muggins", "muggins", 2, "native")
    assert cm.moves == cm.compact.move_start("muggins") and cm.moves < cm.compact.moves
    cr = Task("cribbage")
    assert cr.moves == cr.compact.moves and cr.compact.amounts == 1
    obs = np.zeros((2, cr.size), np.float32)
    obs[0, cr.scores:cr.scores + 2] = [60 / cr.target, 50 / cr.target]
    obs[1, cr.scores:cr.scores + 2] = [0.0, 121 / cr.target]
    assert cr.margin(obs).tolist() == [10.0, -121.0]
    assert Task("dominoes", backend="python").backend == "python"
    with pytest.raises(ValueError, match="needs the amounts"):
        Task("dominoes")


def test_final_observations_from_either_backend() -> None:
    obs = np.zeros((3, 2), np.float32)
    term = np.array([False, True, False])
    last = np.ones((3, 2), np.float32)
    native = final_observations({"final_obs": {"observation": last}}, obs, term)
    python = final_observations({"final_obs": np.array([None, {"observation": last[1]}, None], dtype=object)},
                                obs, term)
    assert native.tolist() == python.tolist() == [[0, 0], [1, 1], [0, 0]]
    assert final_observations({}, obs, np.zeros(3, bool)) is obs


@pytest.mark.slow  # needs PyTorch, which only the learn extra installs (pip install -e '.[learn]')
@pytest.mark.parametrize("game,backend", [("card-muggins", "python"), ("cribbage", "python"), ("card-muggins", "auto")])
def test_training_runs_a_few_steps_and_exports_what_the_bot_loads(game: str, backend: str, tmp_path: Any) -> None:
    pytest.importorskip("torch")
    from muggins.bots.learned import _load
    from muggins.rl.learn import evaluate, export, numpy_net, train

    task = Task(game, backend=backend)
    net, figures = train(task, updates=2, num_envs=4, steps=4, hidden=8, minibatch=16)
    assert figures["updates"] == 2 and figures["steps"] == 2 * 4 * 4
    assert figures["backend"] == ("native" if backend == "auto" else "python")
    path = tmp_path / f"{game}-{task.preset}.npz"
    arrays = export(task, net, path)
    loaded = _load(path)
    assert (loaded.game, loaded.preset, loaded.moves, loaded.observation) == (game, task.preset, task.moves,
                                                                              task.size)
    obs = np.random.default_rng(0).random((3, task.size), dtype=np.float32)
    with __import__("torch").no_grad():
        expected = net(__import__("torch").from_numpy(obs))[0].numpy()
    assert np.allclose(numpy_net(task, arrays).logits(obs), expected, atol=1e-5)
    assert evaluate(task, loaded, "random", 2, seed=1, num_envs=1)["games"] == 2
    again, _ = train(task, updates=0, hidden=8, init=path)  # a run started from the file: the same policy
    with __import__("torch").no_grad():
        assert np.allclose(again(__import__("torch").from_numpy(obs))[0].numpy(), expected, atol=1e-6)
    with pytest.raises(ValueError, match="holds weights for"):
        train(Task("card-muggins" if game == "cribbage" else "cribbage"), updates=0, hidden=8, init=path)
