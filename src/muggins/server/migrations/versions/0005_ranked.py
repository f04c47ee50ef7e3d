"""Quick and ranked play: the clock of each ranked table.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_clocks",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("banks", sa.JSON, nullable=False),
        sa.Column("timeouts", sa.JSON, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_clocks")
