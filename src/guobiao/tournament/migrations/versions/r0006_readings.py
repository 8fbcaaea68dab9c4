"""Readings as settings: how a table with a substitute is ranked, what a forfeit earns,
whether a team's substitute earns for the team, how byes score (issue 13, point 1).

Revision ID: 0006_readings
Revises: 0005_withdrawals
Create Date: 2026-12-01 19:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_readings"
down_revision: str | None = "0005_withdrawals"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(
            sa.Column(
                "substitute_table", sa.String(length=10), nullable=False, server_default="three"
            )
        )
        batch.add_column(
            sa.Column(
                "forfeit_points", sa.String(length=10), nullable=False, server_default="score"
            )
        )
        batch.add_column(
            sa.Column("team_substitute", sa.String(length=10), nullable=False, server_default="not")
        )
        batch.add_column(
            sa.Column("bye_points", sa.String(length=10), nullable=False, server_default="none")
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("bye_points")
        batch.drop_column("team_substitute")
        batch.drop_column("forfeit_points")
        batch.drop_column("substitute_table")
