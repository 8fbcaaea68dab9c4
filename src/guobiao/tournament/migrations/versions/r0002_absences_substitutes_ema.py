"""Byes, absences and forfeits per session; whole-session substitutes; EMA player fields.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 21:15:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "session_absences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('bye', 'absent', 'forfeit')", name=op.f("ck_session_absences_kind")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_session_absences_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_session_absences_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_absences")),
        sa.UniqueConstraint(
            "session_id", "player_id", name=op.f("uq_session_absences_session_id_player_id")
        ),
    )
    with op.batch_alter_table("seat_assignments") as batch:
        batch.add_column(sa.Column("replaces_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_seat_assignments_replaces_id_players"),
            "players",
            ["replaces_id"],
            ["id"],
            ondelete="RESTRICT",
        )
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("ema_id", sa.String(length=20), nullable=True))
        batch.add_column(sa.Column("country", sa.String(length=60), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("country")
        batch.drop_column("ema_id")
    with op.batch_alter_table("seat_assignments") as batch:
        batch.drop_constraint(op.f("fk_seat_assignments_replaces_id_players"), type_="foreignkey")
        batch.drop_column("replaces_id")
    op.drop_table("session_absences")
