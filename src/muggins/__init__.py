"""muggins: the Muggins family of games (Fives dominoes, card Muggins, Cribbage) with the muggins rule."""

from muggins import _accel

_accel.install()

__version__ = "0.1.0"
