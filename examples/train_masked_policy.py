"""Train a masked softmax policy for two-player domino Muggins with numpy alone, then measure it.

    python examples/train_masked_policy.py [--episodes 3000] [--eval-games 1000] [--seed 0]
                                           [--out policy.npz] [--load policy.npz] [--opponent random]

The learner plays one seat of ``muggins.rl.gym_env(game="dominoes", preset="muggins", players=2)``
(seat 0 in even episodes, seat 1 in odd ones) against a bot, ``random`` by default: any legal move,
announcing its points exactly and calling every miss. At the end it plays ``--eval-games`` games on fixed
seeds (half in each seat) with its most probable action and prints one JSON object: the win rate with a
95% (Wilson) interval, the points per game of both sides, the timings and the weights.

**The policy.** The action space has 18,922 ids but a seat has only a few legal moves. Each candidate id
is scored by a linear function of a few features of its move (``FEATURES``), and a softmax over the
candidates gives the probabilities: the logits of all other ids are minus infinity, which is the usual
masked softmax with a narrower mask. The features use only what the seat may know: its own move read back
with ``state.action_from_id`` and the points it scores now (``state.claim_for`` of one's own move, public
arithmetic), its own hand and the layout from ``view(seat)``, and, for the move's risk, the ends the move
would leave (the move applied to a copy, of which only the seat's view is read, and nothing at all when the
move ends the hand: the next deal is secret).

**Claims.** Under the muggins rule an id includes the points announced with the move. This example does
not learn to count: its candidates are the legal ids whose claim is the move's true points (a call of
Muggins! names what can be taken; "let it go" when nothing can), as a perfect counter would play. Only the
choice of move is learnt.

**Learning.** REINFORCE: the return of a decision is the discounted sum (``--gamma``) of the changes in
the seat's score margin (own score less the opponent's, / 10) until its next decisions; advantages are
normalised over a batch of episodes (``--batch``) and the weights follow Adam (``--lr``). Training and
evaluation seeds never meet (evaluation game k is ``EVAL_SEED + k``).

The same loop works with PyTorch: the features are the input of a ``torch.nn.Linear(len(FEATURES), 1)``
(or a small network), masked out ids get ``-inf`` logits, and ``torch.distributions.Categorical`` gives
the log-probabilities to differentiate.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import muggins.rl
from muggins.core.protocol import Action
from muggins.dominoes.scoring import SCORE_FUNCTIONS
from muggins.rl.gymnasium_env import MugginsGymEnv

GAME, PRESET, PLAYERS = "dominoes", "muggins", 2
EVAL_SEED = 1_000_000_000
KINDS = ("play", "draw", "pass", "knock", "muggins", "claim", "let_go")
FEATURES = (*(f"kind_{k}" for k in KINDS),
            "points",        # what the move scores now, / 10
            "pips",          # the tile's pips / 12: heavy tiles left in hand feed the opponent's bonus
            "double",        # the tile is a double (doubles fit fewer ends)
            "keeps_playable",  # share of the tiles left in hand that fit the ends the move leaves
            "risk",          # share of the unseen tiles that would score on the ends the move leaves
            "risk_points")   # the most such a tile would score, / 10
NF = len(FEATURES)


def _tile(text: str) -> tuple[int, int]:
    """``"1-4"`` -> (4, 1): a tile as (high, low) whichever way round the view writes it."""
    a, _, b = text.partition("-")
    return max(int(a), int(b)), min(int(a), int(b))


class Features:
    """The candidate ids of the seat about to act and their features (see the module docstring)."""

    def __init__(self, env: MugginsGymEnv) -> None:
        self.env = env
        rules = env.aec.rules
        if rules.spinner != "none":
            raise ValueError("the risk features assume a line layout (spinner = none)")
        self.score = SCORE_FUNCTIONS[rules.score_fn]
        top = int(rules.tile_set)
        self.all_tiles = [(a, b) for a in range(top + 1) for b in range(a + 1)]

    def candidates(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(ids, features): one row per candidate id, each a legal id of ``mask``."""
        env = self.env
        st, seat = env.game_state, env.seat
        ids: list[int] = []
        rows: list[np.ndarray] = []
        legal = st.legal_actions(seat)
        kinds = {a.kind for a in legal}
        if "muggins" in kinds and st.muggable(seat) > 0:
            take = st.muggable(seat)
            ids.append(st.action_id(Action("muggins", claim=take)))
            rows.append(self._row("muggins", take))
        if "claim" in kinds:
            owed = st.claim_for(seat, Action("claim"))
            if owed > 0:
                ids.append(st.action_id(Action("claim", claim=owed)))
                rows.append(self._row("claim", owed))
        if seat in st.waiting_for():
            manual = st.rules.claims == "manual"
            for a in legal:
                if a.kind in ("muggins", "claim"):
                    continue
                points = st.claim_for(seat, a)
                i = st.action_id(a.with_claim(points) if manual and points > 0 else a)
                ids.append(i)
                rows.append(self._move_row(st.action_from_id(seat, i), points))
        if mask[env.aec.let_go]:
            ids.append(env.aec.let_go)
            rows.append(self._row("let_go", 0))
        out = np.asarray(ids, dtype=np.int64)
        if not len(out) or not mask[out].all():
            raise RuntimeError(f"candidates outside the mask or none at all: {ids}")
        return out, np.stack(rows)

    def _row(self, kind: str, points: int) -> np.ndarray:
        row = np.zeros(NF, dtype=np.float64)
        row[KINDS.index(kind)] = 1.0
        row[len(KINDS)] = points / 10
        return row

    def _move_row(self, action: Action, points: int) -> np.ndarray:
        row = self._row(action.kind, points)
        if action.kind != "play":
            return row
        st, seat = self.env.game_state, self.env.seat
        a, b = action.subject.hi, action.subject.lo
        f = len(KINDS) + 1
        row[f] = (a + b) / 12
        row[f + 1] = 1.0 if a == b else 0.0
        before = st.view(seat)
        if len(before["my_hand"]) == 1:
            return row  # going out ends the hand: nothing after it is read
        after_state = st.clone()
        after_state.apply(seat, action)
        after = after_state.view(seat)
        if after["hand"] != before["hand"] or after["over"]:
            return row  # the move ended the hand (blocked): the next deal is secret
        ends = self.ends(after)
        hand = [_tile(t) for t in after["my_hand"]]
        values = {v for v, _ in ends}
        row[f + 2] = sum(1 for x, y in hand if x in values or y in values) / len(hand)
        seen = set(hand) | {_tile(e["tile"]) for e in after["layout"]}
        unseen = [t for t in self.all_tiles if t not in seen]
        scoring, best = 0, 0
        for x, y in unseen:
            top = max((self.count_after(ends, k, x, y) for k in range(len(ends))), default=0)
            scoring += top > 0
            best = max(best, top)
        row[f + 3] = scoring / max(1, len(unseen))
        row[f + 4] = best / 10
        return row

    @staticmethod
    def ends(view: Any) -> list[tuple[int, bool]]:
        """The free ends of a view's layout: (value, lies on a double)."""
        out = []
        for e in view["open_ends"]:
            hi, lo = _tile(e["on"])
            out.append((int(e["value"]), hi == lo))
        return out

    def count_after(self, ends: list[tuple[int, bool]], k: int, x: int, y: int) -> int:
        """Points tile x-y would score on end ``k`` of a line (0 when it does not fit there)."""
        v, _ = ends[k]
        if v not in (x, y):
            return 0
        other = y if x == v else x
        count = 2 * other if x == y else other
        rest = [e for j, e in enumerate(ends) if j != k] or [(v, True)]  # a lone double: its other side
        count += sum(2 * w if dbl else w for w, dbl in rest)
        return self.score(count)


class Policy:
    """Linear logits over the candidates' features; a softmax gives the probabilities."""

    def __init__(self, weights: np.ndarray | None = None) -> None:
        self.w = np.zeros(NF) if weights is None else np.asarray(weights, dtype=np.float64).copy()
        if self.w.shape != (NF,):
            raise ValueError(f"weights have shape {self.w.shape}; expected ({NF},)")

    def probabilities(self, feats: np.ndarray) -> np.ndarray:
        z = feats @ self.w
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def save(self, path: str | Path) -> None:
        np.savez(path, weights=self.w, features=np.array(FEATURES))

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        with np.load(path) as data:
            if tuple(str(x) for x in data["features"]) != FEATURES:
                raise ValueError(f"{path}: the weights were saved for other features")
            return cls(data["weights"])


def make_envs(opponent: str) -> list[MugginsGymEnv]:
    """One environment per seat of the learner."""
    return [muggins.rl.gym_env(game=GAME, preset=PRESET, players=PLAYERS, seat=s, opponents=opponent,
                               illegal_reward=None) for s in range(PLAYERS)]


def margin(env: MugginsGymEnv) -> float:
    scores = env.game_state.scores()
    return float(scores[env.seat] - scores[1 - env.seat])


def play_episode(env: MugginsGymEnv, feats: Features, policy: Policy, seed: int,
                 choose: Callable[[np.ndarray], int]) -> dict[str, Any]:
    """One game; ``choose(probabilities)`` picks a candidate's index. Returns the decisions (features and
    choice), the margin change after each, the actions and the final scores."""
    obs, _ = env.reset(seed=seed)
    steps: list[tuple[np.ndarray, int]] = []
    rewards: list[float] = []
    actions: list[int] = []
    before = margin(env)
    while True:
        ids, x = feats.candidates(obs["action_mask"])
        k = choose(policy.probabilities(x))
        steps.append((x, k))
        actions.append(int(ids[k]))
        obs, _, terminated, truncated, info = env.step(int(ids[k]))
        now = margin(env)
        rewards.append((now - before) / 10)
        before = now
        if terminated or truncated:
            break
    scores = env.game_state.scores()
    return {"steps": steps, "rewards": rewards, "actions": actions, "won": env.seat in info["winners"],
            "points": scores[env.seat], "opponent_points": scores[1 - env.seat]}


class Adam:
    def __init__(self, size: int, lr: float) -> None:
        self.lr, self.m, self.v, self.t = lr, np.zeros(size), np.zeros(size), 0

    def step(self, w: np.ndarray, grad: np.ndarray) -> None:
        """Move ``w`` up ``grad`` (gradient ascent)."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m_hat = self.m / (1 - 0.9 ** self.t)
        v_hat = self.v / (1 - 0.999 ** self.t)
        w += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def train(policy: Policy, episodes: int, seed: int, opponent: str = "random", batch: int = 16,
          lr: float = 0.05, gamma: float = 0.8, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """REINFORCE on ``policy`` in place; returns the losses of each batch and the time taken."""
    envs = make_envs(opponent)
    feats = [Features(e) for e in envs]
    rng = np.random.default_rng(seed)
    opt = Adam(NF, lr)
    losses: list[float] = []
    won: list[bool] = []
    t0 = time.perf_counter()
    for start in range(0, episodes, batch):
        xs, ks, gs = [], [], []
        for ep in range(start, min(episodes, start + batch)):
            s = ep % PLAYERS
            out = play_episode(envs[s], feats[s], policy, int(rng.integers(EVAL_SEED)),
                               lambda p: int(rng.choice(len(p), p=p)))
            ret, returns = 0.0, []
            for r in reversed(out["rewards"]):
                ret = r + gamma * ret
                returns.append(ret)
            returns.reverse()
            for (x, k), g in zip(out["steps"], returns, strict=True):
                if len(x) > 1:  # a forced move teaches nothing
                    xs.append(x)
                    ks.append(k)
                    gs.append(g)
            won.append(out["won"])
        if not gs:
            continue
        adv = np.asarray(gs)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        grad = np.zeros(NF)
        loss = 0.0
        for x, k, a in zip(xs, ks, adv, strict=True):
            p = policy.probabilities(x)
            grad += a * (x[k] - p @ x)  # d log p_k / dw for a linear softmax
            loss -= a * math.log(p[k] + 1e-12)
        grad /= len(adv)
        losses.append(loss / len(adv))
        opt.step(policy.w, grad)
        if log and (start // batch) % 25 == 0:
            recent = won[-400:]
            log(f"episode {min(episodes, start + batch)}: loss {losses[-1]:.4f}, "
                f"won {sum(recent)}/{len(recent)} recent, {time.perf_counter() - t0:.0f}s")
    return {"losses": losses, "seconds": time.perf_counter() - t0}


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def greedy(p: np.ndarray) -> int:
    """The most probable candidate (the first on ties): evaluation is deterministic."""
    return int(np.argmax(p))


def evaluate(policy: Policy, games: int, opponent: str = "random") -> dict[str, Any]:
    """``games`` games on the seeds ``EVAL_SEED + k``, the learner in seat ``k % 2``."""
    envs = make_envs(opponent)
    feats = [Features(e) for e in envs]
    wins, points, against = 0, 0, 0
    t0 = time.perf_counter()
    for k in range(games):
        out = play_episode(envs[k % PLAYERS], feats[k % PLAYERS], policy, EVAL_SEED + k, greedy)
        wins += out["won"]
        points += out["points"]
        against += out["opponent_points"]
    lo, hi = wilson(wins, games)
    n = max(1, games)
    return {"eval_games": games, "eval_seeds": [EVAL_SEED, EVAL_SEED + games - 1], "wins": wins,
            "win_rate": round(wins / n, 4), "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "points_per_game": round(points / n, 2), "opponent_points_per_game": round(against / n, 2),
            "eval_seconds": round(time.perf_counter() - t0, 1)}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=3000, help="training games")
    ap.add_argument("--eval-games", type=int, default=1000, help="evaluation games (fixed seeds)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the training games and sampling")
    ap.add_argument("--out", help="save the weights to this .npz file")
    ap.add_argument("--load", help="start from the weights of this .npz file")
    ap.add_argument("--opponent", default="random", help="the bot in the other seat (muggins bots)")
    ap.add_argument("--batch", type=int, default=16, help="episodes per update")
    ap.add_argument("--lr", type=float, default=0.05, help="Adam's step size")
    ap.add_argument("--gamma", type=float, default=0.8, help="discount of the margin changes")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args(argv)
    if args.episodes < 0 or args.eval_games < 0 or args.batch < 1:
        ap.error("--episodes and --eval-games are 0 or more, --batch 1 or more")
    policy = Policy.load(args.load) if args.load else Policy()
    log = None if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    trained = train(policy, args.episodes, args.seed, args.opponent, args.batch, args.lr, args.gamma, log)
    if args.out:
        policy.save(args.out)
    result: dict[str, Any] = {
        "game": GAME, "preset": PRESET, "players": PLAYERS, "opponent": args.opponent,
        "claims": "true points (not learnt)", "episodes": args.episodes, "seed": args.seed,
        "loaded": args.load, "train_seconds": round(trained["seconds"], 1),
        "final_loss": trained["losses"][-1] if trained["losses"] else None,
        **evaluate(policy, args.eval_games, args.opponent),
        "weights": {name: round(float(w), 4) for name, w in zip(FEATURES, policy.w, strict=True)},
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
