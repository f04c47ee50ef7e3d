"""Reinforcement-learning adapters: what a learning library needs of a game, as numpy arrays.

:mod:`muggins.rl.observation` encodes a seat's view as a flat float32 vector (each game registers its own
encoder in its :class:`~muggins.core.rules.GameSpec`; a game that registers none gets the generic one).
The environments of PettingZoo, Gymnasium and OpenSpiel are built on it and need their extras installed
(``pip install muggins[rl]``, ``muggins[openspiel]``)."""
