"""The same persistence guarantees on PostgreSQL, when a server is given by MUGGINS_PG_URL
(for example postgresql+psycopg://muggins:muggins@127.0.0.1/muggins_test)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.server.test_persistence import test_restart_resumes_every_table_with_the_same_future as resumes
from tests.server.test_persistence import test_the_acknowledged_action_is_in_the_database_before_the_ack as commits
from tests.server.test_runaway import (
    test_a_thousand_finished_games_keep_the_list_small_and_are_paged_and_searchable as archive,
)

PG_URL = os.environ.get("MUGGINS_PG_URL", "")


def reachable(url: str) -> str | None:
    """None when the server answers, else why not."""
    if not url:
        return "MUGGINS_PG_URL is not set (no PostgreSQL server to test against)"
    try:
        import sqlalchemy

        engine = sqlalchemy.create_engine(url)
        with engine.connect():
            pass
        engine.dispose()
    except Exception as e:
        return f"PostgreSQL at MUGGINS_PG_URL is not reachable: {e}"
    return None


@pytest.fixture
def pg_url() -> Iterator[str]:
    why = reachable(PG_URL)
    if why:
        pytest.skip(why)
    from sqlalchemy import create_engine

    from muggins.server.migrations import drop_all

    engine = create_engine(PG_URL)
    drop_all(engine)  # each test starts from an empty database, made by the migrations
    try:
        yield PG_URL
    finally:
        drop_all(engine)  # and leaves none of its tables to the next user of the shared database
        engine.dispose()


def test_postgres_restart_resumes_every_table(pg_url: str) -> None:
    resumes(pg_url)


def test_postgres_commits_before_the_ack(pg_url: str) -> None:
    commits(pg_url)


def test_postgres_pages_and_searches_the_archive(pg_url: str) -> None:
    archive(pg_url)
