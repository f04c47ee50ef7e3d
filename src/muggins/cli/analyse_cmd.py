"""``muggins analyse``: where each seat of a recorded game lost points (see :mod:`muggins.analysis`)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from muggins.analysis.analyse import DEFAULT_SAMPLES
from muggins.analysis.evaluate import AnalysisError
from muggins.analysis.report import plot, run_analysis, show
from muggins.cli.common import fail
from muggins.core.errors import RecordError
from muggins.core.records import load, start_from_record


def analyse_command(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as JSON."),
    plot_to: Path = typer.Option(None, "--plot", help="Write a PNG of the score race and each decision's loss."),
    samples: int = typer.Option(DEFAULT_SAMPLES, "--samples", help="Worlds drawn to price each decision."),
    seed: int = typer.Option(0, "--seed", help="Seed of the analysis (the same seed gives the same figures)."),
) -> None:
    """Analyse a game record: the points each seat lost to its choices, its counting and the muggins rule."""
    if samples < 1:
        fail(f"--samples is a number of worlds, at least 1; got {samples}")
    if plot_to is not None and plot_to.suffix.lower() != ".png":
        fail(f"--plot writes a PNG image; give a file name ending in .png, not {plot_to.name!r}")
    try:
        rec = load(file)
        if not isinstance(rec, dict):
            raise RecordError("a record must be a JSON object")
        start_from_record(rec)  # a record that cannot even start fails before the progress bar shows
        analysis = run_analysis(rec, samples, seed, Console(stderr=True))
    except (RecordError, AnalysisError) as e:
        fail(f"{file}: {e}")
    if plot_to is not None:
        try:
            plot(analysis, plot_to)
        except OSError as e:
            fail(f"cannot write {plot_to}: {e.strerror or e}")
    if as_json:
        typer.echo(json.dumps(analysis.to_json(), indent=1))
        return
    show(analysis, Console())
    if plot_to is not None:
        Console().print(f"Plot written to {plot_to}", highlight=False)
