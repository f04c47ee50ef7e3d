"""The command line as a user meets it: rules, replay, bench and a played hand through a pseudo-terminal."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pexpect
from typer.testing import CliRunner

from muggins.cli.main import app
from muggins.cli.rules_cmd import show_value
from muggins.core import get_game
from muggins.core.records import replay, save, to_record
from muggins.core.rules import options_of

runner = CliRunner()


def _played_record(preset: str = "muggins", players: int = 2, seed: int = 3) -> dict:
    spec = get_game("dominoes")
    st = spec.new(spec.rules(preset), players, seed=seed)
    rng = random.Random(seed)
    while not st.is_over():
        seat = min(st.waiting_for())
        a = rng.choice([x for x in st.legal_actions(seat) if x.kind not in ("muggins", "claim")])
        if st.rules.claims == "manual" and a.kind == "play":
            a = a.with_claim(st.claim_for(seat, a))
        st.apply(seat, a)
    return to_record(st)


def test_rules_json_maps_games_to_presets() -> None:
    res = runner.invoke(app, ["rules", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert "muggins" in data["dominoes"] and "five-up" in data["dominoes"]
    assert data["dominoes"]["five-up"]["spinner"] == "all_doubles"
    assert data["dominoes"]["fives-and-threes"]["exact_target"] is True


def test_rules_table_and_unknown_game() -> None:
    assert "spinner_count" in runner.invoke(app, ["rules", "--game", "dominoes"]).output
    bad = runner.invoke(app, ["rules", "--game", "chess"])
    assert bad.exit_code == 2


def test_rules_fit_80_columns_and_break_no_word() -> None:
    res = runner.invoke(app, ["rules"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "…" not in res.stdout
    words = {w for line in lines for w in line.replace("│", " ").split()}
    for name in ("dominoes", "cribbage", "card-muggins"):
        spec = get_game(name)
        base = options_of(spec.presets[spec.default_preset])
        for preset, rules in spec.presets.items():
            assert preset in words
            for key, value in options_of(rules).items():
                if key == "preset":
                    continue
                assert key in words  # every option is listed with its default value
                shown = show_value(value)
                if value != base[key]:  # and every difference is written whole, as key=value
                    assert f"{key}={shown}" in words or f"{key}={shown}," in words, (preset, key)
                else:
                    assert shown in words


def test_help_shows_flags_without_a_value_type() -> None:
    commands = [[], ["rules"], ["replay"], ["play"], ["bench"], ["serve"], ["tournament"], ["cribbage"],
                ["cribbage", "count"]]
    for args in commands:
        res = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "100"})
        assert res.exit_code == 0, (args, res.output)
        assert "--help" in res.stdout and "<bool>" not in res.stdout, args
    tournament = runner.invoke(app, ["tournament", "--help"], env={"COLUMNS": "100"}).stdout
    assert "<int>" in tournament  # options that take a value still say what kind
    flag = next(line for line in tournament.splitlines() if "--json" in line)
    assert flag.split("│")[1].split()[:2] == ["--json", "Print"]


def _named_record(tmp_path: Path, players: list[dict]) -> Path:
    rec = _played_record()
    rec["players"] = players
    path = tmp_path / "named.json"
    save(rec, path)
    return path


def test_replay_step_names_the_players(tmp_path: Path) -> None:
    path = _named_record(tmp_path, [{"name": "North"}, {"kind": "bot"}])
    actions = len(json.loads(path.read_text())["actions"])
    res = runner.invoke(app, ["replay", str(path), "--step", "--ascii"], input="\n" * actions,
                        env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert f"action {actions} of {actions}" in res.stdout and "End of the record." in res.stdout
    assert "North" in res.stdout and "Seat 2" in res.stdout  # a seat without a name counts from 1
    assert re.findall(r"(?i)\bseat \d+", res.stdout) and \
        set(re.findall(r"(?i)\bseat \d+", res.stdout)) == {"Seat 2"}
    assert re.search(r"^(North|Seat 2) (played|drew|scored)", res.stdout, re.MULTILINE)


def test_replay_table_names_the_players(tmp_path: Path) -> None:
    path = _named_record(tmp_path, [{"name": "North"}, {"name": "[red]South"}])
    res = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    state = replay(json.loads(path.read_text()))
    scores = state.scores()
    assert f"Final scores: North {scores[0]}, [red]South {scores[1]}" in res.stdout  # names are not markup
    winners = " and ".join(["North", "[red]South"][w] for w in sorted(state.winners()))
    assert f"Game over, won by {winners}" in res.stdout
    assert "seat" not in res.stdout.lower()


def test_replay_json_reports_scores_and_events(tmp_path: Path) -> None:
    rec = _played_record()
    path = tmp_path / "g.json"
    save(rec, path)
    res = runner.invoke(app, ["replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["scores"] == rec["result"]["scores"]
    per_side = [0, 0]
    for e in out["events"]:
        per_side[e["side"]] += e["points"]
    assert per_side == out["side_scores"]


def test_replay_bad_record_names_the_action(tmp_path: Path) -> None:
    rec = _played_record()
    rec["actions"][5]["move"] = "6-6 on 0-0 end"
    path = tmp_path / "bad.json"
    save(rec, path)
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 2
    assert "action 5" in res.output


def test_replay_not_json(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{nope")
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 2 and "not valid JSON" in res.output


def test_bench_json_has_rates() -> None:
    res = runner.invoke(app, ["bench", "--seconds", "0.2", "--runs", "2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["moves_per_second"] > 0 and out["games_per_second"] > 0


def test_bench_rejects_unknown_preset() -> None:
    res = runner.invoke(app, ["bench", "--preset", "nope", "--seconds", "0.1", "--runs", "1"])
    assert res.exit_code == 2


def test_play_finishes_a_hand_in_a_terminal(tmp_path: Path) -> None:
    """A person plays the first listed move each turn (announcing nothing) until the first hand ends."""
    save_to = tmp_path / "played.json"
    child = pexpect.spawn(sys.executable, ["-m", "muggins", "play", "--seed", "5", "--hands", "1",
                                           "--save", str(save_to)],
                          encoding="utf-8", timeout=30, dimensions=(24, 80))
    moves = 0
    seen = ""
    for _ in range(500):  # a hand is far shorter; a loop that does not end is a failure
        i = child.expect([r"your move> ", r"to call Muggins!, Enter to go on> ", pexpect.EOF])
        seen += child.before or ""
        if i == 2:
            break
        child.sendline("1" if i == 0 else "")
        moves += i == 0
    else:
        raise AssertionError("the hand did not end")
    assert "Not allowed" not in seen
    assert moves > 0
    rec = json.loads(save_to.read_text())
    assert any(e.kind == "hand_end" for e in replay(rec).log)
    assert re.search(r"Hand 1 ends", seen)


def test_replay_step_goes_forward_and_back(tmp_path: Path) -> None:
    path = _named_record(tmp_path, [{"name": "North"}, {"kind": "bot"}])
    actions = len(json.loads(path.read_text())["actions"])
    res = runner.invoke(app, ["replay", str(path), "--step", "--ascii"], input="\nn\nb\np\nb\nzz\n\nq\n",
                        env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    seen = [int(x) for x in re.findall(rf"action (\d+) of {actions}", res.stdout)]
    assert seen == [0, 1, 2, 1, 0, 0, 0, 1]  # b at the start stays there; an unknown key redraws
    assert "This is the start of the record." in res.stdout and "b: the one before" in res.stdout
    assert "Enter or n: next action, b: back, q: quit> " in res.stdout
    # the table drawn going back is the table drawn going forward
    frames = res.stdout.split(f"action 1 of {actions}")
    assert frames[1].split("Enter or n")[0] == frames[2].split("Enter or n")[0]
