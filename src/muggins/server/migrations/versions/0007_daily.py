"""The daily deal: the server's key that seeds each day's deals, the deal of each day and game, and each
player's result on it.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_results",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("opponent", sa.Integer, nullable=True),
        sa.Column("margin", sa.Integer, nullable=True),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=True),
    )
    op.create_index("ix_daily_results_table_id", "daily_results", ["table_id"], unique=True)


def downgrade() -> None:
    op.drop_table("daily_results")
    op.drop_table("daily_deals")
    op.drop_table("daily_keys")
