"""bot ratings: each house bot level's rating, from its rated games against people

The bot ratings of games that finished before this revision are rated by `pbem ratings
rebuild`.

Revision ID: d5a1f7c3e9b2
Revises: c3e8b1d4a7f2
Create Date: 2026-12-12 10:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "d5a1f7c3e9b2"
down_revision = "c3e8b1d4a7f2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_ratings",
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("level", name="pk_bot_ratings"),
    )


def downgrade() -> None:
    op.drop_table("bot_ratings")
