"""Withdrawals and disqualifications; how a withdrawn player's sessions count; final-round
pairing (issue 13, points 3 and 5).

Revision ID: 0005_withdrawals
Revises: 0004_player_names
Create Date: 2026-12-01 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_withdrawals"
down_revision: str | None = "0004_player_names"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "withdrawals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("from_session", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=20), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "reason IN ('withdrawn', 'disqualified')", name=op.f("ck_withdrawals_reason")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_withdrawals_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_withdrawals_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_withdrawals")),
        sa.UniqueConstraint(
            "tournament_id", "player_id", name=op.f("uq_withdrawals_tournament_id_player_id")
        ),
    )
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(
            sa.Column(
                "withdrawn_results", sa.String(length=10), nullable=False, server_default="keep"
            )
        )
        batch.add_column(sa.Column("final_pairing", sa.String(length=20), nullable=True))
        batch.add_column(
            sa.Column("final_sessions", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("pairing", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("pairing")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("final_sessions")
        batch.drop_column("final_pairing")
        batch.drop_column("withdrawn_results")
    op.drop_table("withdrawals")
