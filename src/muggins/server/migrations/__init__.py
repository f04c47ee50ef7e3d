"""The database's schema history (Alembic revisions), applied by :func:`upgrade` when a store opens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect

HERE = Path(__file__).resolve().parent
#: the revision that is the schema as it was before migrations: a database without alembic_version but
#: with its tables is marked as being at it, then upgraded
BASELINE = "0001"


def config(connection: Any) -> Config:
    """Alembic's configuration, without an alembic.ini: the scripts of this package, on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: none recorded)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision: a new database gets every table; one made before
    migrations (its tables there, no revision recorded) is marked as the baseline first."""
    with engine.begin() as conn:
        cfg = config(conn)
        if MigrationContext.configure(conn).get_current_revision() is None and inspect(conn).has_table("game_tables"):
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, "head")
        missing = missing_parts(conn)
        if missing:
            revision = MigrationContext.configure(conn).get_current_revision()
            raise SchemaMismatch(f"it is marked as revision {revision} but lacks {'; '.join(missing)}: it was "
                                 "not made by this program's migrations. Nothing was changed; use another "
                                 "database, or restore this one from a copy")


class SchemaMismatch(Exception):
    """The database says it is at a revision whose tables or columns it does not have."""


def missing_parts(conn: Any) -> list[str]:
    """What the code declares and the database lacks: whole tables, then columns of the tables it has."""
    from muggins.server.store import metadata

    seen = inspect(conn)
    have = set(seen.get_table_names())
    out = [f"the table {name}" for name in sorted(set(metadata.tables) - have)]
    for name in sorted(set(metadata.tables) & have):
        columns = {c["name"] for c in seen.get_columns(name)}
        out += [f"the column {name}.{c.name}" for c in metadata.tables[name].columns if c.name not in columns]
    return out


def drop_all(engine: Engine) -> None:
    """Remove every table of the store and the record of its revision (for tests on a shared database)."""
    from muggins.server.store import metadata

    metadata.drop_all(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
