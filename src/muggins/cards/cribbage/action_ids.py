"""The integer numbering of cribbage moves (docs/actions.md, "Cribbage").

Blocks: discard (every set of ``discard_each`` cards: the 1326 pairs of the pack for two players, the 52
single cards for three or four), play (the 52 cards), go, count (hand, crib); then muggins and claim in a
manual-claim game. Play, go and count carry claim codes in a manual-claim game. No id depends on the
position.

A discard of the cards with pack indices c1 < c2 < ... < ck (A♣ = 0, A♦ = 1, ..., K♠ = 51) is numbered
by the combinatorial number system: C(c1, 1) + C(c2, 2) + ... + C(ck, k) (so {A♣, A♦} is 0, {A♣, A♥} is 1,
{A♦, A♥} is 2, {A♣, A♠} is 3, ...).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Any

from muggins.cards.deck import Card, full_deck
from muggins.core.action_ids import ActionSpace
from muggins.core.errors import UnknownAction, shown
from muggins.core.protocol import Action

if TYPE_CHECKING:
    from muggins.cards.cribbage.rules import CribbageRules
    from muggins.core.protocol import GameState

DECK = tuple(full_deck())
_WHAT = ("hand", "crib")


def rank_of(indices: list[int]) -> int:
    """The rank of a set of distinct pack indices (sorted) in the combinatorial number system."""
    return sum(comb(c, j + 1) for j, c in enumerate(indices))


def unrank(rank: int, k: int) -> list[int]:
    """The sorted pack indices of the ``k``-card set of rank ``rank``."""
    out = []
    for j in range(k, 0, -1):
        c = j - 1
        while comb(c + 1, j) <= rank:
            c += 1
        out.append(c)
        rank -= comb(c, j)
    return out[::-1]


class CribbageActionSpace(ActionSpace):
    def __init__(self, rules: CribbageRules, num_players: int) -> None:
        self.k = rules.discard_each
        super().__init__(rules, num_players, [("discard", comb(len(DECK), self.k), False), ("play", len(DECK), True),
                                              ("go", 1, True), ("count", 2, True)])

    def base_of(self, state: GameState, action: Action, ctx: Any) -> tuple[str, int]:
        kind, subject, target, part, _ = action
        if target is None and part is None:
            if kind == "play" and subject.__class__ is Card:
                return "play", subject.index
            if kind == "go" and subject is None:
                return "go", 0
            if kind == "count":
                if subject is None and getattr(state, "phase", None) == "show":  # apply reads it as the next count
                    subject = state._show_order[state._show_i][1]  # type: ignore[attr-defined]
                if subject in _WHAT:
                    return "count", _WHAT.index(subject)
            if kind == "discard":
                cards = (subject,) if subject.__class__ is Card else subject
                if isinstance(cards, (tuple, list)) and len(cards) == self.k \
                        and all(c.__class__ is Card for c in cards) and len(set(cards)) == self.k:
                    return "discard", rank_of(sorted(c.index for c in cards))
                raise UnknownAction(f"a discard names {self.k} different card(s); got {shown(subject)}")
        raise UnknownAction(f"{shown(tuple(action[:4]))} is not a cribbage move (discard, play <card>, go, "
                            f"count hand, count crib, muggins, claim)")

    def action_of(self, state: GameState, kind: str, base: int) -> Action:
        if kind == "discard":
            return Action("discard", tuple(DECK[c] for c in unrank(base, self.k)))
        if kind == "play":
            return Action("play", DECK[base])
        if kind == "count":
            return Action("count", _WHAT[base])
        return Action(kind)


def numbering(rules: CribbageRules, num_players: int) -> CribbageActionSpace:
    return CribbageActionSpace(rules, num_players)
