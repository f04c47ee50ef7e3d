"""The integer numbering of count to 21's moves (docs/actions.md): one block, adding 1, 2 or 3 (each with its
claim codes in a manual-claim game); then muggins and claim in a manual-claim game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.core.action_ids import ActionSpace
from muggins.core.errors import UnknownAction, shown
from muggins.core.protocol import Action

if TYPE_CHECKING:
    from muggins.core.protocol import GameState

STEPS = (1, 2, 3)


class ToyActionSpace(ActionSpace):
    def __init__(self, rules: Any, num_players: int) -> None:
        super().__init__(rules, num_players, [("play", len(STEPS), True)])

    def base_of(self, state: GameState, action: Action, ctx: Any) -> tuple[str, int]:
        kind, subject, target, part, _ = action
        if kind == "play" and type(subject) is int and subject in STEPS and target is None and part is None:
            return "play", subject - 1
        raise UnknownAction(f"{shown(tuple(action[:4]))} is not a move of count to 21 (add 1, add 2, add 3, "
                            f"muggins, claim)")

    def action_of(self, state: GameState, kind: str, base: int) -> Action:
        return Action("play", STEPS[base]) if kind == "play" else Action(kind)  # muggins, claim: no subject


def numbering(rules: Any, num_players: int) -> ToyActionSpace:
    return ToyActionSpace(rules, num_players)
