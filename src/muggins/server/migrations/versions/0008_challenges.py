"""The bot API's challenges, kept in the store so that any process of a site answers for them and a
restart keeps them.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("challenger_name", sa.String(20), nullable=False),
        sa.Column("challenger_kind", sa.String(8), nullable=False),
        sa.Column("dest", sa.String(20), nullable=False),
        sa.Column("dest_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("bots", sa.JSON, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_dest_id", "challenges", ["dest_id"])
    op.create_index("ix_challenges_created", "challenges", ["created"])


def downgrade() -> None:
    op.drop_table("challenges")
