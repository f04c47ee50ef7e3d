"""Records written by version 1 of the record format (tests/fixtures/records_v1, one whole game of every
game x preset x player count, played by bots that forget, under-claim, miss calls and call falsely) still
replay to the same result and the same events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from muggins.core.records import replay

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures" / "records_v1").glob("*.json"))
DOCS = sorted((Path(__file__).parent.parent.parent / "docs" / "examples").glob("*.json"))


def test_fixtures_cover_every_game() -> None:
    games = {json.loads(p.read_text())["game"] for p in FIXTURES}
    assert games == {"dominoes", "card-muggins", "cribbage"}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_v1_record_replays(path: Path) -> None:
    rec = json.loads(path.read_text())
    state = replay(rec)
    assert rec["version"] == 1
    assert state.is_over()
    assert state.scores() == rec["result"]["scores"]
    assert sorted(state.winners()) == rec["result"]["winners"]
    assert state.events_for(None) == rec["events"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.stem)
def test_docs_example_replays(path: Path) -> None:
    rec = json.loads(path.read_text())
    state = replay(rec)
    if "result" in rec:
        assert state.scores() == rec["result"]["scores"]
