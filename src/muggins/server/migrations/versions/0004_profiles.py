"""Ratings and profiles: the ended tables the ratings have looked at (each rated once only).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("family", sa.String(16), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("note", sa.String(200), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_tables")
