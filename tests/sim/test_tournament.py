"""Tournaments: the plan of duplicate games, the report and its JSON shape, the command line, and the
statistics behind the tables."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import jsonschema
import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from muggins.core import RulesError
from muggins.sim.cli import tournament_command
from muggins.sim.report import bot_key, bot_labels, print_report
from muggins.sim.stats import bradley_terry, rating_intervals, wilson
from muggins.sim.tournament import Config, Task, parse_options, run_task, run_tasks, run_tournament, seat_bots

REPORT_SCHEMA = {
    "type": "object",
    "required": ["game", "preset", "players", "pairs", "ratings", "bots"],
    "properties": {
        "pairs": {"type": "array", "items": {
            "type": "object",
            "required": ["a", "b", "games", "a_win_rate", "ci95", "a_wins", "b_wins", "draws",
                         "points_per_hand", "muggins"],
            "properties": {
                "a": {"type": "string"}, "b": {"type": "string"}, "games": {"type": "integer"},
                "a_win_rate": {"type": "number", "minimum": 0, "maximum": 1},
                "ci95": {"type": "array", "minItems": 2, "maxItems": 2,
                         "items": {"type": "number", "minimum": 0, "maximum": 1}},
            }}},
        "ratings": {"type": "array", "items": {
            "type": "object", "required": ["bot", "rating", "ci95"],
            "properties": {"bot": {"type": "string"}, "rating": {"type": "number"},
                           "ci95": {"type": "array", "minItems": 2, "maxItems": 2}}}},
    },
}


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(tournament_command)
    return app


def test_plan_is_duplicate_and_shared_across_pairs() -> None:
    cfg = Config("dominoes", "muggins", 2, ("random", "greedy", "heuristic"), games=4, seed=5)
    tasks = cfg.tasks()
    assert len(tasks) == 3 * 4
    for p in range(3):
        mine = [t for t in tasks if t.pair == p]
        assert [t.orientation for t in mine] == [0, 1, 0, 1]
        assert mine[0].seed == mine[1].seed != mine[2].seed == mine[3].seed
        assert mine[0].seats == tuple(reversed(mine[1].seats))
    assert {t.seed for t in tasks if t.pair == 0} == {t.seed for t in tasks if t.pair == 2}
    assert pickle.loads(pickle.dumps(tasks[0])) == tasks[0]


def test_seats_alternate() -> None:
    assert seat_bots("a", "b", 4, 0) == ("a", "b", "a", "b")
    assert seat_bots("a", "b", 3, 1) == ("b", "a", "b")


def test_duplicate_games_reuse_the_deal() -> None:
    cfg = Config("dominoes", "muggins", 2, ("random", "greedy"), games=2, seed=1)
    t0, t1 = cfg.tasks()
    r0, r1 = run_task(t0), run_task(t1)
    assert r0.seed == r1.seed and r0.bots == list(reversed(r1.bots))


def test_report_shape_and_consistency() -> None:
    cfg = Config("dominoes", "muggins", 2, ("random", "greedy", "beginner"), games=4, seed=2,
                 options=(("target", "60"),))
    report, results = run_tournament(cfg)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert len(results) == 12
    for p in report["pairs"]:
        assert p["games"] == 4 and p["a_wins"] + p["b_wins"] + p["draws"] == 4
        lo, hi = p["ci95"]
        assert lo <= p["a_win_rate"] <= hi
    assert sorted(r["bot"] for r in report["ratings"]) == ["beginner", "greedy", "random"]
    assert all(r["ci95"][0] <= r["rating"] <= r["ci95"][1] for r in report["ratings"])
    assert report["options"] == {"target": "60"}
    json.dumps(report)


def test_a_process_pool_gives_the_same_results() -> None:
    cfg = Config("dominoes", "muggins", 2, ("random", "greedy"), games=4, seed=3, options=(("target", "60"),))
    serial = run_tasks(cfg.tasks())
    pooled = run_tasks(cfg.tasks(), jobs=2)
    assert [r.side_scores for r in serial] == [r.side_scores for r in pooled]


@pytest.mark.parametrize(("cfg", "message"), [
    (Config("dominoes", "muggins", 2, ("random",), 2), "at least two bots"),
    (Config("dominoes", "muggins", 2, ("random", "random"), 2), "only once"),
    (Config("dominoes", "muggins", 2, ("random", "wizard"), 2), "unknown bot"),
    (Config("dominoes", "muggins", 9, ("random", "greedy"), 2), "players"),
    (Config("dominoes", "nope", 2, ("random", "greedy"), 2), "unknown preset"),
    (Config("dominoes", "muggins", 2, ("random", "greedy"), 0), "at least one game"),
    (Config("dominoes", "muggins", 2, ("random", "greedy"), 2, options=(("colour", "red"),)), "unknown option"),
])
def test_bad_configurations_are_refused(cfg: Config, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        cfg.validate()


def test_parse_options() -> None:
    assert parse_options(["target=200", " claims = auto"]) == (("target", "200"), ("claims", "auto"))
    with pytest.raises(RulesError, match="key=value"):
        parse_options(["target"])


def test_cli_json(tmp_path: Path) -> None:
    plot = tmp_path / "ratings.png"
    res = CliRunner().invoke(_app(), ["--game", "dominoes", "--preset", "muggins", "--players", "2",
                                      "--bots", "random,greedy", "--games", "2", "--seed", "4",
                                      "--option", "target=40", "--json", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert report["pairs"][0]["a"] == "random" and report["pairs"][0]["games"] == 2
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_no_timing_gives_the_same_json_every_run() -> None:
    """The clock figures aside, a report depends only on the configuration and the seed: with --no-timing two
    runs print the very same JSON, and the table shows "-" where a clock figure would be."""
    args = ["--bots", "random,greedy", "--games", "2", "--seed", "9", "--option", "target=40", "--no-timing"]
    first = CliRunner().invoke(_app(), [*args, "--json"])
    second = CliRunner().invoke(_app(), [*args, "--json"])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert first.stdout == second.stdout
    report = json.loads(first.stdout)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert all("seconds_per_move" not in b and "search_iterations_per_second" not in b for b in report["bots"])
    timed = json.loads(CliRunner().invoke(_app(), [*args[:-1], "--json"]).stdout)
    assert all(b["seconds_per_move"] > 0 for b in timed["bots"])
    table = CliRunner().invoke(_app(), args, env={"COLUMNS": "80"})
    assert table.exit_code == 0 and "ms/move" in table.stdout
    lines = table.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "ms/move" in line)
    row = next(line for line in lines[start:] if line.startswith("│ greedy"))
    assert [c.strip() for c in row.split("│")[5:7]] == ["-", "-"]  # ms/move and search it/s


def _fits_80(text: str) -> None:
    assert text.strip()
    for line in text.splitlines():
        assert len(line) <= 80, line
    assert "…" not in text and "..." not in text  # nothing cut short


def test_cli_table() -> None:
    res = CliRunner().invoke(_app(), ["--bots", "random,greedy,search:iterations=20", "--games", "2",
                                      "--option", "target=40"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "win %" in res.stdout and "greedy" in res.stdout and "false calls" in res.stdout
    assert "search[1] = search:iterations=20" in res.stdout
    _fits_80(res.stdout)


def _wide_report() -> dict:
    """A report with every figure as wide as a long tournament makes it, and bots with long names."""
    names = ["random", "heuristic", "omniscient", "search:iterations=200:time=0.5", "search:iterations=5000",
             "heuristic:attention=0.25", "beginner", "club", "expert", "casual", "greedy"]
    bot = {"win_rate": 1.0, "ci95": [0.999, 1.0], "games": 10000, "points_per_hand": 123.45,
           "unclaimed_per_game": 123.4, "mugged_per_game": 12.0, "stolen_per_game": 123.4, "calls_per_game": 9.0,
           "false_calls_per_game": 12.34, "seconds_per_move": 12.3456, "search_iterations_per_second": 1234567.0}
    pair = {"games": 1000, "a_wins": 1000, "b_wins": 980, "draws": 20, "unfinished": 0, "a_win_rate": 1.0,
            "ci95": [0.999, 1.0], "points_per_hand": {"a": 123.45, "b": 123.45}, "muggins": {}}
    return {"game": "card-muggins", "preset": "no-muggins", "players": 4, "options": {}, "games_per_pair": 1000,
            "seed": 0, "bots": [{"bot": n, **bot} for n in names],
            "pairs": [{"a": a, "b": b, **pair} for i, a in enumerate(names) for b in names[i + 1:]],
            "ratings": [{"bot": n, "rating": 12345.0 - i, "ci95": [10000.0, 13000.0]} for i, n in enumerate(names)]}


def test_report_tables_fit_80_columns() -> None:
    report = _wide_report()
    console = Console(width=80, record=True, file=io.StringIO())
    print_report(report, console)
    text = console.export_text()
    _fits_80(text)
    labels = bot_labels(report)
    assert len(set(labels.values())) == len(labels)  # every bot told apart
    assert all(len(label) <= 10 for label in labels.values())
    assert labels["random"] == "random" and labels["search:iterations=200:time=0.5"] == "search[1]"
    assert labels["search:iterations=5000"] == "search[2]" and labels["heuristic:attention=0.25"] == "heurist[3]"
    for label in labels.values():
        assert label in text
    for line in bot_key(report):
        assert line in text
    assert "1000-980-20" in text and "123.5 : 123.5" in text and "[10000-13000]" in text and "1234567" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,wizard"], "unknown bot"),
    (["--option", "target"], "key=value"),
    (["--option", "target=lots"], "'lots'"),
    (["--game", "chess"], "unknown game"),
    (["--jobs", "-1"], "--jobs"),
])
def test_cli_errors(args: list[str], message: str) -> None:
    res = CliRunner().invoke(_app(), ["--games", "2", *args])
    assert res.exit_code == 2
    assert message in res.output


# ---------------------------------------------------------------------------------------- stats ----
def test_wilson_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-3
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_recovers_a_known_strength() -> None:
    r = bradley_terry(2, {(0, 1): (750.0, 1000)}, prior=0.0)
    # 75% wins is odds 3: 400 * log10(3) = 190.8 Elo points apart, centred on 1500
    assert abs((r[0] - r[1]) - 190.85) < 0.5 and abs(sum(r) / 2 - 1500) < 1e-6


def test_bradley_terry_orders_a_transitive_field() -> None:
    res = {(0, 1): (30.0, 40), (1, 2): (30.0, 40), (0, 2): (36.0, 40)}
    r = bradley_terry(3, res)
    assert r[0] > r[1] > r[2]


def test_a_clean_sweep_has_a_finite_rating_and_an_interval() -> None:
    ratings, intervals = rating_intervals(2, {(0, 1): (20.0, 20)}, rounds=100)
    assert ratings[0] > ratings[1]
    assert intervals[0][0] < ratings[0] <= intervals[0][1] or intervals[0][0] <= ratings[0] < intervals[0][1]


def test_task_is_plain_data() -> None:
    t = Task("dominoes", "muggins", (), 2, ("random", "greedy"), 1, 0, 0)
    assert run_task(t).bots == ["random", "greedy"]
