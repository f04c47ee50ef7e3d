"""Perft: the number of legal action sequences to a fixed depth, from fixed positions of every case.

At each node every seat in ``to_act()`` tries each of its legal actions on a clone (chance follows the
state's seeded generator, which a clone copies). A regular move is sent as listed with no claim ("says
nothing", which leaves muggable points behind), a late claim names what is owed. The counts are written
in ``golden_counts.json`` and change only when a rule does: a refactoring that keeps the rules keeps them.

Regenerate after a deliberate rule change (or for a newly registered game) with
``MUGGINS_UPDATE_GOLDEN=1 python -m pytest tests/conformance/test_golden.py -m ''`` or
``python -m tests.conformance.test_golden`` (every case). The mid-game positions come from the scripted
player of ``cases.py``: a change to it moves them, and the file is regenerated with it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.cases import Case, all_cases, params, positions, sorted_legal

GOLDEN = Path(__file__).with_name("golden_counts.json")
UPDATE = os.environ.get("MUGGINS_UPDATE_GOLDEN", "").strip().lower() in ("1", "true", "yes")
#: The positions counted from: (seed, actions the scripted player makes first).
STARTS = ((1, 0), (2, 12), (3, 40))
MAX_DEPTH = 5
MIN_DEPTH = 2
NODE_CAP = 8000  # the deepest depth whose tree stays under this many nodes is used


def children(state: Any) -> list[Any]:
    """Every position one action away, in a fixed order."""
    out = []
    for seat in sorted(state.to_act()):
        for action in sorted_legal(state, seat):
            if action.kind == "claim":
                action = action.with_claim(state.claim_for(seat, action))
            elif action.kind != "muggins":
                action = action.with_claim(None)
            child = state.clone()
            child.apply(seat, action)
            out.append(child)
    return out


def perft(state: Any, depth: int) -> list[int]:
    """[sequences of length 1, of length 2, ..., of length ``depth``]."""
    counts = [0] * depth
    level = [state]
    for d in range(depth):
        level = [c for s in level for c in children(s)]
        counts[d] = len(level)
    return counts


def perft_capped(state: Any) -> list[int]:
    """The counts to the deepest depth (MIN_DEPTH..MAX_DEPTH) whose last level stays under NODE_CAP."""
    counts: list[int] = []
    level = [state]
    for _ in range(MAX_DEPTH):
        if len(counts) >= MIN_DEPTH:
            branching = counts[-1] / max(1, counts[-2])
            if counts[-1] * branching > NODE_CAP:
                break
        level = [c for s in level for c in children(s)]
        counts.append(len(level))
    return counts


def start_position(case: Case, seed: int, steps: int) -> Any:
    """The scripted game's position after ``steps`` actions (or its last position before the end)."""
    last = None
    for k, state in enumerate(positions(case, seed)):
        if state.is_over():
            break
        last = state.clone()
        if k >= steps:
            break
    assert last is not None
    return last


def measure(case: Case) -> list[dict[str, Any]]:
    out = []
    for seed, steps in STARTS:
        state = start_position(case, seed, steps)
        out.append({"seed": seed, "steps": steps, "history": len(state.history), "counts": perft_capped(state)})
    return out


def load() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}


def write(data: dict[str, Any]) -> None:
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(data.items())]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


@pytest.mark.parametrize("case", params())
def test_perft_counts_match_the_golden_file(case: Case) -> None:
    if UPDATE:
        data = load()
        data[case.id] = measure(case)
        write(data)
        return
    golden = load().get(case.id)
    assert golden is not None, (f"{case.id} has no golden counts: run this test with MUGGINS_UPDATE_GOLDEN=1 "
                                f"(python -m tests.conformance.test_golden) and commit golden_counts.json")
    for entry in golden:
        state = start_position(case, entry["seed"], entry["steps"])
        assert len(state.history) == entry["history"], f"the scripted game from seed {entry['seed']} differs"
        assert perft(state, len(entry["counts"])) == entry["counts"], f"seed {entry['seed']}"


def test_golden_file_covers_exactly_the_registered_cases() -> None:
    if UPDATE:
        return
    assert set(load()) == {c.id for c in all_cases()}


if __name__ == "__main__":
    write({c.id: measure(c) for c in all_cases()})
