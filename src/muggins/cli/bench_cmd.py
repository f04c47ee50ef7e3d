"""``muggins bench``: random-play throughput on one core (median of several runs)."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from muggins.cli.common import fail, parse_options
from muggins.core.errors import RulesError
from muggins.core.rules import default_game, get_game, load_object
from muggins.perf import median_runs, native_engine, native_protocol_play, native_random_play, random_play


def bench_command(
    game: str = typer.Option(None, "--game", "-g", help="Game to measure [default: the default game]."),
    preset: str = typer.Option(None, "--preset", "-p", help="Preset (default: the game's default)."),
    players: int = typer.Option(None, "--players", "-n", help="Number of players."),
    seconds: float = typer.Option(2.0, "--seconds", "-s", help="CPU seconds per run."),
    runs: int = typer.Option(5, "--runs", help="Runs; the median is reported."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Rule override key=value (repeatable)."),
    search: bool = typer.Option(False, "--search", help="Also measure the search bot's iterations per second."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON object."),
) -> None:
    """Measure random-play throughput (moves and games per second) on one core."""
    if seconds <= 0 or runs < 1:
        fail("--seconds must be positive and --runs at least 1")
    try:
        game = game or default_game().name
        opts = parse_options(option)
        result = median_runs(random_play, runs, game=game, preset=preset, players=players,
                             seconds=seconds, options=opts)
        extra = _extra(game, seconds, runs)
        native, no_native = native_random_play(game, preset, players, seconds, runs, opts)
        if native is not None:
            extra["native"] = native
        elif native_engine(game) is not None:
            extra["native_unavailable"] = no_native
        proto, no_proto = native_protocol_play(game, preset, players, seconds, runs, opts)
        if proto is not None:
            extra["native_protocol"] = proto
        elif native_engine(game) is not None:
            extra["native_protocol_unavailable"] = no_proto
        if search:
            from muggins.sim.bench import search_speed

            s = search_speed(game, preset, players, seconds=min(seconds, 0.5), positions=6, runs=min(runs, 3))
            extra.update({k: v for k, v in s.items() if k.startswith("search_")})
    except RulesError as e:
        fail(str(e))
    spec = get_game(game)
    from muggins._accel import build_status, describe_build

    build = build_status()
    state_engine, why_pure = spec.engine(spec.rules(preset, opts), players or spec.default_players)
    out = {"game": game, "preset": preset or spec.default_preset,
           "players": players or spec.default_players, "seconds_per_run": seconds,
           "build": build, "state_engine": state_engine, "state_engine_why": why_pure,
           "engine": f"protocol on {state_engine} states ({build['mode']} build)", **result, **extra}
    if as_json:
        typer.echo(json.dumps(out, indent=1))
        return
    mode = out["build"]["mode"]  # type: ignore[index]
    t = Table(title=f"muggins bench: {game} / {out['preset']}, random play, one core, median of {runs}, "
                    f"{mode} build")
    t.add_column("measure")
    t.add_column("median", justify="right")
    t.add_column("runs")
    for k, v in out.items():
        if k.endswith("_per_second"):
            runs_k = k.replace("_per_second", "_per_second_runs")
            runs_v: list[float] = out.get(runs_k, [])  # type: ignore[assignment]
            t.add_row(k, f"{v:,.0f}", ", ".join(f"{x:,.0f}" for x in runs_v))
    nat = out.get("native")
    if isinstance(nat, dict):
        for k in ("games_per_second", "moves_per_second"):
            t.add_row(f"native {k}", f"{nat[k]:,.0f}", ", ".join(f"{x:,.0f}" for x in nat[k + "_runs"]))
    nproto = out.get("native_protocol")
    if isinstance(nproto, dict):
        for k in ("games_per_second", "moves_per_second"):
            t.add_row(f"native protocol {k}", f"{nproto[k]:,.0f}",
                      ", ".join(f"{x:,.0f}" for x in nproto[k + "_runs"]))
    console = Console()
    console.print(t)
    console.print(f"Build: {describe_build()}.", highlight=False)
    console.print(f"Engine of spec.new: {state_engine}" + (f" ({why_pure})." if why_pure else "."), highlight=False)
    if isinstance(nat, dict):
        ratio = nat["moves_per_second"] / out["moves_per_second"]
        console.print(f"Native engine {nat['engine']}: {nat['moves_per_second']:,.0f} moves/s, "
                      f"{nat['games_per_second']:,.0f} games/s ({ratio:,.0f}x the protocol figure above).",
                      highlight=False)
    elif "native_unavailable" in out:
        console.print(f"Native engine: none measured ({out['native_unavailable']}).", highlight=False)
    if isinstance(nproto, dict):
        ratio = nproto["moves_per_second"] / out["moves_per_second"]
        console.print(f"Native-backed protocol, {nproto['engine']}: {nproto['moves_per_second']:,.0f} moves/s "
                      f"({ratio:,.1f}x the protocol figure above, measured on the "
                      f"{out['engine']} with Action objects).", highlight=False)
    elif "native_protocol_unavailable" in out:
        console.print(f"Native-backed protocol: none measured ({out['native_protocol_unavailable']}).",
                      highlight=False)


def _extra(game: str, seconds: float, runs: int) -> dict[str, object]:
    """The figures the game registers beside random play (a scorer's speed, say)."""
    out: dict[str, object] = {}
    for path in get_game(game).benchmarks:
        out.update(load_object(path)(seconds=min(seconds, 1.0), repeats=runs))
    return out
