"""``muggins analyse`` as a user meets it (JSON, the per-seat tables, a PNG plot, bad input), and the
offer to analyse at the end of a game in the terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from muggins.cli.main import app
from muggins.core.rules import get_game
from muggins.tui.app import ANALYSE_PROMPT, Options, Session, make_seats

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SHORT = EXAMPLES / "muggins-hand-written-v2.json"  # B says nothing for his 10, A takes it


def _run(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, ["analyse", *args], env={"COLUMNS": "100"})
    return res.exit_code, res.stdout, res.stderr


def test_json_names_every_seat_and_the_steal() -> None:
    code, out, _ = _run(str(SHORT), "--json", "--samples", "3", "--seed", "4")
    assert code == 0, out
    data = json.loads(out)
    assert data["format"] == "muggins-analysis" and data["samples"] == 3 and data["seed"] == 4
    assert [s["name"] for s in data["seats"]] == ["A", "B"]
    assert [(s["seat"], s["kind"], s["points"]) for s in data["slips"]] == [(1, "mugged", 10)]
    assert data["seats"][1]["muggins"] == 10 and data["scores"] == [40, 0]
    assert data["race"][-1]["sides"] == [40, 0]


def test_the_same_seed_prints_the_same_json() -> None:
    a = _run(str(SHORT), "--json", "--samples", "2", "--seed", "9")[1]
    assert a == _run(str(SHORT), "--json", "--samples", "2", "--seed", "9")[1]


def test_tables_per_seat_and_the_moments() -> None:
    code, out, _ = _run(str(SHORT), "--samples", "2")
    assert code == 0, out
    assert "A (seat 0)" in out and "B (seat 1)" in out and "Turning moments" in out
    assert "A called muggins and took 10" in out


def test_plot_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "race.png"
    code, out, _ = _run(str(EXAMPLES / "muggins-greedy-2p.json"), "--samples", "1", "--plot", str(png))
    assert code == 0, out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 1000
    assert f"Plot written to {png}" in " ".join(out.split())


@pytest.mark.parametrize("content,args,message", [
    (None, (), "cannot read"),
    ("{not json", (), "is not valid JSON"),
    ("[1, 2]", (), "a record must be a JSON object"),
    (SHORT.read_text(encoding="utf-8").replace('"move": "0-0 on 5-0"', '"move": "6-6 on 5-0"'), (),
     "action 3: '6-6 on 5-0' by seat 0"),
    (None, ("--samples", "0"), "--samples is a number of worlds"),
    (None, ("--plot", "out.svg"), "give a file name ending in .png"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, content: str | None, args: tuple[str, ...],
                                          message: str) -> None:
    path = tmp_path / "rec.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = _run(str(path), *args)
    assert code == 2 and message in err, (out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _finished_session(answer: str, offer: bool) -> tuple[list[str], str]:
    """A short game (target 10) played to its end; the person answers ``answer`` when asked to analyse."""
    spec = get_game("dominoes")
    st = spec.new(spec.rules("muggins", {"target": 10}), 2, seed=5)
    out = io.StringIO()
    prompts: list[str] = []
    box: list[Session] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 300:
            raise EOFError
        if "Analyse" in prompt:
            return answer
        if "your move" in prompt:
            s = box[0]
            return f"1 {s.st.claim_for(0, s.moves(0)[0])}"
        return ""

    s = Session(st, make_seats(["you", "beginner"], 5), Console(file=out, width=100),
                Options(offer_analysis=offer), ask=ask)
    box.append(s)
    s.run()
    assert s.st.is_over()
    return prompts, out.getvalue()


def test_the_end_of_a_game_offers_the_analysis() -> None:
    prompts, out = _finished_session("y", offer=True)
    assert prompts[-1] == ANALYSE_PROMPT
    assert "You (seat 0)" in out and "decisions analysed" in out


def test_the_offer_declined_or_not_made() -> None:
    prompts, out = _finished_session("", offer=True)
    assert prompts[-1] == ANALYSE_PROMPT and "decisions analysed" not in out
    prompts, out = _finished_session("y", offer=False)
    assert not any(p.startswith("Analyse") for p in prompts) and "decisions analysed" not in out


def test_play_offers_the_analysis_only_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``muggins play`` asks only when both its input and its output are a terminal (a pipe: never)."""
    import muggins.cli.play_cmd as play_cmd

    made: list[Options] = []

    class Recorder:
        def __init__(self, st: object, seats: object, console: object, options: Options) -> None:
            made.append(options)

        def run(self) -> None:
            pass

    monkeypatch.setattr(play_cmd, "Session", Recorder)
    res = runner.invoke(app, ["play", "--seed", "3"], input="")
    assert res.exit_code == 0, res.output
    assert made and made[0].offer_analysis is False


    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Tty())
    assert play_cmd.at_terminal(Console(file=Tty(), force_terminal=True))
    assert not play_cmd.at_terminal(Console(file=io.StringIO()))
