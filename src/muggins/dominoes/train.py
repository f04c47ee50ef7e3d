"""Train the ``learned`` bot's network for 2-player domino ``muggins`` with the batched environment and PPO.

    python -m muggins.dominoes.train --seed 0 --lr 6e-4 --wall-minutes 22 \
        --out src/muggins/bots/weights/dominoes-muggins.npz

Needs PyTorch (``pip install 'muggins[learn]'``); playing the result needs only NumPy
(:mod:`muggins.bots.learned`). One seat learns against ``--opponent`` (``greedy`` or ``random``, played in C
by :func:`muggins.rl.vector_env`), half the games in each seat, on one thread.

* **The move head** is learnt: a tanh multilayer perceptron from the observation to the logits of the
  game's regular moves (plays, draw, pass, knock), the illegal ones masked; a value head beside it
  (not shipped). When the learner may only call Muggins!, claim late or let the window go, it lets it go:
  the opponents announce their true points, so there is never anything to call.
* **The amount head is not learnt**: every play announces its true points, computed from the observation
  (:func:`play_amounts`: the line's ends after the play, the rules' score table), as the bot does in play
  through its perfect attention. A wrong amount costs the points to the opponent's Muggins! call, and
  nothing is gained by it.
* **Reward**: the change in the score margin (own minus opponent's, read from the observation's scores) /
  100 at each decision, and +1 / -1 at the end of a game won / lost.
* **PPO** with generalised advantage estimation; the run stops after ``--updates`` updates or ``--minutes``,
  whichever comes first, then plays ``--eval-games`` games with the NumPy network (the most probable move)
  against the opponent on fixed seeds and writes the weights.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from muggins.core.rules import get_game
from muggins.dominoes.observation import DominoEncoder
from muggins.dominoes.scoring import score_table
from muggins.dominoes.tiles import full_set
from muggins.rl.compact import compact_actions

__all__ = ["PlayAmounts", "main", "train"]

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


def _net(torch: Any, size: int, moves: int, hidden: int) -> Any:
    nn = torch.nn

    class Net(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.trunk = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
            self.pi = nn.Linear(hidden, moves)
            self.v = nn.Linear(hidden, 1)
            nn.init.orthogonal_(self.pi.weight, 0.01)
            nn.init.zeros_(self.pi.bias)

        def forward(self, x: Any) -> tuple[Any, Any]:
            h = self.trunk(x)
            return self.pi(h), self.v(h).squeeze(-1)

    return Net()


def export(net: Any, path: Path | None, size: int, moves: int) -> dict[str, np.ndarray]:
    """The NumPy arrays of ``net``'s policy (written to ``path`` when given)."""
    linears = [net.trunk[0], net.trunk[2], net.pi]
    arrays: dict[str, np.ndarray] = {}
    for k, lin in enumerate(linears):
        arrays[f"w{k}"] = lin.weight.detach().numpy().T.astype(np.float32).copy()
        arrays[f"b{k}"] = lin.bias.detach().numpy().astype(np.float32).copy()
    meta = {"game": GAME, "preset": PRESET, "players": PLAYERS, "observation": size, "moves": moves}
    arrays["meta"] = np.array(json.dumps(meta))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    return arrays


def evaluate(net: Any, opponent: str, games: int, seed: int, num_envs: int = 256) -> dict[str, float]:
    """``games`` games of the NumPy network (the most probable move) against ``opponent``, half in each seat,
    on the deals of ``seed``: wins, mean margin."""
    from muggins.bots.learned import LearnedNet
    from muggins.rl.vector import vector_env

    amounts = PlayAmounts()
    wins = margin = done = 0.0
    for seat in range(PLAYERS):
        want = max(1, games // PLAYERS)
        n = min(num_envs, want)
        quota = np.full(n, want // n)  # each slot counts its first ``quota`` games: ``want`` in all
        quota[:want % n] += 1
        env = vector_env(GAME, PRESET, PLAYERS, num_envs=n, opponents=opponent, seed=seed + seat, seat=seat,
                         autoreset="same_step")
        obs, _ = env.reset()
        while quota.any():
            mask = obs["action_mask"]
            regular = mask[:, :net.moves] != 0
            move = np.where(regular.any(1), net.choose(obs["observation"], mask), env.let_go)
            act = np.stack([move, amounts(obs["observation"], move)], 1)
            obs, _, term, _, info = env.step(act)
            for i in np.flatnonzero(term & (quota > 0)):
                m = float(amounts.margin(info["final_obs"]["observation"][i:i + 1])[0])
                wins += m > 0
                margin += m
                done += 1
                quota[i] -= 1
        env.close()
    assert isinstance(net, LearnedNet)
    return {"games": done, "win_rate": wins / max(done, 1), "margin": margin / max(done, 1)}


def train(minutes: float = 15.0, updates: int = 10_000, seed: int = 0, opponent: str = "greedy",
          num_envs: int = 256, steps: int = 64, hidden: int = 64, lr: float = 3e-4, epochs: int = 4,
          minibatch: int = 4096, gamma: float = 0.99, lam: float = 0.95, clip: float = 0.2, ent: float = 0.01,
          wall_minutes: float | None = None, checkpoint: Path | None = None,
          log: Any = None) -> tuple[Any, dict[str, Any]]:
    """Run PPO (see the module docstring); returns the network and the training figures. ``wall_minutes``
    bounds the run by the clock too; ``checkpoint``: the weights are written there every 50 updates."""
    import torch

    from muggins.rl.vector import vector_env

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    amounts = PlayAmounts()
    c = compact_actions(GAME, PRESET, PLAYERS)
    moves = c.move_start("muggins")  # plays, draw, pass, knock
    half = num_envs // 2
    envs = [vector_env(GAME, PRESET, PLAYERS, num_envs=half, opponents=opponent, seed=seed * 2 + s, seat=s,
                       autoreset="same_step") for s in range(PLAYERS)]
    let_go = envs[0].let_go
    obs_parts = [e.reset()[0] for e in envs]
    obs = np.concatenate([o["observation"] for o in obs_parts])
    mask = np.concatenate([o["action_mask"] for o in obs_parts])
    size = obs.shape[1]
    net = _net(torch, size, moves, hidden)
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    N = 2 * half
    buf_obs = np.zeros((steps, N, size), np.float32)
    buf_mask = np.zeros((steps, N, moves), bool)
    buf_act = np.zeros((steps, N), np.int64)
    buf_logp = np.zeros((steps, N), np.float32)
    buf_val = np.zeros((steps + 1, N), np.float32)
    buf_rew = np.zeros((steps, N), np.float32)
    buf_done = np.zeros((steps, N), np.float32)
    buf_free = np.zeros((steps, N), bool)
    start = time.process_time()
    wall_end = time.monotonic() + 60 * wall_minutes if wall_minutes is not None else float("inf")
    games = wins = 0
    recent: list[float] = []
    update = 0
    while update < updates and time.process_time() - start < minutes * 60 and time.monotonic() < wall_end:
        for t in range(steps):
            regular = mask[:, :moves] != 0
            free = regular.any(1)
            with torch.no_grad():
                logits, value = net(torch.from_numpy(obs))
                logits = logits.masked_fill(torch.from_numpy(~regular), -1e9)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()  # type: ignore[no-untyped-call]
                logp = dist.log_prob(a)  # type: ignore[no-untyped-call]
            move = np.where(free, a.numpy(), let_go)
            buf_obs[t], buf_mask[t], buf_act[t] = obs, regular, a.numpy()
            buf_logp[t], buf_val[t], buf_free[t] = logp.numpy(), value.numpy(), free
            act = np.stack([move, amounts(obs, move)], 1)
            before = amounts.margin(obs)
            outs = [e.step(act[s * half:(s + 1) * half]) for s, e in enumerate(envs)]
            nobs = np.concatenate([o[0]["observation"] for o in outs])
            mask = np.concatenate([o[0]["action_mask"] for o in outs])
            term = np.concatenate([o[2] for o in outs])
            final = np.concatenate([o[4]["final_obs"]["observation"] for o in outs])
            after = np.where(term[:, None], final, nobs)
            end_margin = amounts.margin(after)
            rew = (end_margin - before) / 100.0 + np.where(term, np.where(end_margin > 0, 1.0, -1.0), 0.0)
            buf_rew[t], buf_done[t] = rew, term
            for i in np.flatnonzero(term):
                games += 1
                wins += bool(end_margin[i] > 0)
                recent.append(float(end_margin[i] > 0))
            obs = nobs
        with torch.no_grad():
            buf_val[steps] = net(torch.from_numpy(obs))[1].numpy()
        adv = np.zeros((steps, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in reversed(range(steps)):
            nonterm = 1.0 - buf_done[t]
            delta = buf_rew[t] + gamma * buf_val[t + 1] * nonterm - buf_val[t]
            last = delta + gamma * lam * nonterm * last
            adv[t] = last
        ret = adv + buf_val[:steps]
        b_obs = torch.from_numpy(buf_obs.reshape(-1, size))
        b_mask = torch.from_numpy(buf_mask.reshape(-1, moves))
        b_act = torch.from_numpy(buf_act.reshape(-1))
        b_logp = torch.from_numpy(buf_logp.reshape(-1))
        b_adv = torch.from_numpy(adv.reshape(-1))
        b_ret = torch.from_numpy(ret.reshape(-1))
        b_free = torch.from_numpy(buf_free.reshape(-1).astype(np.float32))
        total = steps * N
        for _ in range(epochs):
            order = torch.randperm(total, generator=gen)
            for lo in range(0, total, minibatch):
                idx = order[lo:lo + minibatch]
                logits, value = net(b_obs[idx])
                logits = logits.masked_fill(~b_mask[idx], -1e9)
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[idx])  # type: ignore[no-untyped-call]
                f = b_free[idx]
                nf = f.sum().clamp(min=1.0)
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                ratio = (logp - b_logp[idx]).exp()
                pg = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a)
                entropy = dist.entropy()  # type: ignore[no-untyped-call]
                loss = ((pg - ent * entropy) * f).sum() / nf + 0.5 * ((value - b_ret[idx]) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        update += 1
        recent = recent[-2000:]
        if checkpoint is not None and update % 50 == 0:
            export(net, checkpoint, size, moves)
        if log is not None and update % 10 == 0:
            log(f"update {update}: {games} games, last {len(recent)} won {np.mean(recent) if recent else 0:.3f}, "
                f"cpu {time.process_time() - start:.0f} s")
    for e in envs:
        e.close()
    figures = {"updates": update, "games": games, "steps": update * steps * N, "won": wins / max(games, 1),
               "cpu_seconds": round(time.process_time() - start, 1), "observation": size, "moves": moves}
    return net, figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m muggins.dominoes.train", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=15.0, help="CPU minutes of training at most (15)")
    p.add_argument("--wall-minutes", type=float, default=None, help="minutes by the clock at most (no bound)")
    p.add_argument("--updates", type=int, default=10_000, help="PPO updates at most (10000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="greedy", choices=("greedy", "random"))
    p.add_argument("--num-envs", type=int, default=256, help="games stepped together (256)")
    p.add_argument("--steps", type=int, default=64, help="steps of each game per update (64)")
    p.add_argument("--hidden", type=int, default=64, help="width of the two hidden layers (64)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--eval-games", type=int, default=2000, help="games against the opponent at the end (2000)")
    p.add_argument("--out", type=Path, default=None, help="where to write the weights (.npz)")
    a = p.parse_args(argv)
    net, figures = train(minutes=a.minutes, updates=a.updates, seed=a.seed, opponent=a.opponent,
                         num_envs=a.num_envs, steps=a.steps, hidden=a.hidden, lr=a.lr,
                         wall_minutes=a.wall_minutes, checkpoint=a.out,
                         log=lambda s: print(s, file=sys.stderr, flush=True))
    arrays = export(net, a.out, figures["observation"], figures["moves"])
    if a.eval_games > 0:
        from muggins.bots.learned import LearnedNet

        layers = tuple((arrays[f"w{k}"], arrays[f"b{k}"]) for k in range(3))
        np_net = LearnedNet(GAME, PRESET, PLAYERS, figures["observation"], figures["moves"], layers)
        figures["eval"] = evaluate(np_net, a.opponent, a.eval_games, seed=10**9)
    figures["parameters"] = int(sum(v.size for k, v in arrays.items() if k != "meta"))
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
