"""Audit of ``sample_hidden``: plays scripted games of every preset and option family and, at each
position and for each seat, checks that the true hidden pieces keep every constraint the seat derives
(dominoes: ``DominoState.sampling_frame``) and that ``sample_hidden`` gives a world the seat cannot tell
from the true one. Prints the failing positions (case, seed, actions played, seat, why) and the totals.

    python benchmarks/audit_sampling.py [--games 20] [--seed 0] [--only knocking] [--save DIR]

Moves: a seat the game waits for (now and then another, for muggins calls), then half the time the
greedy move, else a random one; in manual claim mode true, short, over or no claims. ``--save`` writes
each failing position's game record (``muggins.core.records``; ``meta`` says the case, seed, seat and
why) to DIR.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conformance.cases import all_cases, choose, sorted_legal, with_amount
from tests.dominoes.inference import DOMINO_FAMILIES, frame_violation, sample_violation

from muggins.bots.policies import GreedyPolicy
from muggins.core.protocol import GameState
from muggins.core.records import save, to_record
from muggins.core.rules import GameSpec, all_games, with_options


def cases() -> Iterator[tuple[str, GameSpec, Any, int]]:
    """(name, spec, rules, players): every game x preset x claim mode x player count, then the dominoes
    option families."""
    games = all_games()
    for c in all_cases():
        yield c.id, c.spec, c.rules, c.players
    spec = games["dominoes"]
    for name, (preset, options, counts) in DOMINO_FAMILIES.items():
        rules = with_options(spec.presets[preset], options)
        for n in counts:
            yield f"dominoes/{name}/{n}p", spec, rules, n


def step(state: GameState, rng: random.Random, greedy: GreedyPolicy) -> tuple[int, Any]:
    seat, action = choose(state, rng)
    if action.kind not in ("muggins", "claim") and rng.random() < 0.5:
        legal = [a for a in sorted_legal(state, seat) if a.kind not in ("muggins", "claim")]
        if legal:
            action = with_amount(state, seat, greedy.choose(state, seat, legal, rng), rng)
    return seat, action


def audit(spec: GameSpec, rules: Any, players: int, seed: int) -> Iterator[tuple[GameState, int, str | None]]:
    """Every seat at every position of one game: (position, seat, why it fails or None)."""
    rng = random.Random(seed)
    greedy = GreedyPolicy()
    state = spec.new(rules, players, seed=seed)
    while True:
        for seat in range(players):
            pick = random.Random(rng.random())
            why = frame_violation(state, seat) if state.game == "dominoes" and not state.is_over() else None
            yield state, seat, why or sample_violation(state, seat, pick)
        if state.is_over():
            return
        state.apply(*step(state, rng, greedy))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20, help="games per case")
    p.add_argument("--seed", type=int, default=0, help="the first game's seed")
    p.add_argument("--only", default="", help="only cases whose name contains this")
    p.add_argument("--save", type=Path, help="write each failing position's record here")
    args = p.parse_args()
    t0 = time.monotonic()
    checked = failed = 0
    for name, spec, rules, n in cases():
        if args.only not in name:
            continue
        c_checked = c_failed = 0
        for seed in range(args.seed, args.seed + args.games):
            last = None
            for state, seat, why in audit(spec, rules, n, seed):
                c_checked += 1
                if why is None:
                    continue
                c_failed += 1
                if last != len(state.history):
                    last = len(state.history)
                    print(f"FAIL {name} seed={seed} after={last} seat={seat}: {why}", flush=True)
                    if args.save:
                        args.save.mkdir(parents=True, exist_ok=True)
                        out = args.save / f"{name.replace('/', '_')}_{seed}_{last}.json"
                        save(to_record(state, meta={"case": name, "seed": seed, "seat": seat, "why": why}), out)
        checked += c_checked
        failed += c_failed
        print(f"{name}: {c_checked} seat-positions, {c_failed} failures", flush=True)
    print(f"total: {checked} seat-positions checked, {failed} failures, {time.monotonic() - t0:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
