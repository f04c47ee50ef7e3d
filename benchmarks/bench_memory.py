"""Bytes per game state: the Python state (everything reachable from it that belongs to it) and the native
engine's (one C struct), at the deal and after ``--moves`` random moves.

What a Python state holds is measured by walking its objects once each (``sys.getsizeof``) and leaving out
what every state shares: classes, modules, functions, the rules object, interned strings, small ints and
the tiles and cards, which are one set of objects per process. A clone costs about this much. Games are
played to 1000 points so that they last the moves.

    python benchmarks/bench_memory.py [--moves 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import types
from typing import Any

from muggins._accel import build_status, load_native
from muggins.bots.base import with_true_claim
from muggins.core.rules import get_game
from muggins.perf import native_engine

SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def deep_size(root: Any, shared: set[int]) -> int:
    """Bytes of the objects reachable from ``root`` that are not in ``shared`` (ids) nor shared by nature."""
    seen: set[int] = set(shared)
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, SHARED) or obj is None or isinstance(obj, bool):
            continue
        if isinstance(obj, str) and sys.intern(obj) is obj:
            continue
        if isinstance(obj, int) and -5 <= obj <= 256:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        else:
            d = getattr(obj, "__dict__", None)
            if d is not None:
                stack.append(d)
            for cls in type(obj).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(obj, name):
                        stack.append(getattr(obj, name))
            # a compiled state keeps its fields in C slots: its module's field table names them all
            fields = getattr(sys.modules.get(type(obj).__module__), "_FIELDS", None)
            if fields and hasattr(obj, "history"):
                total += 8 * len(fields)  # the slots themselves (one pointer or number each)
                for name in fields:
                    if hasattr(obj, name):
                        stack.append(getattr(obj, name))
    return total


def shared_ids(state: Any) -> set[int]:
    """The objects every state of the game shares: its rules, and the pieces of the set."""
    out = {id(state.rules), id(state.chance)}
    for pieces in state.inventory().values():
        for p in pieces:
            out.add(id(p))
    for name in ("_all_tiles", "_table"):
        if hasattr(state, name):
            out.add(id(getattr(state, name)))
            out.update(id(x) for x in getattr(state, name))
    return out


def measure(game: str, moves: int, seed: int) -> dict[str, Any]:
    spec = get_game(game)
    state = spec.new(spec.rules(None, {"target": 1000}), 2, seed=seed)  # a long game: it lasts the moves
    rng = random.Random(seed)
    name = native_engine(game)
    mod = load_native(name)[0] if name else None

    def both(label: str) -> dict[str, Any]:
        row: dict[str, Any] = {"moves": len(state.history), "python_bytes": deep_size(state, shared_ids(state))}
        if mod is not None and mod.unsupported(state.rules, state.num_players) is None:
            row["native_bytes"] = sys.getsizeof(mod.from_state(state))
        return {label: row}

    out = both("at_the_deal")
    made = 0
    while made < moves and not state.is_over():
        seat = min(state.waiting_for())
        acts = [a for a in state.legal_actions(seat) if a.kind not in ("muggins", "claim")]
        a = rng.choice(acts)
        state.apply(seat, with_true_claim(state, seat, a))
        made += 1
    out.update(both(f"after_{made}_moves"))
    return {"game": game, "preset": spec.default_preset, **out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    res = {"build": build_status()["mode"],
           "games": [measure(g, args.moves, args.seed) for g in ("dominoes", "cribbage")]}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
