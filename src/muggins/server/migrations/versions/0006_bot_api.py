"""The bot API: the tokens of the bot accounts (hashed, scoped, revocable).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("scopes", sa.String(100), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_index("ix_bot_tokens_account_id", "bot_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_table("bot_tokens")
