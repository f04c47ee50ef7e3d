"""Cribbage: the six-card game for two, three- and four-hand forms, five-card cribbage, with muggins."""

from __future__ import annotations

from muggins.cards.cribbage.game import CribbageState, stacked
from muggins.cards.cribbage.rules import DESCRIPTIONS, PRESETS, CribbageRules, check_players
from muggins.core.rules import GameCommand, GameSpec, register

SPEC = register(GameSpec(
    name="cribbage",
    title="Cribbage",
    state_type=CribbageState,
    presets=PRESETS,
    ranked=("cribbage", "cribbage-61", "three-hand", "four-hand", "cribbage-muggins"),
    default_preset="cribbage",
    min_players=2,
    max_players=4,
    check_players=check_players,
    descriptions=DESCRIPTIONS,
    terminal_renderer="muggins.tui.render_cards:CribbageRenderer",
    page_renderer="pegboard",
    observation="muggins.cards.cribbage.observation:CribbageEncoder",
    piece_noun=("card", "cards"),
    heuristics="muggins.bots.heuristics.cribbage",
    commands=(GameCommand("cribbage", "muggins.cards.cribbage.cli:cribbage_app",
                          "Cribbage tools: count a show hand with its explanation."),),
    benchmarks=("muggins.cards.cribbage.show:benchmark",),
    drills=("muggins.cards.cribbage.drills:ShowDrill",),
    native="muggins.cards.cribbage.fast:NativeCribbageState",
    vector="muggins.cards.cribbage.vector:CribbageVectorEnv",
))

__all__ = ["SPEC", "CribbageRules", "CribbageState", "stacked"]
