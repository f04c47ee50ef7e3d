"""The tables of the bot API (none needed yet).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
