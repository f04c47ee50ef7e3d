"""Train the ``learned`` bot's network for 2-player domino ``muggins`` with the batched environment and PPO.

    python -m muggins.dominoes.train --seed 0 --lr 6e-4 --wall-minutes 22 \
        --out src/muggins/bots/weights/dominoes-muggins.npz

The training is :mod:`muggins.rl.learn`'s (its docstring says all: network, PPO, reward, stopping; needs
PyTorch, ``pip install 'muggins[learn]'``) with what this game adds: the amounts of the learner's plays
computed from the observation (:class:`PlayAmounts`: the line's ends after the play, the rules' score table),
since the native environment has no Python state to ask, and rewards per 100 points. The opponents (``greedy``
or ``random``) are played in C.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from muggins.core.rules import get_game
from muggins.dominoes.observation import DominoEncoder
from muggins.dominoes.scoring import score_table
from muggins.dominoes.tiles import full_set
from muggins.rl import learn
from muggins.rl.compact import compact_actions
from muggins.rl.learn import Task

__all__ = ["PlayAmounts", "evaluate", "export", "main", "train"]

GAME, PRESET, PLAYERS = "dominoes", "muggins", 2


class PlayAmounts:
    """The compact amount of a play's true points, from the observation alone, for a line of dominoes
    (``spinner = "none"``): the count after the play is the new end plus the other end (a double counts
    both halves; a lead double alone has one free place, its sides), a lead counts its pips, and the rules'
    score table turns the count into points."""

    def __init__(self, preset: str = PRESET, players: int = PLAYERS) -> None:
        rules = get_game(GAME).rules(preset)
        if rules.spinner != "none":
            raise ValueError(f"play amounts are computed for a line of dominoes; {preset!r} has spinners")
        enc = DominoEncoder(rules, players)
        c = compact_actions(GAME, preset, players)
        self.top = int(rules.tile_set)
        self.ends = enc.s_ends
        self.plays = c.move_start("draw")
        tiles = full_set(self.top)
        self.slots = self.plays // len(tiles)
        self.hi = np.array([t.hi for t in tiles])
        self.lo = np.array([t.lo for t in tiles])
        self.table = np.array(score_table(rules.score_fn))
        self.target = float(rules.target)
        self.scores = enc.layout.slice_of("scores").start

    def __call__(self, obs: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """The amount (0: says nothing, ``c + 1``: announces ``c``) of each row's move; 0 for non-plays."""
        n = len(moves)
        rows = np.arange(n)
        play = moves < self.plays
        m = np.where(play, moves, 0)
        t, slot = m // self.slots, m % self.slots
        hi, lo = self.hi[t], self.lo[t]
        k = np.clip(slot - 1, 0, 1)
        v = np.rint(obs[rows, self.ends + 3 * k + 1] * self.top).astype(np.int64)
        new_end = np.where(hi == lo, 2 * hi, np.where(v == hi, lo, hi))
        j = 1 - k
        vj = np.rint(obs[rows, self.ends + 3 * j + 1] * self.top).astype(np.int64)
        # a lead double alone shows one free place (its sides): its other side still counts both halves
        alone = obs[rows, self.ends + 3 * j] == 0
        other = np.where(alone, v * (1 + obs[rows, self.ends + 3 * k + 2]),
                         vj * (1 + obs[rows, self.ends + 3 * j + 2]))
        count = np.where(slot == 0, hi + lo, new_end + np.rint(other).astype(np.int64))
        pts = self.table[count]
        out: np.ndarray = np.where(play & (pts > 0), pts + 1, 0)
        return out

    def margin(self, obs: np.ndarray) -> np.ndarray:
        """Own score minus the opponent's, in points, of each row."""
        s = self.scores
        out: np.ndarray = np.rint((obs[:, s] - obs[:, s + 1]) * self.target)
        return out


def _task() -> Task:
    return Task(GAME, PRESET, PLAYERS, amounts=PlayAmounts())


def export(net: Any, path: Path | None, size: int, moves: int) -> dict[str, np.ndarray]:
    """The NumPy arrays of ``net``'s policy (written to ``path`` when given): :func:`muggins.rl.learn.export`."""
    task = _task()
    if (size, moves) != (task.size, task.moves):
        raise ValueError(f"the network is for {task.size} numbers and {task.moves} moves, not {size} and {moves}")
    return learn.export(task, net, path)


def evaluate(net: Any, opponent: str, games: int, seed: int, num_envs: int = 256) -> dict[str, float]:
    """``games`` games of the NumPy network (the most probable move) against ``opponent``, half in each seat,
    on the deals of ``seed``: wins, mean margin (:func:`muggins.rl.learn.evaluate`)."""
    return learn.evaluate(_task(), net, opponent, games, seed, num_envs)


def train(**kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """Run PPO (:func:`muggins.rl.learn.train`, whose keyword arguments it takes; rewards per 100 points);
    returns the network and the training figures."""
    kwargs.setdefault("points_scale", 100.0)
    return learn.train(_task(), **kwargs)


def main(argv: list[str] | None = None) -> int:
    p = learn.parser("python -m muggins.dominoes.train", __doc__ or "", game=GAME)
    p.set_defaults(points_scale=100.0)
    return learn.run(_task(), p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
