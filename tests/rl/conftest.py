"""The learning adapters go over every registered game, count to 21 (``tests.toy``) included: it is in the
registry while these tests are collected and while each runs, and reaches the environments through the
registry and the generic encoder alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from muggins.core.rules import all_games, get_game
from tests.toy import collect_with_toy, toy_registered

HERE = Path(__file__).resolve().parent
pytest_make_collect_report = collect_with_toy(HERE)


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with toy_registered():
        yield


def cases() -> list[tuple[str, str, int | None]]:
    """(game, preset, players) for every registered game and preset at its default number of players,
    and 3 and 4 players for one preset of each game that allows them."""
    out: list[tuple[str, str, int | None]] = []
    with toy_registered():
        for name, spec in all_games().items():
            out += [(name, preset, None) for preset in spec.presets]
            first = next(iter(spec.presets))
            allowed = spec.players_for(spec.presets[first])
            out += [(name, first, n) for n in (3, 4) if n in allowed]
    return out


def players_of(game: str, preset: str, players: int | None) -> int:
    """``players``, or the number the environments choose for the preset: the game's default if the preset
    allows it, else the fewest it allows."""
    if players is not None:
        return players
    spec = get_game(game)
    allowed = spec.players_for(spec.rules(preset))
    return spec.default_players if spec.default_players in allowed else allowed[0]


def case_id(case: tuple[str, str, int | None]) -> str:
    game, preset, players = case
    return f"{game}:{preset}" + (f":{players}p" if players else "")
