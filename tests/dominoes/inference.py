"""What a seat derives about the hidden pieces, checked against the truth, and the option families that
exercise every kind of inference (shared by the property tests and ``benchmarks/audit_sampling.py``).

The dominoes constraints are ``DominoState.sampling_frame(seat)``: per other seat, one forbidden-tile mask
per tile it holds unseen, and the tiles the seat has not seen. The truth satisfies them when every other
seat's true hand can be matched to its masks tile for tile and the unseen tiles are exactly the others'
hands and the boneyard."""

from __future__ import annotations

import random
from typing import Any

from muggins.core.protocol import GameState

#: dominoes option families: every way a seat learns something of a hidden hand (a pass or a knock with
#: the ends it could not match, a partner's knock, a draw, an extra turn kept or lost, the lead rules)
#: and what changes what may be drawn (the draw rules, a reserve, a voluntary draw), with the player
#: counts each is played by
DOMINO_FAMILIES: dict[str, tuple[str, dict[str, Any], tuple[int, ...]]] = {
    "knocking": ("muggins", {"partnerships": True, "knocking": True}, (4,)),
    "knocking-auto": ("muggins", {"partnerships": True, "knocking": True, "claims": "auto"}, (4,)),
    "knocking-spinner": ("all-fives", {"partnerships": True, "knocking": True}, (4,)),
    "knocking-five-up": ("five-up", {"partnerships": True, "knocking": True, "draw": "one_then_pass"}, (4,)),
    "knocking-both-out": ("muggins", {"partnerships": True, "knocking": True, "partnership_both_out": True,
                                      "boneyard_reserve": 1}, (4,)),
    "knocking-extra": ("muggins", {"partnerships": True, "knocking": True, "extra_turn": "double_or_scoring"},
                       (4,)),
    "partners": ("fives-and-threes", {"partnerships": True}, (4,)),
    "voluntary": ("muggins", {"voluntary_draw": True}, (2, 3, 4)),
    "one-then-pass": ("muggins", {"draw": "one_then_pass"}, (2, 3)),
    "max-n": ("sniff", {"draw": "max_n", "max_draws_per_turn": 2, "boneyard_reserve": 2}, (2, 4)),
    "reserve": ("muggins", {"boneyard_reserve": 1}, (3,)),
    "extra-draw": ("muggins", {"extra_turn": "double_or_scoring"}, (2, 3)),
    "extra-voluntary": ("muggins", {"extra_turn": "double_or_scoring", "voluntary_draw": True}, (2, 3)),
    "highest-double": ("muggins", {"first_lead": "highest_double"}, (2, 4)),
    "highest-double-forced": ("all-fives", {"first_lead": "highest_double_forced"}, (3,)),
    "lead-double": ("muggins", {"lead_must_be": "double"}, (2, 3)),
    "lead-scoring": ("muggins", {"lead_must_be": "double_or_scoring"}, (2,)),
    "double-nine": ("muggins", {"tile_set": 9}, (4,)),
    "double-twelve": ("all-fives", {"tile_set": 12, "partnerships": True, "knocking": True}, (4,)),
}


def frame_violation(state: Any, seat: int) -> str | None:
    """Why the true hidden tiles break what ``seat`` derives (``sampling_frame``), or None when they keep it."""
    masks, pool = state.sampling_frame(seat)
    hidden = sorted(t.index for s, hand in enumerate(state.hands) if s != seat for t in hand)
    hidden += [t.index for t in state.boneyard]
    if sorted(pool) != sorted(hidden):
        return f"seat {seat}'s unseen tiles are not the others' hands and the boneyard"
    for s, hand in enumerate(state.hands):
        if s == seat:
            continue
        if len(masks[s]) != len(hand):
            return f"seat {seat} counts {len(masks[s])} tiles in seat {s}'s hand, not {len(hand)}"
        if not _matches(masks[s], [t.index for t in hand]):
            shown = " ".join(t.text for t in hand)
            return f"seat {seat} rules out seat {s}'s true hand ({shown})"
    return None


def _matches(forbidden: list[int], tiles: list[int]) -> bool:
    """Whether every slot takes a distinct tile it allows (augmenting paths)."""
    owner = [-1] * len(tiles)

    def augment(i: int, seen: set[int]) -> bool:
        for j, t in enumerate(tiles):
            if j not in seen and not forbidden[i] >> t & 1:
                seen.add(j)
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(forbidden)))


def sample_violation(state: GameState, seat: int, rng: random.Random) -> str | None:
    """Why ``sample_hidden`` fails ``seat`` here (it raises, or its world looks different to the seat, or
    changes the seat's own pieces), or None."""
    try:
        sample = state.sample_hidden(seat, rng)
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    if sample.view(seat) != state.view(seat) or sample.events_for(seat) != state.events_for(seat):
        return "the sample looks different to the seat"
    own = f"hand {seat}"
    if sorted(sample.inventory().get(own, [])) != sorted(state.inventory().get(own, [])):
        return "the sample changed the seat's own hand"
    return None
