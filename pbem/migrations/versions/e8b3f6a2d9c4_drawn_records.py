"""drawn records: a player's record as their page draws it, kept per language, and the
number on each player that a finished game raises (what is kept is good while it names it)

Revision ID: e8b3f6a2d9c4
Revises: d4e9a1c7b5f2
Create Date: 2026-11-29 04:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "e8b3f6a2d9c4"
down_revision = "d4e9a1c7b5f2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("record_seq", sa.Integer(), nullable=False, server_default="0")
        )
    op.create_table(
        "drawn_records",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("drawing", sa.String(length=64), nullable=False),
        sa.Column("record_seq", sa.Integer(), nullable=False),
        sa.Column("chart", sa.Text(), nullable=False),
        sa.Column("games", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_drawn_records_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", "language", name="pk_drawn_records"),
    )


def downgrade() -> None:
    op.drop_table("drawn_records")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("record_seq")
