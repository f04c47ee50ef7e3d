"""Card Muggins: the 31-capped adding game with the muggins rule (RULES.md §4). Importing this package
registers the game ``card-muggins`` with its presets."""

from __future__ import annotations

from muggins.cards.muggins31.rules import DESCRIPTIONS, PRESETS, CardMugginsRules
from muggins.cards.muggins31.state import CardMugginsState
from muggins.core.errors import RulesError
from muggins.core.rules import GameSpec, register


def _check_players(rules: CardMugginsRules, n: int) -> None:
    if rules.hand_size * n > 52:
        raise RulesError(f"{n} hands of {rules.hand_size} cards need more than one pack")


SPEC = register(GameSpec(
    name="card-muggins",
    title="Card Muggins (31)",
    state_type=CardMugginsState,
    presets=PRESETS,
    ranked=("muggins", "deal-seven", "strict-21"),
    default_preset="muggins",
    min_players=2,
    max_players=4,
    check_players=_check_players,
    descriptions=DESCRIPTIONS,
    terminal_renderer="muggins.tui.render_cards:CardMugginsRenderer",
    page_renderer="card-pile",
    observation="muggins.cards.muggins31.observation:CardMugginsEncoder",
    piece_noun=("card", "cards"),
    heuristics="muggins.bots.heuristics.card_muggins",
    drills=("muggins.cards.muggins31.drills:PeggingDrill",),
    native="muggins.cards.muggins31.fast:NativeCardMugginsState",
    vector="muggins.cards.muggins31.vector:CardMugginsVectorEnv",
))

__all__ = ["SPEC", "CardMugginsRules", "CardMugginsState"]
