"""Tournaments on Ray: the same report as the local backend for the same seed (through the Python function
and the command line), chunks that keep duplicate deals whole, the quiet start-up, and the refusals.

One local Ray of two CPUs is started for the whole module: Ray takes seconds to start. Without ray installed
the tests that need it skip (and fail under CI=true, see tests/conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import muggins
from muggins.core import RulesError
from muggins.sim.cli import tournament_command
from muggins.sim.driver import GameResult
from muggins.sim.ray_backend import (
    INSTALL_HINT,
    MAX_CHUNK,
    RayRunError,
    check_reachable,
    chunk_size,
    init_kwargs,
    ray_session,
    run_tasks_ray,
)
from muggins.sim.tournament import BackendError, Config, Task, run_tasks, run_tournament, without_timing

SMALL = {  # two bots, three duplicate deals (six games), short targets
    "dominoes": Config("dominoes", "muggins", 2, ("random", "greedy"), games=6, seed=7, options=(("target", "60"),)),
    "card-muggins": Config("card-muggins", "muggins", 2, ("random", "greedy"), games=6, seed=7),
}


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(tournament_command)
    return app


def outcome(r: GameResult) -> tuple[Any, ...]:
    return (r.seed, r.bots, r.side_scores, r.winners, r.finished, r.actions, r.hands,
            [(s.score, s.claims_true, s.missed, s.mugged, s.stolen, s.calls, s.false_calls, s.decisions)
             for s in r.seats])


@pytest.fixture(scope="module")
def local_ray() -> Iterator[ModuleType]:
    ray = pytest.importorskip("ray", reason=f"the Ray backend needs ray ({INSTALL_HINT})")
    assert not ray.is_initialized()
    with ray_session(num_cpus=2) as session:
        assert session.is_initialized() and session.cluster_resources()["CPU"] == 2
        yield session
    assert not ray.is_initialized()  # the session shuts down what it started


# ------------------------------------------------------------------------------- same report ----
@pytest.mark.parametrize("game", sorted(SMALL))
def test_python_function_gives_the_local_report(local_ray: ModuleType, game: str) -> None:
    cfg = SMALL[game]
    seen: list[GameResult] = []
    local, local_results = run_tournament(cfg)
    remote, remote_results = run_tournament(cfg, jobs=2, on_result=seen.append, backend="ray")
    assert without_timing(remote) == without_timing(local)  # the clock figures differ between any two runs
    assert [outcome(r) for r in remote_results] == [outcome(r) for r in local_results]
    assert len(seen) == len(cfg.tasks())  # every game reported as its chunk finished
    assert {r.bots[0] for r in remote_results} == {"random", "greedy"}  # both orientations played
    json.dumps(remote)


@pytest.mark.parametrize("game", sorted(SMALL))
def test_cli_gives_the_local_json(local_ray: ModuleType, game: str) -> None:
    args = ["--game", game, "--bots", "random,greedy", "--games", "6", "--seed", "11", "--json"]
    local = CliRunner().invoke(_app(), args)
    remote = CliRunner().invoke(_app(), [*args, "--backend", "ray", "--jobs", "2"])
    assert local.exit_code == 0, local.output
    assert remote.exit_code == 0, remote.output
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    assert without_timing(b) == without_timing(a)
    assert b["game"] == game and b["pairs"][0]["games"] == 6 and b["seed"] == 11
    # --no-timing leaves the clock figures out: the very same JSON text from both backends
    plain = [*args, "--no-timing"]
    local = CliRunner().invoke(_app(), plain)
    remote = CliRunner().invoke(_app(), [*plain, "--backend", "ray", "--jobs", "2"])
    assert local.exit_code == 0 and remote.exit_code == 0, local.output + remote.output
    assert remote.stdout == local.stdout
    assert "seconds_per_move" not in local.stdout and '"win_rate"' in local.stdout


def test_results_come_back_in_task_order_whatever_the_chunks(local_ray: ModuleType) -> None:
    tasks = Config("dominoes", "muggins", 2, ("random", "greedy", "heuristic"), games=4, seed=2,
                   options=(("target", "40"),)).tasks()
    serial = [outcome(r) for r in run_tasks(tasks)]
    for chunk in (1, 3, len(tasks)):
        assert [outcome(r) for r in run_tasks_ray(tasks, chunk=chunk)] == serial


def test_a_game_error_is_raised_as_itself(local_ray: ModuleType) -> None:
    bad = Task("chess", "standard", (), 2, ("random", "greedy"), seed=1, pair=0, orientation=0)
    with pytest.raises(RulesError, match="unknown game 'chess'") as caught:
        run_tasks_ray([bad])
    assert caught.type is RulesError  # not Ray's wrapper, whose message carries a remote traceback


def test_any_other_failure_on_ray_is_one_line(local_ray: ModuleType) -> None:
    broken = Task("dominoes", "muggins", (), 2, (None, "greedy"), seed=1, pair=0, orientation=0)  # type: ignore
    with pytest.raises(RayRunError, match=r"^a chunk of games failed on Ray: 'NoneType' object has no attr") as caught:
        run_tasks_ray([broken])
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------------------------------ chunks ----
def test_chunk_size_balances_and_is_bounded() -> None:
    assert chunk_size(200, 2) == 26       # about four chunks per CPU
    assert chunk_size(1, 2) == 2          # never a lone orientation
    assert chunk_size(10**6, 2) == MAX_CHUNK
    assert chunk_size(200, 0) == chunk_size(200, 1)
    for n in range(1, 300, 7):
        for cpus in (1, 2, 3, 8, 64):
            size = chunk_size(n, cpus)
            assert size % 2 == 0 and 2 <= size <= MAX_CHUNK
            assert size >= MAX_CHUNK or -(-n // size) <= 4 * cpus


def test_chunks_keep_duplicate_deals_whole() -> None:
    tasks = Config("dominoes", "muggins", 2, ("random", "greedy", "heuristic"), games=10).tasks()
    size = chunk_size(len(tasks), 3)
    for start in range(size, len(tasks), size):  # the two games either side of each chunk boundary
        before, after = tasks[start - 1], tasks[start]
        assert (before.pair, before.seed) != (after.pair, after.seed)


# -------------------------------------------------------------------------------- start-up ----
def test_init_is_quiet_and_local_by_default() -> None:
    kw = init_kwargs(None, 3)
    assert kw["address"] == "local" and kw["num_cpus"] == 3
    assert kw["include_dashboard"] is False and kw["log_to_driver"] is False
    assert init_kwargs(None, None)["num_cpus"] is None


def test_a_cluster_brings_its_cpus_and_gets_the_game_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUGGINS_GAMES", "my_games.toy")
    monkeypatch.setenv("MUGGINS_ENGINE", "pure")
    monkeypatch.delenv("MUGGINS_PURE_PYTHON", raising=False)
    kw = init_kwargs("auto", None)
    assert kw["address"] == "auto" and "num_cpus" not in kw and kw["log_to_driver"] is False
    # the workers deal and play on the engine this process asked for
    assert kw["runtime_env"]["env_vars"] == {"MUGGINS_GAMES": "my_games.toy", "MUGGINS_ENGINE": "pure"}
    # the workers play this process's own code, not whatever version the nodes have installed
    assert kw["runtime_env"]["py_modules"] == [os.path.dirname(muggins.__file__)]
    with pytest.raises(BackendError, match="brings its own"):
        init_kwargs("auto", 2)


def test_an_address_where_nothing_answers_is_refused_at_once() -> None:
    for address in ("127.0.0.1:1", "ray://127.0.0.1:1"):
        with pytest.raises(BackendError, match=f"nothing answers at {address}"):
            check_reachable(address)
    check_reachable("auto")  # left to Ray, which finds the cluster started on this machine


def test_ray_is_imported_only_for_its_backend() -> None:
    code = ("import sys\n"
            "import muggins.cli.main\n"
            "from muggins.sim.tournament import Config, run_tournament\n"
            "run_tournament(Config('dominoes', 'muggins', 2, ('random', 'greedy'), 2, options=(('target', '20'),)))\n"
            "assert 'ray' not in sys.modules, 'ray imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------------------------- refusals ----
@pytest.mark.parametrize(("args", "message"), [
    (["--address", "auto"], "use it with --backend ray"),
    (["--backend", "local", "--address", "ray://head:10001"], "use it with --backend ray"),
    (["--backend", "spark"], "unknown backend 'spark'; choose one of local, ray"),
    (["--backend", "ray", "--address", "auto", "--jobs", "2"], "brings its own"),
])
def test_cli_refusals(args: list[str], message: str) -> None:
    res = CliRunner().invoke(_app(), ["--games", "2", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_python_refusals() -> None:
    cfg = SMALL["dominoes"]
    with pytest.raises(BackendError, match="unknown backend"):
        run_tournament(cfg, backend="dask")
    with pytest.raises(BackendError, match="--backend ray"):
        run_tournament(cfg, address="auto")


def test_missing_ray_is_one_line_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what ``import ray`` meets when ray is not installed
    res = CliRunner().invoke(_app(), ["--games", "2", "--backend", "ray"])
    assert res.exit_code == 2, res.output
    assert res.output.strip() == f"error: --backend ray needs the ray package: {INSTALL_HINT}"
