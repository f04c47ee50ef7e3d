"""The integer numbering of card Muggins moves (docs/actions.md, "Card Muggins").

Blocks: play (the 52 cards in pack order, A♣ A♦ A♥ A♠ 2♣ ... K♠, each with its claim codes in a
manual-claim game), go; then muggins and claim in a manual-claim game. No id depends on the position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.cards.deck import Card, full_deck
from muggins.core.action_ids import ActionSpace
from muggins.core.errors import UnknownAction, shown
from muggins.core.protocol import Action

if TYPE_CHECKING:
    from muggins.cards.muggins31.rules import CardMugginsRules
    from muggins.core.protocol import GameState

DECK = tuple(full_deck())


class CardMugginsActionSpace(ActionSpace):
    def __init__(self, rules: CardMugginsRules, num_players: int) -> None:
        super().__init__(rules, num_players, [("play", len(DECK), True), ("go", 1, False)])

    def base_of(self, state: GameState, action: Action, ctx: Any) -> tuple[str, int]:
        kind, subject, target, part, _ = action
        if kind == "play" and subject.__class__ is Card and target is None and part is None:
            return "play", subject.index
        if kind == "go" and subject is None and target is None and part is None:
            return "go", 0
        raise UnknownAction(f"{shown(tuple(action[:4]))} is not a card Muggins move (play <card>, go, muggins, "
                            f"claim)")

    def action_of(self, state: GameState, kind: str, base: int) -> Action:
        return Action("play", DECK[base]) if kind == "play" else Action(kind)


def numbering(rules: CardMugginsRules, num_players: int) -> CardMugginsActionSpace:
    return CardMugginsActionSpace(rules, num_players)
