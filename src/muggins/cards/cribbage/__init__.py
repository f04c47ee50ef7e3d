"""Cribbage: the six-card game for two, three- and four-hand forms, five-card cribbage, with muggins."""
