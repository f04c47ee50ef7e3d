"""Train the ``learned`` bot's network for any registered game with :func:`muggins.rl.vector_env` and PPO.

    python -m muggins.rl.learn --game card-muggins --seed 0 --minutes 10 --wall-minutes 12 \
        --out src/muggins/bots/weights/card-muggins-muggins.npz

Needs PyTorch (``pip install 'muggins[learn]'``); playing the result needs only NumPy
(:mod:`muggins.bots.learned`). One seat learns against ``--opponent`` (a bot the batched environment plays:
in C for a game with a native batched environment, ``GameSpec.vector``; otherwise through its Python
backend, any bot of the registry), half the games in each seat, on one thread.

* **The move head** is learnt: a tanh multilayer perceptron from the observation to the logits of the
  game's regular moves (every block of the compact move head before the muggins call and the late claim),
  the illegal ones masked; a value head beside it (not shipped). When the learner may only call Muggins!,
  claim late or let the window go, it lets it go: the opponents announce their true points (perfect
  attention), so there is never anything to call.
* **The amount head is not learnt**: every move announces its true points, as the bot does in play through
  its perfect attention. On the Python backend they are read from each game's state
  (:func:`muggins.bots.base.with_true_claim`); a native environment is given a function of the observation
  (``Task(amounts=...)``, :class:`muggins.dominoes.train.PlayAmounts` for dominoes; card Muggins's environment
  offers its own, :class:`muggins.cards.muggins31.train.PlayAmounts`). A wrong amount costs
  the points to the opponent's Muggins! call, and nothing is gained by it.
* **Reward**: the change in the score margin (own minus the best other, read from the observation's
  scores) / ``points_scale`` (the rules' target when 0) at each decision, and +1 / -1 at the end of a game
  won / lost.
* **PPO** with generalised advantage estimation; the run stops after ``--updates`` updates or ``--minutes``
  of CPU or ``--wall-minutes`` by the clock, whichever comes first, then plays ``--eval-games`` games with
  the NumPy network (the most probable move) against the opponent on fixed seeds and writes the weights.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from muggins.core.rules import load_object
from muggins.rl.compact import compact_actions, resolve_game
from muggins.rl.observation import encoder_for

__all__ = ["Task", "evaluate", "export", "main", "train"]

#: (observation rows, chosen moves) -> the amount of each row's move
ObsAmounts = Callable[[np.ndarray, np.ndarray], np.ndarray]


class Task:
    """One game to learn: its batched environments, the learner's moves and amounts, the score margin."""

    def __init__(self, game: str, preset: str | None = None, players: int | None = None,
                 amounts: ObsAmounts | None = None, backend: str = "auto") -> None:
        spec, rules, n = resolve_game(game, preset, players, {})
        self.game, self.preset, self.players = spec.name, str(rules.preset), n
        self.compact = c = compact_actions(spec.name, self.preset, n)
        kinds = [b.kind for b in c.blocks]
        #: the regular moves (the learnt head): every block before the muggins call and the late claim
        self.moves = c.move_start("muggins") if "muggins" in kinds else c.moves
        enc = encoder_for(spec.name, rules, n)
        self.size = enc.size
        self.scores = enc.layout.slice_of("scores").start
        self.target = float(enc.target)
        self.native = backend != "python" and getattr(spec, "vector", None) is not None
        self.backend = "native" if self.native else "python"
        if self.native and amounts is None and c.amounts > 1:
            amounts = load_object(str(spec.vector)).play_amounts(self.preset, n)
        if self.native and amounts is None and c.amounts > 1:
            raise ValueError(f"{spec.title}'s native environment needs the amounts read from the observation")
        self._obs_amounts = amounts

    def envs(self, num_envs: int, opponent: str, seed: int) -> list[Any]:
        """One batched environment per seat (``num_envs`` games each) with the learner in that seat."""
        from muggins.rl.vector import vector_env

        return [vector_env(self.game, self.preset, self.players, num_envs=num_envs, opponents=opponent,
                           seed=seed * self.players + s, seat=s, autoreset="same_step", backend=self.backend)
                for s in range(self.players)]

    def amounts(self, env: Any, obs: np.ndarray, moves: np.ndarray) -> np.ndarray:
        """The amount of each row's move in ``env``: its true points (0 where it announces nothing)."""
        c = self.compact
        if c.amounts == 1:
            return np.zeros(len(moves), np.int64)
        if self._obs_amounts is not None:
            return self._obs_amounts(obs, moves)
        from muggins.bots.base import with_true_claim

        out = np.zeros(len(moves), np.int64)
        for i, m in enumerate(moves.tolist()):
            if m >= self.moves or len(c.amount_codes(m)) == 1:
                continue
            inner = env.envs[i].env
            state, seat = inner.game_state, inner.seat
            out[i] = c.pair_of(state, with_true_claim(state, seat, c.action(state, seat, m, 0)))[1]
        return out

    def margin(self, obs: np.ndarray) -> np.ndarray:
        """Own score minus the best other's, in points, of each row."""
        s, n = self.scores, self.players
        others = obs[:, s + 1:s + n].max(axis=1)
        out: np.ndarray = np.rint((obs[:, s] - others) * self.target)
        return out


def final_observations(info: dict[str, Any], obs: np.ndarray, term: np.ndarray) -> np.ndarray:
    """The observation each game's step ended on: the new one, or the last of a game that ended (same-step
    autoreset: a batched array from a native environment, one dict per game from the Python backend)."""
    final = info.get("final_obs")
    if final is None or not term.any():
        return obs
    if isinstance(final, dict):
        out: np.ndarray = np.where(term[:, None], final["observation"], obs)
        return out
    out = obs.copy()
    for i in np.flatnonzero(term):
        out[i] = final[i]["observation"]
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


def export(task: Task, net: Any, path: Path | None) -> dict[str, np.ndarray]:
    """The NumPy arrays of ``net``'s policy and its ``meta`` (written to ``path`` when given)."""
    linears = [net.trunk[0], net.trunk[2], net.pi]
    arrays: dict[str, np.ndarray] = {}
    for k, lin in enumerate(linears):
        arrays[f"w{k}"] = lin.weight.detach().numpy().T.astype(np.float32).copy()
        arrays[f"b{k}"] = lin.bias.detach().numpy().astype(np.float32).copy()
    meta = {"game": task.game, "preset": task.preset, "players": task.players, "observation": task.size,
            "moves": task.moves}
    arrays["meta"] = np.array(json.dumps(meta))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    return arrays


def load_policy(task: Task, net: Any, path: Path) -> None:
    """Set ``net``'s policy layers to those of the weights file ``path`` (made by :func:`export` for ``task``)."""
    import torch

    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        want = {"game": task.game, "preset": task.preset, "players": task.players, "observation": task.size,
                "moves": task.moves}
        if meta != want:
            raise ValueError(f"{path} holds weights for {meta}, not {want}")
        with torch.no_grad():
            for k, lin in enumerate([net.trunk[0], net.trunk[2], net.pi]):
                w = torch.from_numpy(data[f"w{k}"].T.copy())
                if tuple(w.shape) != tuple(lin.weight.shape):
                    raise ValueError(f"{path}: layer {k} is {tuple(w.shape)}, the network's {tuple(lin.weight.shape)}")
                lin.weight.copy_(w)
                lin.bias.copy_(torch.from_numpy(data[f"b{k}"].copy()))


def numpy_net(task: Task, arrays: dict[str, np.ndarray]) -> Any:
    """The :class:`~muggins.bots.learned.LearnedNet` of exported ``arrays``."""
    from muggins.bots.learned import LearnedNet

    layers = tuple((arrays[f"w{k}"], arrays[f"b{k}"]) for k in range(3))
    return LearnedNet(task.game, task.preset, task.players, task.size, task.moves, layers)


def _moves(task: Task, mask: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """The move of each row: the chosen regular move, or "let it go" (the head's last) where none is legal."""
    free = (mask[:, :task.moves] != 0).any(1)
    out: np.ndarray = np.where(free, chosen, mask.shape[1] - 1)
    return out


def evaluate(task: Task, net: Any, opponent: str, games: int, seed: int, num_envs: int = 256) -> dict[str, float]:
    """``games`` games of the NumPy network (the most probable move) against ``opponent``, half in each seat,
    on the deals of ``seed``: wins, mean margin."""
    from muggins.rl.vector import vector_env

    wins = margin = done = 0.0
    for seat in range(task.players):
        want = max(1, games // task.players)
        n = min(num_envs, want)
        quota = np.full(n, want // n)  # each slot counts its first ``quota`` games: ``want`` in all
        quota[:want % n] += 1
        env = vector_env(task.game, task.preset, task.players, num_envs=n, opponents=opponent, seed=seed + seat,
                         seat=seat, autoreset="same_step", backend=task.backend)
        obs, _ = env.reset()
        while quota.any():
            mask = obs["action_mask"]
            move = _moves(task, mask, net.choose(obs["observation"], mask))
            act = np.stack([move, task.amounts(env, obs["observation"], move)], 1)
            obs, _, term, _, info = env.step(act)
            final = final_observations(info, obs["observation"], term)
            for i in np.flatnonzero(term & (quota > 0)):
                m = float(task.margin(final[i:i + 1])[0])
                wins += m > 0
                margin += m
                done += 1
                quota[i] -= 1
        env.close()
    return {"games": done, "win_rate": wins / max(done, 1), "margin": margin / max(done, 1)}


def train(task: Task, minutes: float = 15.0, updates: int = 10_000, seed: int = 0, opponent: str = "greedy",
          num_envs: int = 256, steps: int = 64, hidden: int = 64, lr: float = 3e-4, epochs: int = 4,
          minibatch: int = 4096, gamma: float = 0.99, lam: float = 0.95, clip: float = 0.2, ent: float = 0.01,
          points_scale: float = 0.0, wall_minutes: float | None = None, checkpoint: Path | None = None,
          init: Path | None = None, log: Any = None) -> tuple[Any, dict[str, Any]]:
    """Run PPO (see the module docstring); returns the network and the training figures. ``wall_minutes``
    bounds the run by the clock too; ``checkpoint``: the weights are written there every 50 updates;
    ``init``: a weights file of this game to start the policy from (the value head starts afresh)."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    moves = task.moves
    scale = points_scale or task.target
    half = max(1, num_envs // task.players)
    envs = task.envs(half, opponent, seed)
    obs_parts = [e.reset()[0] for e in envs]
    obs = np.concatenate([o["observation"] for o in obs_parts])
    mask = np.concatenate([o["action_mask"] for o in obs_parts])
    size = task.size
    net = _net(torch, size, moves, hidden)
    if init is not None:
        load_policy(task, net, init)
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    N = task.players * half
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
            move = _moves(task, mask, a.numpy())
            buf_obs[t], buf_mask[t], buf_act[t] = obs, regular, a.numpy()
            buf_logp[t], buf_val[t], buf_free[t] = logp.numpy(), value.numpy(), free
            before = task.margin(obs)
            outs = []
            for s, e in enumerate(envs):
                part = slice(s * half, (s + 1) * half)
                act = np.stack([move[part], task.amounts(e, obs[part], move[part])], 1)
                outs.append(e.step(act))
            nobs = np.concatenate([o[0]["observation"] for o in outs])
            mask = np.concatenate([o[0]["action_mask"] for o in outs])
            term = np.concatenate([o[2] for o in outs])
            after = np.concatenate([final_observations(o[4], o[0]["observation"], o[2]) for o in outs])
            end_margin = task.margin(after)
            rew = (end_margin - before) / scale + np.where(term, np.where(end_margin > 0, 1.0, -1.0), 0.0)
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
            export(task, net, checkpoint)
        if log is not None and update % 10 == 0:
            log(f"update {update}: {games} games, last {len(recent)} won {np.mean(recent) if recent else 0:.3f}, "
                f"cpu {time.process_time() - start:.0f} s")
    for e in envs:
        e.close()
    figures = {"game": task.game, "preset": task.preset, "backend": task.backend, "updates": update,
               "games": games, "steps": update * steps * N, "won": wins / max(games, 1),
               "cpu_seconds": round(time.process_time() - start, 1), "observation": size, "moves": moves}
    return net, figures


def parser(prog: str, doc: str, game: str | None = None) -> argparse.ArgumentParser:
    """The training command's options (``game``: fixed by the command, no ``--game``)."""
    p = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    if game is None:
        p.add_argument("--game", required=True, help="a registered game (see 'muggins rules')")
        p.add_argument("--preset", default=None, help="its preset (the game's default)")
        p.add_argument("--players", type=int, default=2)
        p.add_argument("--backend", default="auto", choices=("auto", "python"),
                       help="the batched environment's backend (auto: native where the game has one)")
    p.add_argument("--minutes", type=float, default=15.0, help="CPU minutes of training at most (15)")
    p.add_argument("--wall-minutes", type=float, default=None, help="minutes by the clock at most (no bound)")
    p.add_argument("--updates", type=int, default=10_000, help="PPO updates at most (10000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opponent", default="greedy", help="the bot in the other seats (greedy)")
    p.add_argument("--num-envs", type=int, default=256, help="games stepped together (256)")
    p.add_argument("--steps", type=int, default=64, help="steps of each game per update (64)")
    p.add_argument("--hidden", type=int, default=64, help="width of the two hidden layers (64)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--points-scale", type=float, default=0.0,
                   help="points worth a reward of 1 at each decision (0: the rules' target)")
    p.add_argument("--minibatch", type=int, default=4096, help="rows per gradient step (4096)")
    p.add_argument("--eval-games", type=int, default=2000, help="games against the opponent at the end (2000)")
    p.add_argument("--out", type=Path, default=None, help="where to write the weights (.npz)")
    p.add_argument("--init", type=Path, default=None, help="weights (.npz) of this game to start the policy from")
    return p


def run(task: Task, a: argparse.Namespace) -> int:
    """Train, export and evaluate as the parsed options ``a`` say; prints the figures as JSON."""
    net, figures = train(task, minutes=a.minutes, updates=a.updates, seed=a.seed, opponent=a.opponent,
                         num_envs=a.num_envs, steps=a.steps, hidden=a.hidden, lr=a.lr, minibatch=a.minibatch,
                         points_scale=a.points_scale,
                         wall_minutes=a.wall_minutes, checkpoint=a.out, init=a.init,
                         log=lambda s: print(s, file=sys.stderr, flush=True))
    arrays = export(task, net, a.out)
    if a.eval_games > 0:
        figures["eval"] = evaluate(task, numpy_net(task, arrays), a.opponent, a.eval_games, seed=10**9)
    figures["parameters"] = int(sum(v.size for k, v in arrays.items() if k != "meta"))
    print(json.dumps(figures))
    return 0


def main(argv: list[str] | None = None) -> int:
    a = parser("python -m muggins.rl.learn", __doc__ or "").parse_args(argv)
    return run(Task(a.game, a.preset, a.players, backend=a.backend), a)


if __name__ == "__main__":
    raise SystemExit(main())
