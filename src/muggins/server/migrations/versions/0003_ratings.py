"""Ratings: what kind of table each is (``meta``), bot and house accounts, ratings per game family and
their history.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("meta", sa.JSON, nullable=True))
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="person"))
        batch.add_column(sa.Column("owner_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_accounts_owner_id", "accounts", ["owner_id"], ["id"], ondelete="CASCADE")
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_account_id", "rating_history", ["account_id"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("fk_accounts_owner_id", type_="foreignkey")
        batch.drop_column("owner_id")
        batch.drop_column("kind")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("meta")
