"""A game the server has never heard of (count to 21, registered only by this test) played whole through
the API against a bot: the state messages tell the page to draw it with its generic renderer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from muggins.core.records import replay
from muggins.core.rules import GameSpec
from tests.server.conftest import new_table, sit, table_socket
from tests.server.test_api import play_out
from tests.toy import NAME, toy_registered


@pytest.fixture
def toy() -> Iterator[GameSpec]:
    with toy_registered() as spec:
        yield spec


def test_the_catalogue_lists_the_registered_game(toy: GameSpec, client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games[NAME]["renderer"] == "generic" and games[NAME]["presets"] == ["toy", "toy-auto"]
    assert games[NAME]["piece_noun"] == ["piece", "pieces"]
    assert games[NAME]["preset_details"]["toy"]["max_step_points"] == 4
    assert all(g["renderer"] != "generic" for name, g in games.items() if name != NAME)


@pytest.mark.parametrize("preset", ["toy", "toy-auto"])
def test_a_whole_toy_game_against_a_bot(toy: GameSpec, client: TestClient, preset: str) -> None:
    t = new_table(client, game=NAME, preset=preset, seats=[None, "casual"])
    tok = sit(client, t["id"], 0)
    with table_socket(client, t["id"], tok) as ws:
        last = play_out(ws, 0)
    assert last["renderer"] == "generic" and last["view"]["game"] == NAME
    assert last["view"]["over"] and last["table"]["status"] == "finished"
    assert max(last["view"]["scores"]) >= 10 and last["view"]["winners"]
    rec = client.get(f"/api/tables/{t['id']}/record").json()
    again = replay(rec)
    assert again.is_over() and again.scores() == last["view"]["scores"]
