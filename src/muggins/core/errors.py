"""Exceptions a user of the engine can meet. Every refusal names its reason."""

from __future__ import annotations


class MugginsError(Exception):
    """Base class of every error raised by the engine."""


class IllegalAction(MugginsError):
    """An action that the rules do not allow now. The state is left unchanged."""


class NotYourTurn(IllegalAction):
    """The seat may not act now."""


class UnknownAction(IllegalAction):
    """The action text cannot be parsed for this game."""


class ClaimError(IllegalAction):
    """A claim or a muggins call made outside its window or by the wrong seat."""


class GameOver(IllegalAction):
    """The game has ended; no further action is accepted."""


class RulesError(MugginsError, ValueError):
    """An unknown preset, an unknown option or an invalid option value."""


class RecordError(MugginsError, ValueError):
    """A game record that is malformed or does not replay. ``index`` names the failing action."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message if index is None else f"action {index}: {message}")
