"""The game protocol, shared by every game and every consumer."""

from muggins.core.chance import Chance
from muggins.core.errors import (
    ClaimError,
    GameOver,
    IllegalAction,
    MugginsError,
    NotYourTurn,
    RecordError,
    RulesError,
    UnknownAction,
)
from muggins.core.protocol import Action, Event, GameState
from muggins.core.rules import GameSpec, all_games, get_game, options_of, with_options

__all__ = [
    "Action", "Chance", "ClaimError", "Event", "GameOver", "GameSpec", "GameState", "IllegalAction",
    "MugginsError", "NotYourTurn", "RecordError", "RulesError", "UnknownAction", "all_games", "get_game",
    "options_of", "with_options",
]
