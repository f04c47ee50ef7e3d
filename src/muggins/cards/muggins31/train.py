"""Train the ``learned`` bot's network for 2-player card Muggins (``muggins``) with the batched environment and PPO.

    python -m muggins.cards.muggins31.train --seed 0 --wall-minutes 20 \
        --out src/muggins/bots/weights/card-muggins-muggins.npz

The training is :mod:`muggins.rl.learn`'s (its docstring says all: network, PPO, reward, stopping; needs
PyTorch, ``pip install 'muggins[learn]'``) with what this game adds: the amounts of the learner's plays
computed from the observation (:class:`PlayAmounts`: the running total and the pile), since the native
environment has no Python state to ask. The opponents (``greedy`` or ``random``) are played in C.
"""

from __future__ import annotations

import numpy as np

from muggins.cards.muggins31.observation import CardMugginsEncoder
from muggins.core.rules import get_game
from muggins.rl import learn
from muggins.rl.learn import Task

__all__ = ["PlayAmounts", "main", "task"]

GAME, PRESET, PLAYERS = "card-muggins", "muggins", 2


class PlayAmounts:
    """The compact amount of a play's true points, from the observation alone: the total after the card
    (the running total read back from ``total`` x the cap, plus the card's value) scores the cap bonus at the
    cap, else itself when a multiple of five (a lead only with ``lead_scores``). For rules whose "last" point
    is scored automatically (``mug_last`` off): a muggable "last" depends on what the others hold."""

    def __init__(self, preset: str = PRESET, players: int = PLAYERS, **options: object) -> None:
        rules = get_game(GAME).rules(preset, options or None)
        if rules.mug_last:
            raise ValueError("play amounts are computed for rules whose last point scores itself (mug_last off)")
        enc = CardMugginsEncoder(rules, players)
        self.cap, self.bonus, self.lead_scores = int(rules.cap), int(rules.cap_bonus), bool(rules.lead_scores)
        self.total = enc.s_total
        self.pile = enc.s_pile
        self.value = np.minimum(10, np.arange(52) // 4 + 1)

    def __call__(self, obs: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """The amount (0: says nothing, ``c + 1``: announces ``c``) of each row's move; 0 for non-plays."""
        play = moves < 52
        total = np.rint(obs[:, self.total] * self.cap).astype(np.int64) + self.value[np.where(play, moves, 0)]
        led = obs[:, self.pile:self.pile + 52].any(axis=1) | self.lead_scores
        pts = np.where(total == self.cap, self.bonus, np.where((total % 5 == 0) & led, total, 0))
        out: np.ndarray = np.where(play & (pts > 0), pts + 1, 0)
        return out


def task() -> Task:
    """The learning task: 2-player ``muggins`` on the native batched environment, plays announcing their
    true points (:class:`PlayAmounts`)."""
    return Task(GAME, PRESET, PLAYERS, amounts=PlayAmounts())


def main(argv: list[str] | None = None) -> int:
    p = learn.parser("python -m muggins.cards.muggins31.train", __doc__ or "", game=GAME)
    return learn.run(task(), p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
