"""The short interactive menu of ``muggins play --menu``: game, preset, players, bot level, hints.
Every question has a default (Enter) and re-asks on an answer it cannot use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console

from muggins.bots.registry import LEVELS
from muggins.core.errors import RulesError
from muggins.core.rules import all_games, default_game, get_game
from muggins.tui.app import check_names
from muggins.tui.renderer import renderer_for


@dataclass
class Choice:
    game: str
    preset: str
    players: int
    seats: list[str]
    hints: bool
    names: list[str] | None = None  # the people's names, when there are several


def _pick(console: Console, ask: Callable[[str], str], title: str, items: list[str], default: int = 0) -> str:
    console.print(title, highlight=False)
    for i, item in enumerate(items, 1):
        console.print(f"  {i}) {item}", highlight=False)
    while True:
        text = ask(f"choose 1-{len(items)} [{default + 1}]> ").strip()
        if not text:
            return items[default]
        if text.isdigit() and 1 <= int(text) <= len(items):
            return items[int(text) - 1]
        if text in items:
            return text
        console.print(f"Please type a number from 1 to {len(items)}.", highlight=False)


def run_menu(console: Console, ask: Callable[[str], str] | None = None) -> Choice:
    """Ask the questions; EOFError propagates (the caller stops quietly)."""
    read = ask or (lambda p: console.input(p))
    games = list(all_games())
    game = _pick(console, read, "Game:", games, games.index(default_game().name))
    spec = get_game(game)
    presets = list(spec.presets)
    preset = _pick(console, read, "Preset:", presets, presets.index(spec.default_preset)
                   if spec.default_preset in presets else 0)
    sizes = [str(n) for n in range(spec.min_players, spec.max_players + 1)]
    rules = spec.rules(preset)
    fixed = getattr(rules, "players", None)
    if isinstance(fixed, int) and fixed > 0:
        sizes = [str(fixed)]
    players = int(_pick(console, read, "Players:", sizes))
    levels = list(LEVELS)
    level = _pick(console, read, "Bot level:", levels, levels.index("casual"))
    people = _pick(console, read, "People at this keyboard:", [str(n) for n in range(1, players + 1)])
    hints = _pick(console, read, f"Hints ({renderer_for(game).hint_words})?", ["no", "yes"]) == "yes"
    seats = ["you"] + ["human"] * (int(people) - 1) + [level] * (players - int(people))
    names: list[str] | None = None
    if int(people) > 1:
        names = []
        for k in range(int(people)):
            while True:
                name = " ".join(read(f"Name of the person at seat {k + 1} [Player {k + 1}]> ").split())
                name = name or f"Player {k + 1}"
                try:
                    check_names([*names, name], len(names) + 1)
                except RulesError as e:
                    console.print(str(e), highlight=False)
                    continue
                names.append(name)
                break
    return Choice(game, preset, players, seats, hints, names)
