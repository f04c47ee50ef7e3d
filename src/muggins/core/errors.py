"""Exceptions a user of the engine can meet. Every refusal names its reason."""

from __future__ import annotations


class MugginsError(Exception):
    """Base class of every error raised by the engine."""


class IllegalAction(MugginsError):
    """An action that the rules do not allow now. The state is left unchanged."""


class NotYourTurn(IllegalAction):
    """The seat may not act now."""


class NoSuchSeat(NotYourTurn):
    """The seat is not a seat of this game: not a plain whole number from 0 to players - 1."""


class UnknownAction(IllegalAction):
    """The action text (or object) cannot be understood for this game."""


class ClaimError(IllegalAction):
    """A claim or a muggins call made outside its window or by the wrong seat."""


class BadAmount(ClaimError):
    """An announced, claimed or named amount that is not a plain whole number of points from 0 to the most
    one scoring step of the game can make."""


class GameOver(IllegalAction):
    """The game has ended; no further action is accepted."""


class RulesError(MugginsError, ValueError):
    """An unknown preset, an unknown option or an invalid option value."""


class RecordError(MugginsError, ValueError):
    """A game record that is malformed or does not replay. ``index`` names the failing action."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message if index is None else f"action {index}: {message}")


def shown(value: object, limit: int = 40) -> str:
    """``value`` as an error message may quote it: its repr, cut to ``limit`` characters, and a huge number
    described by its size (its digits could fill a screen, and Python refuses to print very long ones)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is still named by its type
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit - 1] + "…"
