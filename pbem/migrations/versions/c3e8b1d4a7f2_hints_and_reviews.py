"""hints and reviews: a seat's hint asked and answered, a finished game's review

Revision ID: c3e8b1d4a7f2
Revises: a9d4c2e7f1b3
Create Date: 2026-12-03 12:30:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "c3e8b1d4a7f2"
down_revision = "a9d4c2e7f1b3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hints",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("colour", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("asked_by", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("via", sa.String(length=8), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("advice", sa.JSON(), nullable=True),
        sa.UniqueConstraint("game_id", "colour", "seq", name="uq_hints_decision"),
    )
    op.create_index("ix_hints_answered_at", "hints", ["answered_at"])
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("review", sa.JSON(), nullable=True),
    )
    op.create_index("ix_game_reviews_due_at", "game_reviews", ["due_at"])
    op.create_index("ix_game_reviews_done_at", "game_reviews", ["done_at"])


def downgrade() -> None:
    op.drop_index("ix_game_reviews_done_at", table_name="game_reviews")
    op.drop_index("ix_game_reviews_due_at", table_name="game_reviews")
    op.drop_table("game_reviews")
    op.drop_index("ix_hints_answered_at", table_name="hints")
    op.drop_table("hints")
