"""Every interface plays every game: the bots at each offered level finish a game, a small tournament runs,
a record goes to disk and back, the terminal table plays a whole game typed at a pseudo-terminal, and the
server plays a whole game against its bots. One case per game by default, every case under ``-m slow``."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from muggins.bots.registry import bot_names, make_bot
from muggins.core.errors import RulesError
from muggins.core.records import load, replay, save, to_record
from muggins.core.rules import get_game
from muggins.sim.driver import play_game
from muggins.sim.tournament import Config, run_tournament
from tests.conformance.cases import Case, all_cases, choose, one_per_game, params, play
from tests.conformance.test_records import assert_same_game

SEED = 53
QUICK = one_per_game()
#: The search budget of a search bot here: enough to exercise it, little enough to finish a game quickly.
SEARCH_BUDGET = ":iterations=8:time=0.02"


def bot(name: str, seed: int) -> Any:
    searching = name in ("search", "expert")
    return make_bot(name + (SEARCH_BUDGET if searching else ""), seed=seed)


@pytest.mark.parametrize("level", bot_names(offered_only=True))
@pytest.mark.parametrize("case", params(sample=QUICK))
def test_every_offered_bot_finishes_a_game(case: Case, level: str) -> None:
    """All seats but the first are the bot; the first is a bot of the lowest level (the scripted player
    cannot sit in the bots' driver: it is checked against the bots in the server test)."""
    bots = [bot("random", SEED)] + [bot(level, SEED + s) for s in range(1, case.players)]
    refuses = getattr(bots[-1].policy, "refuses", None)  # a bot trained for one game only
    why = refuses(case.new(SEED)) if refuses is not None else None
    if why is not None:  # it says so by name, and at its first move, rather than playing badly
        assert f"bot {level!r}" in why, why
        with pytest.raises(RulesError, match=f"bot {level!r}"):
            play_game(case.spec, case.rules, case.players, bots, SEED)
        return
    result = play_game(case.spec, case.rules, case.players, bots, SEED)
    assert result.finished and result.winners, result
    assert len(result.side_scores) == len({case.new(SEED).side_of(s) for s in range(case.players)})


@pytest.mark.parametrize("case", params(sample=QUICK))
def test_a_small_tournament_runs(case: Case) -> None:
    config = Config(case.game, case.preset, case.players, ("random", "greedy"), games=2, seed=SEED,
                    options=(("claims", case.claims),))
    summary, results = run_tournament(config)
    assert len(results) == 2 and all(r.finished and r.winners for r in results)
    assert json.loads(json.dumps(summary)) == summary


@pytest.mark.parametrize("case", params(sample=QUICK))
def test_records_go_to_disk_and_back(case: Case, tmp_path: Path) -> None:
    state = case.new(SEED)
    play(state, random.Random(SEED))
    path = tmp_path / "game.json"
    save(to_record(state, meta={"case": case.id}), path)
    assert_same_game(replay(load(path)), state, "a record saved and loaded")


# ---------------------------------------------------------------------------------- the terminal ----
def games_env(case: Case) -> dict[str, str]:
    """What a child process needs to find the game of ``case``: a game registered at run time (not one of
    the built-in packages) is named in MUGGINS_GAMES, with the project root on the path."""
    module = get_game(case.game).state_type.__module__.rsplit(".", 1)[0]
    if module.startswith("muggins."):
        return {}
    root = str(Path(__file__).resolve().parents[2])
    return {"MUGGINS_GAMES": module, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}


def terminal_game(case: Case, seed: int, tmp_path: Path) -> None:
    """Every seat is a person at one keyboard; the script types the text of one of the scripted player's
    moves (``format_action``, then the points it announces) at each move prompt, following the game on its
    own copy of the engine, and presses Enter at every other prompt (it never calls Muggins! there and
    never makes a late claim). The record the terminal saves at the end is that same game."""
    pexpect = pytest.importorskip("pexpect")
    saved = tmp_path / "terminal.json"
    seats = ",".join(["you"] + ["human"] * (case.players - 1))
    args = ["-m", "muggins", "play", "--ascii", "--game", case.game, "--preset", case.preset, "--seats", seats,
            "--seed", str(seed), "--option", f"claims={case.claims}", "--save", str(saved)]
    child = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=30, dimensions=(40, 120),
                          env={**os.environ, "NO_COLOR": "1", **games_env(case)})
    child.delaybeforesend = None  # the script answers at once (pexpect waits 50 ms a line otherwise)
    mirror = case.new(seed)
    rng = random.Random(seed)
    move_prompt = r"Player (\d+), your move> "
    other_prompt = r"Enter[^\n>]*> "  # every other prompt says what Enter does
    analyse_prompt = r"Analyse this game\? \[y/N\] "  # the offer at the end of a game played at a terminal
    offered = False
    try:
        for _ in range(20_000):
            i = child.expect([move_prompt, other_prompt, analyse_prompt, pexpect.EOF])
            if i == 3:
                break
            if i == 2:
                assert mirror.is_over(), "the analysis was offered before the end of the game"
                offered = True
                child.sendline("n")
                continue
            if i == 1:
                child.sendline("")
                continue
            seat = int(child.match.group(1)) - 1
            assert seat in mirror.waiting_for(), f"the terminal asks seat {seat}; the engine waits for another"
            assert "Not allowed" not in (child.before or ""), f"the terminal refused a legal move: {child.before}"
            for _ in range(1000):  # the scripted player's move for this seat (the terminal asks one at a time)
                s, action = choose(mirror, rng)
                if s == seat and action.kind not in ("muggins", "claim"):
                    break
            else:
                pytest.fail(f"the scripted player found no move of seat {seat}")
            text = mirror.format_action(action)  # and the points announced after it, as a person types them
            child.sendline(text if action.claim is None else f"{text} {action.claim}")
            mirror.apply(seat, action)
        else:
            pytest.fail("the terminal game did not end")
    finally:
        child.close(force=True)
    assert mirror.is_over(), "the terminal stopped before the end of the game"
    assert offered, "the terminal did not offer to analyse the finished game"
    assert_same_game(replay(load(saved)), mirror, "the terminal's saved record")


@pytest.mark.parametrize("case", params(all_cases(), sample=QUICK))
def test_the_terminal_table_plays_a_whole_game(case: Case, tmp_path: Path) -> None:
    terminal_game(case, SEED, tmp_path)


# ------------------------------------------------------------------------------------ the server ----
@pytest.mark.parametrize("case", params(sample=QUICK))
def test_the_server_plays_a_whole_game_against_its_bots(case: Case, tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from muggins.server.app import create_app
    from tests.server.conftest import table_socket

    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", rate=1e6, burst=1e6, time_scale=0.0,
                     tables_burst=1e6, seats_burst=1e6)
    body = {"game": case.game, "preset": case.preset, "options": {"claims": case.claims}, "grace": 0,
            "bot_delay": 0, "seats": [None] + ["club"] * (case.players - 1)}
    rng = random.Random(SEED)
    with TestClient(app) as client:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        r = client.post(f"/api/tables/{table}/seats/0", json={"name": "Ann"})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        with table_socket(client, table, token) as ws:
            last = server_game(ws, rng)
        assert last["table"]["status"] == "finished"
        rec = client.get(f"/api/tables/{table}/record").json()
    again = replay(rec)
    assert again.is_over() and again.side_scores() == last["view"]["scores"]


def server_game(ws: Any, rng: random.Random, limit: int = 20_000) -> dict[str, Any]:
    """Seat 0 plays one of its legal moves (as the view lists them) whenever it is waited for."""
    def next_state() -> dict[str, Any]:
        while True:
            m = ws.receive_json()
            if m["type"] == "state":
                return dict(m)

    m = next_state()
    for _ in range(limit):
        view = m["view"]
        if view["over"]:
            return m
        if 0 in view.get("waiting_for", view["to_act"]) and view["legal"]:
            moves = [x for x in view["legal"] if not x.startswith(("muggins", "claim"))] or view["legal"]
            ws.send_json({"type": "act", "move": rng.choice(sorted(moves)), "at": m["table"]["actions"], "ref": "x"})
            while True:
                r = ws.receive_json()
                if r["type"] == "state":
                    m = r
                elif r.get("ref") == "x":
                    break
        else:
            m = next_state()
    raise AssertionError("the server game did not end")
