"""Players' first and last names, as the EMA results file gives them (issue 13, point 7).

Revision ID: 0004_player_names
Revises: 0003
Create Date: 2026-12-01 17:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_player_names"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("first_name", sa.String(length=100), nullable=True))
        batch.add_column(sa.Column("last_name", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("last_name")
        batch.drop_column("first_name")
