"""Our search bot against OpenSpiel's IS-MCTS at the same time per move, through the OpenSpiel game.

2-player dominoes, preset ``muggins``, duplicate deals: every deal is played twice, seats swapped, with
the same chance outcomes (the n-th outcome of each kind is the same permutation of the pieces in both
games, whatever the play). Both bots get ``--seconds`` per move: our ``search`` bot by its time limit,
OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``, random-rollout evaluator, returns
``win``) by a deadline on its simulations. The C++ ``pyspiel.ISMCTSBot`` cannot play a Python game: it
resamples states with ``ResampleFromInfostate``, which OpenSpiel does not pass on to a Python state.

Reports our points per hand minus IS-MCTS's (mean over deals, 95% interval), our win rate (Wilson 95%),
moves and simulations per move; and, apart, uniform-random full games per second of OpenSpiel's own C++
``cribbage`` against our cribbage through the Python game.

    python benchmarks/bench_openspiel.py [--deals 12] [--seconds 0.1] [--seed 2026]
        [--random-seconds 10] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from muggins.bots.base import HAND_START_KINDS
from muggins.bots.registry import make_bot
from muggins.rl.openspiel import EngineBot, MugginsState, game_name, register_all
from muggins.sim.stats import wilson

GAME, PRESET = "dominoes", "muggins"


class TimedISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS with a time budget per move instead of a number of simulations."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        super().__init__(game, evaluator, 2.0, 1, random_state=np.random.RandomState(seed))
        self.seconds = seconds
        self.simulations = 0
        self.searches = 0

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done < 2 or time.perf_counter() < deadline:  # the first one only expands the root
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations += done
        self.searches += 1
        return self.get_final_policy(state, self._root_node)


def duplicate_chance(state: MugginsState, seed: int) -> int:
    """The chance action of a duplicate deal: the option that comes first in a permutation drawn from
    (seed, kind of outcome, how many of that kind came before), so both games of a deal see the same
    deals and draws even when their play differs."""
    kind, count, _ = state.chance_key()
    order = list(range(state.get_game().max_chance_outcomes()))
    random.Random(f"{seed}:{kind}:{count}").shuffle(order)
    rank = {a: i for i, a in enumerate(order)}
    return min((a for a, _ in state.chance_outcomes()), key=rank.__getitem__)


def play(game: Any, ours_seat: int, seconds: float, seed: int) -> dict[str, Any]:
    """One game: our search bot at ``ours_seat``, IS-MCTS at the other."""
    ours = EngineBot(make_bot(f"search:iterations=1000000:time={seconds}", seed=seed), ours_seat, seed)
    theirs = TimedISMCTS(game, seconds, seed)
    bots = {ours_seat: ours, 1 - ours_seat: theirs}
    s = game.new_initial_state()
    moves = [0, 0]
    spent = [0.0, 0.0]
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(duplicate_chance(s, seed))
            continue
        p = s.current_player()
        t0 = time.perf_counter()
        a = bots[p].step(s)
        spent[p] += time.perf_counter() - t0
        moves[p] += 1
        s.apply_action(a)
    eng = s.engine
    hands = max(1, sum(1 for e in eng.log if e.kind in HAND_START_KINDS))
    scores = eng.scores()
    return {"seed": seed, "ours_seat": ours_seat, "scores": scores, "hands": hands,
            "winners": sorted(eng.winners()), "finished": eng.is_over(),
            "margin_per_hand": (scores[ours_seat] - scores[1 - ours_seat]) / hands,
            "seconds_per_move": {"search": spent[ours_seat] / max(1, moves[ours_seat]),
                                 "ismcts": spent[1 - ours_seat] / max(1, moves[1 - ours_seat])},
            "ismcts_simulations_per_search": theirs.simulations / max(1, theirs.searches)}


def random_games_per_second(game: Any, seconds: float, seed: int) -> dict[str, float]:
    """Uniform-random full games (chance by its probabilities) for about ``seconds``."""
    rng = random.Random(seed)
    games = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or games == 0:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            actions += 1
        games += 1
    dt = time.perf_counter() - t0
    return {"games": games, "games_per_second": games / dt, "actions_per_game": actions / games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=12, help="deals, each played twice with seats swapped")
    ap.add_argument("--seconds", type=float, default=0.1, help="time per move of both bots")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--random-seconds", type=float, default=10.0, help="time for each random-games figure")
    ap.add_argument("--json", help="write the figures to this file too")
    args = ap.parse_args()
    register_all()
    params: dict[str, Any] = {"preset": PRESET, "players": 2, "returns": "win"}
    game = pyspiel.load_game(game_name(GAME), params)
    t0 = time.perf_counter()
    games: list[dict[str, Any]] = []
    for d in range(args.deals):
        seed = args.seed * 1000 + d
        for seat in (0, 1):
            games.append(play(game, seat, args.seconds, seed))
        print(f"deal {d + 1}/{args.deals}: " + ", ".join(
            f"{g['margin_per_hand']:+.1f}" for g in games[-2:]), file=sys.stderr, flush=True)
    per_deal = [(games[2 * i]["margin_per_hand"] + games[2 * i + 1]["margin_per_hand"]) / 2
                for i in range(args.deals)]
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else None
    wins = sum(1 for g in games if g["winners"] == [g["ours_seat"]])
    draws = sum(1 for g in games if len(g["winners"]) != 1)
    lo, hi = wilson(wins + 0.5 * draws, len(games))
    crib = "cribbage"
    out = {
        "game": GAME, "preset": PRESET, "players": 2, "deals": args.deals, "games": len(games),
        "seconds_per_move": args.seconds,
        "search_minus_ismcts_points_per_hand": {
            "mean": mean, "ci95": None if half is None else [mean - half, mean + half]},
        "search_win_rate": {"rate": (wins + 0.5 * draws) / len(games), "ci95": [lo, hi], "wins": wins,
                            "draws": draws},
        "measured_seconds_per_move": {
            k: statistics.fmean(g["seconds_per_move"][k] for g in games) for k in ("search", "ismcts")},
        "ismcts_simulations_per_search": statistics.fmean(g["ismcts_simulations_per_search"] for g in games),
        "hands_per_game": statistics.fmean(g["hands"] for g in games),
        "wall_seconds": time.perf_counter() - t0,
        "random_games": {
            "openspiel_cpp_" + crib: random_games_per_second(pyspiel.load_game(crib), args.random_seconds, 1),
            "ours_" + crib + "_through_python_game": random_games_per_second(
                pyspiel.load_game(game_name(crib)), args.random_seconds, 1),
        },
        "per_game": games,
    }
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
