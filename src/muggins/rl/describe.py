"""The observation layout of every registered game as markdown tables: ``python -m muggins.rl.describe``.

For each game (or those named), its default preset with ``--players`` players (2 by default; the fewest
the preset allows when it does not allow that many): the vector's size, the number of action ids, and one
row per field of :meth:`~muggins.rl.observation.BaseEncoder.describe`. ``docs/rl.md`` holds this output
and a test keeps the two equal, so the tables there are never written by hand.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence

from muggins.core.errors import RulesError
from muggins.core.rules import all_games, get_game
from muggins.rl.observation import encoder_for

__all__ = ["game_table", "markdown"]


def game_table(game: str, players: int = 2) -> str:
    """One game's heading and table (markdown), for its default preset."""
    spec = get_game(game)
    rules = spec.rules()
    allowed = spec.players_for(rules)
    n = players if players in allowed else allowed[0]
    enc = encoder_for(spec.name, rules, n)
    ids = spec.new(rules, n, seed=0).num_distinct_actions()
    lines = [f"#### {spec.title} (`{spec.name}`, preset `{rules.preset}`, {n} players)", "",
             f"Observation: {enc.size} numbers. Actions: {ids + 1} ids, the game's 0 to {ids - 1} "
             f"and {ids}, let it go.", "",
             "| Field | Start | Length |", "|---|---:|---:|"]
    lines += [f"| `{f['name']}` | {f['start']} | {f['length']} |" for f in enc.describe()]
    return "\n".join(lines)


def markdown(games: Iterable[str] | None = None, players: int = 2) -> str:
    """The tables of ``games`` (every registered game by default), in registry order, blank-line apart."""
    names = list(all_games()) if games is None else list(games)
    return "\n\n".join(game_table(g, players) for g in names) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m muggins.rl.describe", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="registered game names (all by default)")
    ap.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    args = ap.parse_args(argv)
    try:
        text = markdown(args.games or None, args.players)
    except RulesError as e:
        ap.error(str(e))
    print(text, end="")


if __name__ == "__main__":
    main()
