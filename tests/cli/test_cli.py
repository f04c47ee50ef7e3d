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
from muggins.core import get_game
from muggins.core.records import replay, save, to_record

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
