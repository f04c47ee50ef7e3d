"""Helpers that build positions by writing the chance outcomes a record would hold."""

from __future__ import annotations

import random
from typing import Any

from muggins.core import Chance, get_game
from muggins.dominoes import DominoState, full_set, parse_tile
from muggins.dominoes.fast import NativeDominoState

DOMINO_STATES = (DominoState, NativeDominoState)  # what spec.new gives: the native state where it is built


def domino_state(preset: str = "muggins", hands: list[list[str]] | None = None,
                 boneyard: list[str] | None = None, leader: int = 0, **options: Any) -> DominoState:
    """A domino game whose first hand deals ``hands`` (and ``boneyard`` in draw order) with ``leader``
    leading. Hands must be the same size; that size becomes ``hand_size``. Tiles not named are put at
    the end of the boneyard unless ``boneyard`` is given explicitly. Always the pure reference state (a
    boneyard given may leave tiles out of the deal, which only the pure engine plays)."""
    spec = get_game("dominoes")
    rules = spec.rules(preset, options) if options else spec.rules(preset)
    assert hands is not None
    size = len(hands[0])
    assert all(len(h) == size for h in hands), "hands of equal size"
    if rules.hand_size != size:
        from muggins.core import with_options

        rules = with_options(rules, {"hand_size": size})
    top = rules.tile_set
    named = [parse_tile(t, top).text for h in hands for t in h]
    if boneyard is None:
        boneyard = [t.text for t in full_set(top) if t.text not in named]
    else:
        boneyard = [parse_tile(t, top).text for t in boneyard]
    n = len(hands)
    outcomes: list[dict[str, Any]] = []
    if rules.first_lead in ("lot_heaviest", "lot_lightest", "must_set_double"):
        order = [t.text for t in sorted(full_set(top), key=lambda t: (t.pips, t.hi))]
        if rules.first_lead != "lot_lightest":
            order = order[::-1]
        lot = [order[1 + i] for i in range(n)]
        lot[leader] = order[0]
        for i in range(n):
            if i != leader:
                lot[i] = order[1 + i]
        outcomes.append({"kind": "lot", "seats": list(range(n)), "tiles": lot})
    outcomes.append({"kind": "deal", "hands": [[parse_tile(t, top).text for t in h] for h in hands],
                     "boneyard": boneyard})
    return DominoState.new(rules, n, Chance(outcomes=outcomes, seed=12345))  # the reference engine's rules


def play(st: DominoState, *moves: str, claim: bool = True) -> list[int]:
    """Play ``moves`` in turn order (each by the seat to act), claiming the true points in manual mode.
    Returns the points each move scored."""
    scored = []
    for m in moves:
        seat = st.turn
        a = st.parse_action(m, seat)
        pts = st.claim_for(seat, a)
        if claim and st.rules.claims == "manual" and a.kind == "play":
            a = a.with_claim(pts)
        st.apply(seat, a)
        scored.append(pts)
    return scored


def scores_logged(st: DominoState, start: int = 0) -> list[tuple[int, int, str]]:
    """(side, points, reason) of every score event from log index ``start``."""
    return [(e.data["side"], e.data["points"], e.data["reason"]) for e in st.log[start:] if e.kind == "score"]


def events_of(st: DominoState, kind: str, start: int = 0) -> list[dict[str, Any]]:
    """The unredacted data of every ``kind`` event from log index ``start`` (with its seat)."""
    return [e.to_dict() for e in st.log[start:] if e.kind == kind]


def count_of(st: DominoState) -> int:
    """The count of the layout (the sum the scoring function reads)."""
    return int(st.count)


def moves(st: DominoState, seat: int | None = None) -> list[str]:
    """Text of the regular legal actions of ``seat`` (default: the seat whose turn it is), leaving out
    the muggins calls and late claims that an open window allows."""
    s = st.turn if seat is None else seat
    return [st.format_action(a) for a in st.legal_actions(s) if a.kind not in ("muggins", "claim")]


def boneyard_starting(hands: list[list[str]], first: list[str], top: int = 6) -> list[str]:
    """The undealt tiles in draw order: ``first`` on top, then every other tile not in ``hands``."""
    taken = {parse_tile(t, top).text for h in hands for t in h}
    head = [parse_tile(t, top).text for t in first]
    return head + [t.text for t in full_set(top) if t.text not in taken and t.text not in head]


def state_from_chance(preset: str, players: int, outcomes: list[dict[str, Any]], seed: int = 7,
                      **options: Any) -> DominoState:
    """A domino game whose first chance outcomes (lots, deals) are exactly ``outcomes``."""
    spec = get_game("dominoes")
    rules = spec.rules(preset, options) if options else spec.rules(preset)
    st = DominoState.new(rules, players, Chance(outcomes=outcomes, seed=seed))  # the reference engine's rules
    return st


def play_randomly(st: DominoState, rng: random.Random, max_actions: int = 5000,
                  until_hand_ends: bool = False) -> int:
    """Play random regular moves (claiming the true points) until the game ends, ``max_actions`` are
    made, or (``until_hand_ends``) the current hand is over. Returns the number of actions made."""
    hand = st.hand_no
    made = 0
    while not st.is_over() and made < max_actions and not (until_hand_ends and st.hand_no != hand):
        seat = st.turn
        acts = [a for a in st.legal_actions(seat) if a.kind not in ("muggins", "claim")]
        a = rng.choice(acts)
        if a.kind == "play" and st.rules.claims == "manual":
            a = a.with_claim(st.claim_for(seat, a))
        st.apply(seat, a)
        made += 1
    return made
