"""drawn bodies: a player's page's whole body kept beside their drawn record, with a digest
of what else it shows (the name, rating, reliability and games going)

Revision ID: a5c3e9f1d7b4
Revises: e8b3f6a2d9c4
Create Date: 2026-11-29 10:30:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "a5c3e9f1d7b4"
down_revision = "e8b3f6a2d9c4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("drawn_records") as batch:
        batch.add_column(sa.Column("body", sa.Text(), nullable=True))
        batch.add_column(sa.Column("body_of", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("drawn_records") as batch:
        batch.drop_column("body_of")
        batch.drop_column("body")
