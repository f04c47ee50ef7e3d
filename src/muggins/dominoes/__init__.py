"""Fives-family dominoes: Muggins, All Fives, Sniff, Five Up, All Threes, Fives and Threes, Odd Primes,
Block Muggins, Seven-Toed Pete, Seven Rocks and Merry-Go-Round, on double-6 to double-15 sets."""

from __future__ import annotations

from muggins.core.errors import RulesError
from muggins.core.rules import GameSpec, register
from muggins.dominoes.rules import DESCRIPTIONS, PRESETS, DominoRules
from muggins.dominoes.state import DominoState
from muggins.dominoes.tiles import Tile, full_set, parse_tile


def _check_players(rules: DominoRules, n: int) -> None:
    """Refuse a number of players the rules cannot be played by, naming the numbers that can."""
    if rules.partnerships and n != 4:
        raise RulesError(f"the {rules.preset} rules are played in partnerships, two against two: they are for "
                         f"4 players, not {n}; with partnerships=false each plays for himself")
    if rules.tile_set == 6 and n > 4:
        raise RulesError("a double-6 set is for 2-4 players; use tile_set 9 or larger for more")
    each = rules.tiles_each(n)
    tiles = (rules.tile_set + 1) * (rules.tile_set + 2) // 2
    if each * n > tiles:
        raise RulesError(f"{n} players with {each} tiles each need more than a double-{rules.tile_set} set")


SPEC = register(GameSpec(
    name="dominoes",
    title="Fives-family dominoes",
    state_type=DominoState,
    presets=PRESETS,
    ranked=("muggins", "muggins-spinner", "all-fives", "sniff", "five-up", "all-threes", "fives-and-threes"),
    default_preset="muggins",
    min_players=2,
    max_players=6,
    check_players=_check_players,
    descriptions=DESCRIPTIONS,
    terminal_renderer="muggins.tui.render_dominoes:DominoRenderer",
    page_renderer="domino-layout",
    observation="muggins.dominoes.observation:DominoEncoder",
    vector="muggins.dominoes.vector:DominoVectorEnv",
    piece_noun=("tile", "tiles"),
    heuristics="muggins.bots.heuristics.dominoes",
    move_hint="a tile alone when it fits in one place",
    default=True,
    drills=("muggins.dominoes.drills:CountDrill",),
    native="muggins.dominoes.fast:NativeDominoState",
))

__all__ = ["SPEC", "DominoRules", "DominoState", "Tile", "full_set", "parse_tile"]
