"""The ``learned`` bot: a small network trained with the batched environment, played with NumPy alone.

The weights of each game the bot knows are a ``.npz`` file in ``muggins/bots/weights/`` named
``<game>-<preset>.npz`` (``python -m muggins.rl.learn --game GAME`` writes them; docs/rl.md). A file holds the
layers of a multilayer perceptron (``w0, b0, w1, b1, ...``: tanh between layers, the last gives the logits of the
compact move head) and ``meta``, a JSON text: ``game``, ``preset``, ``players``, ``observation`` (the encoder's
size) and ``moves`` (the logits). The network reads the seat's observation
(:func:`muggins.rl.observation.encoder_for`, the vector of the learning environments) and plays the legal move of
highest logit, so it is deterministic. The muggins rule is the attention model's, as for every bot: the learned bot
announces its move's true points and calls every missed point (perfect attention).

A game, preset or number of players without weights, or rules changed from the preset, is refused by name
(``RulesError``) at the bot's first move. Nothing here imports PyTorch.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from muggins.core.errors import RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.rules import get_game

__all__ = ["WEIGHTS_DIR", "LearnedNet", "LearnedPolicy", "available", "load_net"]

WEIGHTS_DIR = Path(__file__).with_name("weights")


@dataclass(frozen=True)
class LearnedNet:
    """A multilayer perceptron's weights and what they were trained for."""

    game: str
    preset: str
    players: int
    observation: int
    moves: int
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The move head's logits for one observation (a vector) or a batch (rows)."""
        x = np.asarray(obs, dtype=np.float32)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                x = np.tanh(x)
        return x

    def choose(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The legal move of highest logit in each row (``mask``: nonzero where legal; a row needs one)."""
        z = np.where(np.asarray(mask)[..., :self.moves] != 0, self.logits(obs), -np.inf)
        out: np.ndarray = np.argmax(z, axis=-1)
        return out


def available() -> list[tuple[str, str, int]]:
    """(game, preset, players) of every weights file shipped."""
    out = []
    for path in sorted(WEIGHTS_DIR.glob("*.npz")):
        net = _load(path)
        out.append((net.game, net.preset, net.players))
    return out


def _known() -> str:
    return ", ".join(f"{g} {p} ({n} players)" for g, p, n in available()) or "none"


@cache
def _load(path: Path) -> LearnedNet:
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        layers = []
        k = 0
        while f"w{k}" in data:
            layers.append((data[f"w{k}"].astype(np.float32), data[f"b{k}"].astype(np.float32)))
            k += 1
    return LearnedNet(game=meta["game"], preset=meta["preset"], players=int(meta["players"]),
                      observation=int(meta["observation"]), moves=int(meta["moves"]), layers=tuple(layers))


def load_net(game: str, preset: str, players: int) -> LearnedNet:
    """The weights for ``game`` / ``preset`` / ``players``; RulesError naming what the bot plays otherwise."""
    path = WEIGHTS_DIR / f"{game}-{preset}.npz"
    net = _load(path) if path.is_file() else None
    if net is None or net.players != players:
        raise RulesError(f"bot 'learned' has no weights for {game} preset {preset!r} with {players} players; "
                         f"it plays: {_known()}")
    return net


class LearnedPolicy:
    """Plays the move the shipped network rates highest (see the module docstring)."""

    name = "learned"

    def __init__(self) -> None:
        self._ready: dict[tuple[str, Any, int], tuple[LearnedNet, Any, Any]] = {}

    def _setup(self, state: GameState) -> tuple[LearnedNet, Any, Any]:
        from muggins.rl.compact import compact_actions_of
        from muggins.rl.observation import encoder_for

        rules = state.rules
        key = (state.game, rules, state.num_players)
        hit = self._ready.get(key)
        if hit is not None:
            return hit
        preset = str(getattr(rules, "preset", ""))
        net = load_net(state.game, preset, state.num_players)
        if rules != get_game(state.game).rules(preset):
            raise RulesError(f"bot 'learned' was trained on the {preset!r} preset of {state.game} as it is; "
                             f"these rules change it")
        enc = encoder_for(state.game, rules, state.num_players)
        compact = compact_actions_of(state)
        if enc.size != net.observation or compact.moves < net.moves:
            raise RulesError(f"bot 'learned': its weights for {state.game} {preset!r} do not fit this version "
                             f"of the game (observation {enc.size}, moves {compact.moves})")
        self._ready[key] = (net, enc, compact)
        return net, enc, compact

    def refuses(self, state: GameState) -> str | None:
        """Why this bot cannot play the game of ``state`` (no weights for it, or rules changed), or None."""
        try:
            self._setup(state)
        except RulesError as e:
            return str(e)
        return None

    def choose(self, state: GameState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        net, enc, compact = self._setup(state)
        if len(actions) == 1:
            return actions[0]
        moves = [compact.pair_of(state, a)[0] for a in actions]
        logits = net.logits(enc.encode(state, seat))
        best = max(range(len(actions)), key=lambda i: (logits[moves[i]] if moves[i] < net.moves else -np.inf, -i))
        return actions[best]
