"""Scale-out mode's options and its per-address limits counted in Redis: they hold across processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from muggins.cli.main import app as cli
from muggins.server.app import create_app

runner = CliRunner()
NOTHING = 1e-6  # a limit's refill a minute: none during a test, so its counts are exact


def creations(clients: list[TestClient], n: int) -> int:
    """The 201s among ``n`` table creations sent in turn to ``clients``."""
    made = 0
    for i in range(n):
        r = clients[i % len(clients)].post("/api/tables", json={"game": "dominoes", "grace": 0, "bot_delay": 0})
        assert r.status_code in (201, 429), r.text
        made += r.status_code == 201
    return made


def instances(db_url: str, redis_url: str | None, count: int) -> list[TestClient]:
    return [TestClient(create_app(db_url, tables_per_minute=NOTHING, tables_burst=25, time_scale=0.0,
                                  redis_url=redis_url)) for _ in range(count)]


def test_creations_over_two_processes_get_as_many_201s_as_over_one(redis_url: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    (one,) = instances(db, redis_url, 1)
    with one:
        alone = creations([one], 100)
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    a, b = instances(db, redis_url, 2)
    with a, b:
        spread = creations([a, b], 100)
        assert a.get("/api/tables").status_code == 200
    assert alone == spread == 25
    # each process counting alone would have let twice as many through
    c, d = instances(db, None, 2)
    with c, d:
        assert creations([c, d], 100) == 50


def test_a_refusal_counted_in_redis_says_when_to_retry(redis_url: str, tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", seats_per_minute=6.0, seats_burst=1,
                               time_scale=0.0, redis_url=redis_url)) as c:
        t = c.post("/api/tables", json={"game": "dominoes", "grace": 0, "bot_delay": 0}).json()
        assert c.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Ann"}).status_code == 200
        r = c.post(f"/api/tables/{t['id']}/seats/1", json={"name": "Bob"})
        assert r.status_code == 429
        assert "seats taken" in r.json()["error"]
        assert 1 <= int(r.headers["Retry-After"]) <= 10


def test_connection_attempts_are_counted_in_redis(redis_url: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    apps = [TestClient(create_app(db, connects_per_minute=NOTHING, connects_burst=3, time_scale=0.0,
                                  redis_url=redis_url)) for _ in range(2)]
    with apps[0] as a, apps[1] as b:
        t = a.post("/api/tables", json={"game": "dominoes", "grace": 0, "bot_delay": 0}).json()
        opened = refused = 0
        for i in range(6):
            try:
                with (a if i % 2 else b).websocket_connect(f"/ws/{t['id']}") as ws:
                    ws.send_json({"type": "hello", "token": None})
                    ws.receive_json()
                    opened += 1
            except Exception:
                refused += 1
        assert (opened, refused) == (3, 3)


@pytest.mark.parametrize(("args", "says"), [
    (["--db", "nosuch://x"], "is not a database URL"),
    (["--redis", "http://127.0.0.1"], "is not a Redis URL"),
    (["--redis", "redis://127.0.0.1:1/5"], "no Redis server answers"),
])
def test_serve_refuses_a_bad_database_or_redis_and_starts_nothing(args: list[str], says: str, tmp_path: Path) -> None:
    db = tmp_path / "never.db"
    if "--db" not in args:
        args = ["--db", f"sqlite:///{db}", *args]
    result = runner.invoke(cli, ["serve", "--port", "18601", *args])
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert not db.exists()


def test_serve_takes_redis_from_the_environment(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["serve", "--port", "18601", "--db", f"sqlite:///{tmp_path / 'n.db'}"],
                           env={"MUGGINS_REDIS_URL": "redis://127.0.0.1:1/5"})
    assert result.exit_code == 2
    assert "MUGGINS_REDIS_URL" in result.output and "no Redis server answers" in result.output


def test_failed_logins_are_counted_in_redis_across_processes(redis_url: str, tmp_path: Path) -> None:
    """Wrong passwords spread over two processes reach the per-name limit as soon as on one; the signups of
    an address are counted across them too."""
    from tests.server.test_accounts import Counting

    db = f"sqlite:///{tmp_path / 'l.db'}"
    a, b = (TestClient(create_app(db, time_scale=0.0, redis_url=redis_url)) for _ in range(2))
    with a, b:
        for c in (a, b):
            c.app.state.accounts.hasher = Counting()  # type: ignore[attr-defined]
        assert a.post("/api/account", json={"username": "Ann_1", "password": "correct horse"}).status_code == 201
        codes = [(a, b)[i % 2].post("/api/session", json={"username": "Ann_1", "password": f"wrong {i}"}
                                    ).status_code for i in range(14)]
        # the name's failures (10 at once) are shared: one process alone would allow 10 on each
        assert codes.count(401) == 10 and codes[-1] == 429
        made = [(a, b)[i % 2].post("/api/account", json={"username": f"Bob_{i}", "password": "correct horse"}
                                   ).status_code for i in range(14)]
        assert made.count(201) == 9 and made[-1] == 429  # 10 at once from one address, Ann's included
