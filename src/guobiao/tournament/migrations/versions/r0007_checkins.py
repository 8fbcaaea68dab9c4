"""Check-in: who is present for a session, and how an absent player is handled, by a substitute
or a re-draw with byes (issue 13, point 8).

Revision ID: 0007_checkins
Revises: 0006_readings
Create Date: 2026-12-01 20:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_checkins"
down_revision: str | None = "0006_readings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "checkins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("session", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("present", sa.Boolean(), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_checkins_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_checkins_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_checkins")),
        sa.UniqueConstraint(
            "tournament_id",
            "session",
            "player_id",
            name=op.f("uq_checkins_tournament_id_session_player_id"),
        ),
    )
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(
            sa.Column(
                "absent_policy", sa.String(length=10), nullable=False, server_default="substitute"
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("absent_policy")
    op.drop_table("checkins")
