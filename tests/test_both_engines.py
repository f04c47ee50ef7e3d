"""The consumers of the game states on both engines behind ``spec.new`` (``MUGGINS_ENGINE``): for each game,
one game over the web table's API played to its end, one tournament, one post-game analysis and one episode
of the learning environment. The native and the pure run of the same seeds must agree exactly; a spy on
``GameSpec.new`` checks that each run really used the engine asked for.

This is the cheap slice of the normal run; the whole suite on the reference engine is
``MUGGINS_ENGINE=pure python -m pytest`` (README, Testing)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from muggins.analysis import analyse_record
from muggins.bots import make_bot
from muggins.core.engine import ENGINE_ENV
from muggins.core.protocol import GameState
from muggins.core.records import replay, to_record
from muggins.core.rules import GameSpec, get_game
from muggins.sim.driver import play_game
from muggins.sim.tournament import Config, run_tournament
from tests.conftest import ENGINES

# (game, preset, players, options): short games of each game, with two players and with more
GAMES = [("dominoes", "muggins", 2, {"target": 60}), ("dominoes", "muggins-spinner", 3, {"target": 60}),
         ("card-muggins", "muggins", 2, {"target": 31}), ("card-muggins", "muggins", 4, {"target": 31}),
         ("cribbage", "cribbage-61", 2, {}), ("cribbage", "four-hand", 4, {"target": 61})]
IDS = [f"{g}-{p}-{n}" for g, p, n, _ in GAMES]
CASE = ("game", "preset", "players", "options")


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[GameState]]:
    """Every state ``spec.new`` gives while the test runs (the server, the tournament, the analysis and the
    environments all start their games there)."""
    states: list[GameState] = []
    new = GameSpec.new

    def spy(self: GameSpec, *args: Any, **kwargs: Any) -> GameState:
        st = new(self, *args, **kwargs)
        states.append(st)
        return st

    monkeypatch.setattr(GameSpec, "new", spy)
    yield states


def need_engine(engine: str, game: str, preset: str, players: int) -> None:
    """Skip unless ``spec.new`` now gives ``engine``'s states for ``preset``: the native engine plays every
    preset here where it is built (under CI=true a missing build fails the test instead)."""
    spec = get_game(game)
    got, why = spec.engine(spec.rules(preset), players)
    if got != engine:
        pytest.skip(f"{game} {preset} has no {engine} engine here: {why}")


def check_engine(states: list[GameState], engine: str) -> None:
    """The states made were all of ``engine``: the game's pure state type, or another (its native one)."""
    assert states, "no state was made"
    pure = [type(st) is get_game(st.game).state_type for st in states]
    assert pure == [engine == "pure"] * len(states), (engine, {type(st).__name__ for st in states})


def on_each_engine(monkeypatch: pytest.MonkeyPatch, made: list[GameState], game: str, preset: str, players: int,
                   run: Callable[[], Any]) -> list[Any]:
    """``run()`` under each engine in turn, each checked to have used its engine; the results."""
    out = []
    for engine in ENGINES:
        monkeypatch.setenv(ENGINE_ENV, engine)
        need_engine(engine, game, preset, players)
        made.clear()
        out.append(run())
        check_engine(made, engine)
    return out


@pytest.mark.usefixtures("both_engines")
@pytest.mark.parametrize(CASE, GAMES, ids=IDS)
def test_a_web_table_game_plays_to_its_end_and_its_record_replays(
        game: str, preset: str, players: int, options: dict[str, Any], both_engines: str, made: list[GameState],
        tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the web table needs fastapi (pip install -e '.[test]')")
    pytest.importorskip("sqlalchemy", reason="the web table needs sqlalchemy")
    from fastapi.testclient import TestClient

    from muggins.server.app import create_app
    from tests.server.conftest import new_table, sit, table_socket
    from tests.server.test_api import play_out

    need_engine(both_engines, game, preset, players)
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", rate=1e6, burst=1e6, time_scale=0.0,
                     tables_burst=1e6, seats_burst=1e6)
    with TestClient(app) as client:
        t = new_table(client, game=game, preset=preset, options=options,
                      seats=[None] + ["beginner"] * (players - 1))
        tok = sit(client, t["id"], 0)
        with table_socket(client, t["id"], tok) as ws:
            last = play_out(ws, 0, calls=False)
        assert last["table"]["status"] == "finished" and last["view"]["over"]
        rec = client.get(f"/api/tables/{t['id']}/record").json()
    check_engine(made, both_engines)
    again = replay(rec)
    assert again.is_over() and again.scores() == rec["result"]["scores"]
    assert again.side_scores() == last["view"]["scores"]  # the table shows each side's score


@pytest.mark.parametrize(CASE, GAMES, ids=IDS)
def test_a_tournament_gives_the_same_games_on_both_engines(
        game: str, preset: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        made: list[GameState]) -> None:
    cfg = Config(game, preset, players, ("greedy", "heuristic"), games=2, seed=5,
                 options=tuple((k, str(v)) for k, v in options.items()))

    def tournament() -> tuple[Any, ...]:
        report, results = run_tournament(cfg)
        assert all(r.finished for r in results) and len(results) == 2
        return report["pairs"], [(r.side_scores, r.winners, r.actions, r.hands) for r in results]

    native, pure = on_each_engine(monkeypatch, made, game, preset, players, tournament)
    assert native == pure


@pytest.mark.parametrize(CASE, GAMES, ids=IDS)
def test_an_analysis_is_the_same_on_both_engines(game: str, preset: str, players: int, options: dict[str, Any],
                                                 monkeypatch: pytest.MonkeyPatch, made: list[GameState]) -> None:
    spec = get_game(game)
    rules = spec.rules(preset, options)

    def analysis() -> tuple[dict[str, Any], dict[str, Any]]:
        ends: list[GameState] = []
        bots = [make_bot("greedy")] + [make_bot("random")] * (players - 1)
        result = play_game(spec, rules, players, bots, seed=11, on_state=ends.append)
        assert result.finished
        rec = to_record(ends[-1])
        return rec, analyse_record(rec, samples=2, seed=1).to_json()

    (rec_n, native), (rec_p, pure) = on_each_engine(monkeypatch, made, game, preset, players, analysis)
    assert rec_n == rec_p
    assert native["seats"] and native == pure


@pytest.mark.parametrize(CASE, GAMES, ids=IDS)
def test_a_learning_environment_episode_is_the_same_on_both_engines(
        game: str, preset: str, players: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        made: list[GameState]) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from muggins.rl.pettingzoo_env import MugginsAECEnv

    def episode() -> tuple[list[Any], list[int]]:
        e = MugginsAECEnv(game=game, preset=preset, players=players, **options)
        e.reset(seed=7)
        rng = random.Random(7)
        seen: list[Any] = []
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            seen.append((agent, reward, term, trunc, {k: np.asarray(v).tolist() for k, v in obs.items()}))
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            assert len(seen) < 20000, "the episode did not end"
        assert e.game_state.is_over()
        return seen, e.game_state.scores()

    native, pure = on_each_engine(monkeypatch, made, game, preset, players, episode)
    assert native[1] == pure[1] and native[0] == pure[0]
