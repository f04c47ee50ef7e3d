"""muggins: the Muggins family of games (Fives dominoes, card Muggins, Cribbage) with the muggins rule."""

__version__ = "0.1.0"
