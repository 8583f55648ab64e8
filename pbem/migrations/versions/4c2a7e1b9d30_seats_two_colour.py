"""seats: one player may hold two seats (two-colour variant); each position once

Revision ID: 4c2a7e1b9d30
Revises: 9fddc03e9b2e
Create Date: 2026-11-22 01:05:00

The first revision made (game_id, player_id) unique without a name. PostgreSQL named it
itself; SQLite keeps it nameless, so there the table is rebuilt (batch mode) with a naming
convention that lets the reflected constraint be dropped by a name of our choosing.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4c2a7e1b9d30'
down_revision = '9fddc03e9b2e'
branch_labels = None
depends_on = None

# Applied to constraints reflected without a name (SQLite), so batch mode can drop them.
NAMING = {"uq": "uq_%(table_name)s_%(column_0_N_name)s"}


def _unique_name(columns: list[str]) -> str:
    """The database's name for the unique constraint on `columns` of seats, or our
    convention's name when the database has none."""
    for constraint in sa.inspect(op.get_bind()).get_unique_constraints("seats"):
        if constraint["column_names"] == columns and constraint["name"]:
            return constraint["name"]
    return "uq_seats_" + "_".join(columns)


def upgrade() -> None:
    old = _unique_name(["game_id", "player_id"])
    with op.batch_alter_table("seats", naming_convention=NAMING) as batch_op:
        batch_op.drop_constraint(old, type_="unique")
        batch_op.create_unique_constraint("uq_seats_game_id_position", ["game_id", "position"])


def downgrade() -> None:
    with op.batch_alter_table("seats", naming_convention=NAMING) as batch_op:
        batch_op.drop_constraint("uq_seats_game_id_position", type_="unique")
        batch_op.create_unique_constraint("uq_seats_game_id_player_id", ["game_id", "player_id"])
