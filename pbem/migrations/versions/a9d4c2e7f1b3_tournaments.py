"""tournaments: a series of games among entrants, its entries and each round's tables

Revision ID: a9d4c2e7f1b3
Revises: f7c3a1e9d5b8
Create Date: 2026-12-02 19:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a9d4c2e7f1b3"
down_revision = "f7c3a1e9d5b8"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("organiser_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("timing", sa.JSON(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("round_days", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("pools", sa.JSON(), nullable=True),
        sa.Column("round_due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournaments_round_due_at", "tournaments", ["round_due_at"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating_at_entry", sa.Float(), nullable=False),
        sa.Column("skipped_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("skipped_why", sa.String(length=16), nullable=True),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.Column("shares", sa.JSON(), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.UniqueConstraint("game_id"),
        sa.UniqueConstraint("tournament_id", "round", "number", name="uq_tournament_tables_place"),
    )
    op.create_index(
        "ix_tournament_tables_tournament_id", "tournament_tables", ["tournament_id"]
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_round_due_at", "tournaments")
    op.drop_table("tournaments")
