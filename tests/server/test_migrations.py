"""The store's schema grows by migrations: a database made before them (by the store as it was, kept in
tests/server/fixtures/store_v0.py) is recognised, upgraded in place, and its tables play on."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text
from typer.testing import CliRunner

from muggins.cli.main import app as cli
from muggins.server import migrations
from muggins.server.app import create_app
from muggins.server.store import Store
from muggins.server.tables import TableManager
from tests.server.fixtures import store_v0
from tests.server.test_postgres import PG_URL, reachable

# the newest revision, as the package's scripts say (its number grows with each migration)
HEAD = ScriptDirectory.from_config(migrations.config(None)).get_current_head()


def play(table: Any, moves: int) -> int:
    """Play up to ``moves`` first legal moves through the table's own path (each one stored)."""
    done = 0
    while done < moves and not table.state.is_over():
        seat = min(table.state.waiting_for())
        table.act(seat, table.state.format_action(table.state.legal_actions(seat)[0]), None)
        done += 1
    return done


def old_database(url: str) -> tuple[str, list[str], Any]:
    """A database made by the store as it was before migrations: a table of two people, some moves played."""
    old = store_v0.Store(url)
    manager = TableManager(old, 0.0)
    table = manager.create("dominoes", None, None, [None, None], 0, 0)
    tokens = [table.take_seat(0, "Ann"), table.take_seat(1, "Bob")]
    assert play(table, 12) == 12
    before = table.state.clone()
    old.close()
    return table.id, tokens, before


def upgraded_plays_on(url: str) -> None:
    table_id, tokens, before = old_database(url)
    engine = create_engine(url)
    assert not inspect(engine).has_table("alembic_version")
    assert not inspect(engine).has_table("accounts")
    engine.dispose()
    with TestClient(create_app(url, time_scale=0.0)) as c:
        store: Store = c.app.state.store  # type: ignore[attr-defined]
        assert migrations.current(store.engine) == HEAD
        names = set(inspect(store.engine).get_table_names())
        assert {"accounts", "account_sessions", "seat_owners", "game_tables", "game_actions"} <= names
        assert "quarantined" in {col["name"] for col in inspect(store.engine).get_columns("game_tables")}
        table = c.app.state.manager.get(table_id)  # type: ignore[attr-defined]
        assert table.state.history == before.history
        assert table.seat_of_token(tokens[1]) == 1
        assert play(table, 2000) > 0
        assert table.state.is_over() and table.status == "finished"
    assert schema_differences(url) == []  # exactly the schema of a database made new
    # a second start finds it at the newest revision and changes nothing
    reopened = Store(url)
    try:
        assert migrations.current(reopened.engine) == HEAD
        assert reopened.load_one(table_id).status == "finished"  # type: ignore[union-attr]
    finally:
        reopened.close()


def test_a_database_made_before_migrations_is_upgraded_and_plays_on(db_url: str) -> None:
    upgraded_plays_on(db_url)


def test_a_new_database_is_made_by_the_migrations(db_url: str) -> None:
    store = Store(db_url)
    try:
        assert migrations.current(store.engine) == HEAD
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD]
        indexes = {i["name"] for i in inspect(store.engine).get_indexes("game_tables")}
        assert "game_tables_status" in indexes
    finally:
        store.close()


@pytest.fixture
def pg_schema_url() -> Iterator[str]:
    """A fresh schema of the PostgreSQL database of MUGGINS_PG_URL, dropped afterwards."""
    why = reachable(PG_URL)
    if why:
        pytest.skip(why)
    schema = f"migr_{secrets.token_hex(4)}"
    engine = create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


def test_a_postgres_database_made_before_migrations_is_upgraded_and_plays_on(pg_schema_url: str) -> None:
    upgraded_plays_on(pg_schema_url)



def schema_differences(url: str) -> list[Any]:
    """What the migrated database lacks or has besides the store's tables as the code declares them."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from muggins.server.store import metadata

    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), metadata))
    finally:
        store.close()


def test_the_migrations_make_exactly_the_tables_the_code_declares(db_url: str) -> None:
    assert schema_differences(db_url) == []


def test_on_postgres_the_migrations_make_exactly_the_tables_the_code_declares(pg_schema_url: str) -> None:
    assert schema_differences(pg_schema_url) == []


def test_a_database_marked_newer_than_its_tables_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """A database whose revision says more than its tables hold (a table dropped, a column lost) is not
    opened: the server says what is missing instead of failing on its first request, and changes nothing."""
    url = f"sqlite:///{tmp_path / 'odd.db'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE challenges"))
        conn.execute(text("ALTER TABLE game_tables DROP COLUMN meta"))
    before = sorted(inspect(engine).get_table_names())
    with pytest.raises(migrations.SchemaMismatch) as e:
        Store(url)
    assert f"revision {HEAD}" in str(e.value)
    assert "the table challenges" in str(e.value) and "the column game_tables.meta" in str(e.value)
    assert sorted(inspect(engine).get_table_names()) == before
    result = CliRunner().invoke(cli, ["serve", "--port", "18602", "--db", url])
    assert result.exit_code == 2 and "lacks the table challenges" in result.output, result.output
