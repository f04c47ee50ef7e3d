"""The tables and their actions, as stored before migrations existed.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("num_players", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("grace", sa.Float, nullable=False),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("chance", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("creator_hash", sa.String(64), nullable=True),
        sa.Column("names", sa.Text, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("ended", sa.Float, nullable=True),
        sa.Column("hints", sa.Boolean, nullable=True),
        sa.Column("quarantined", sa.Text, nullable=True),
    )
    op.create_index("game_tables_status", "game_tables", ["status", "ended"])
    op.create_table(
        "game_actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(200), nullable=False),
        sa.Column("claim", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("game_actions")
    op.drop_index("game_tables_status", "game_tables")
    op.drop_table("game_tables")
