"""``muggins play`` options: the number of players checked before the seats are built, and --resume that
keeps the record's game and takes the display flags given now."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from muggins.cli.main import app
from muggins.core.rules import get_game
from muggins.tui.app import Options, Session, make_seats

runner = CliRunner()


def _saved(tmp_path: Path, game: str = "dominoes", preset: str = "muggins") -> Path:
    path = tmp_path / "g.json"
    spec = get_game(game)
    st = spec.new(spec.rules(preset), 2, seed=4)
    answers = iter(["1", "1", "q", "y"])
    s = Session(st, make_seats(["you", "beginner"], 4), Console(file=io.StringIO(), width=80),
                Options(save_to=path), ask=lambda prompt: next(answers, "") if "move" in prompt or "Stop" in prompt
                else "")
    s.run()
    assert path.exists()
    return path


def _play(*args: str, given: str = "") -> tuple[int, str]:
    res = runner.invoke(app, ["play", *args], input=given, env={"COLUMNS": "80"})
    return res.exit_code, " ".join(res.output.split())


@pytest.mark.parametrize("args,message", [
    (["--players", "0"], "dominoes / muggins is for 2-4 players; got 0"),
    (["--players", "1"], "is for 2-4 players; got 1"),
    (["--game", "cribbage", "--preset", "four-hand", "--players", "2"], "cribbage / four-hand is for 4 players"),
    (["--seats", "you,casual", "--players", "3"], "--players 3 but --seats names 2 seats"),
    (["--game", "cribbage", "--preset", "four-hand", "--seats", "you,casual"], "is for 4 players; got 2 seats"),
    (["--hands", "-1"], "--hands is a number of hands"),
])
def test_player_counts_are_checked_before_the_seats(args: list[str], message: str) -> None:
    code, out = _play(*args)
    assert code == 2 and message in out, out
    if args == ["--players", "0"]:
        assert "got 1" not in out  # the count typed, not the seats built from it


def test_a_preset_for_four_starts_with_four_seats() -> None:
    code, out = _play("--game", "cribbage", "--preset", "four-hand", "--seed", "3", "--ascii", given="q\ny\n")
    assert code == 0, out
    assert "Casual Fox" in out and "Game stopped." in out


def test_resume_refuses_another_game_or_preset(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    code, out = _play("--resume", str(path), "--game", "card-muggins")
    assert code == 2 and "is a game of dominoes, not card-muggins" in out
    code, out = _play("--resume", str(path), "--preset", "five-up")
    assert code == 2 and "muggins preset, not five-up" in out
    code, out = _play("--resume", str(path), "--seats", "you,expert")
    assert code == 2 and "--seats cannot be used with --resume" in out
    code, out = _play("--resume", str(path), "--game", "dominoes", "--preset", "muggins", "--ascii", given="q\ny\n")
    assert code == 0 and "Game stopped." in out  # the record's own game and preset may be named


def test_resume_takes_the_display_flags_given_now(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    code, plain = _play("--resume", str(path), given="q\ny\n")
    assert code == 0 and "Count:" not in plain and "│" in plain
    code, hinted = _play("--resume", str(path), "--hints", "--ascii", given="q\ny\n")
    assert code == 0 and "Count:" in hinted and "│" not in hinted and "[" in hinted
    saved_to = tmp_path / "again.json"
    code, out = _play("--resume", str(path), "--save", str(saved_to), given="q\ny\n")
    assert code == 0 and saved_to.exists() and "Game saved to" in out


def test_play_help_lists_flags_without_a_value_type() -> None:
    res = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "100"})
    assert res.exit_code == 0 and "<bool>" not in res.output
    assert "--hints" in res.output and "--resume" in res.output


def test_resume_without_save_goes_on_saving_to_the_resumed_file(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    before = len(json.loads(path.read_text())["actions"])
    code, out = _play("--resume", str(path), "--ascii", given="1\nq\ny\n")
    assert code == 0 and "Game stopped." in out, out
    assert f"the game is saved to {path} when it stops" in out and f"Game saved to {path}" in out
    assert f"Stop the game (it will be saved to {path})?" in out
    assert len(json.loads(path.read_text())["actions"]) > before  # the move played now is in the file


def test_the_stop_prompt_says_the_game_is_not_saved_without_save() -> None:
    code, out = _play("--seed", "4", "--ascii", given="q\ny\n")
    assert code == 0 and "Stop the game (it is not saved: start with --save FILE to keep it)?" in out
    assert "it is saved to" not in out and "Game saved" not in out


def test_people_at_one_keyboard_named_on_the_command_line() -> None:
    code, out = _play("--seats", "you,human,casual", "--names", "Ann,Bob", "--seed", "2", "--ascii",
                      given="1\n\n1\nq\ny\n")
    assert code == 0 and "Ann 0" in out and "Casual Otter" in out, out
    assert "Pass the keyboard to Bob" in out and "Bob, your move" in out
    code, out = _play("--seats", "you,human", "--names", "Ann", "--ascii")
    assert code == 2 and "1 name(s) for 2 person(s)" in out
    res = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "100"})
    assert "--names" in res.output
