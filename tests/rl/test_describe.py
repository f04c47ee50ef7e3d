"""``python -m muggins.rl.describe``: its tables follow the encoders, and docs/rl.md holds exactly its
output for the built-in games (the tables there are generated, never edited by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from muggins.core.rules import all_games, get_game
from muggins.rl.describe import game_table, main, markdown
from muggins.rl.observation import encoder_for
from tests.toy import NAME as TOY

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BEGIN = "<!-- begin: python -m muggins.rl.describe -->"
END = "<!-- end: python -m muggins.rl.describe -->"


def built_in() -> list[str]:
    return [g for g in all_games() if g != TOY]


def test_the_doc_holds_the_generated_tables() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    generated = text.split(BEGIN)[1].split(END)[0].strip("\n") + "\n"
    assert generated == markdown(built_in()), "regenerate: python -m muggins.rl.describe"


def test_a_table_lists_every_field_of_the_encoder() -> None:
    for game in all_games():  # the toy game too: the generic encoder
        spec = get_game(game)
        rules = spec.rules()
        n = 2 if 2 in spec.players_for(rules) else spec.players_for(rules)[0]
        enc = encoder_for(game, rules, n)
        table = game_table(game)
        rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|$", table, re.M)
        assert [(r[0], int(r[1]), int(r[2])) for r in rows] == \
            [(f["name"], f["start"], f["length"]) for f in enc.describe()]
        assert f"Observation: {enc.size} numbers." in table and f"`{rules.preset}`" in table


def test_the_command_prints_the_games_named(capsys: pytest.CaptureFixture[str]) -> None:
    game = built_in()[0]
    main([game])
    assert capsys.readouterr().out == markdown([game])
    with pytest.raises(SystemExit):
        main(["no-such-game"])
    assert "unknown game" in capsys.readouterr().err
