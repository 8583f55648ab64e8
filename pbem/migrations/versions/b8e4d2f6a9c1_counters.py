"""counters: numbers raised with a change that what workers keep drawn is kept by

Revision ID: b8e4d2f6a9c1
Revises: d5a1f7c3e9b2
Create Date: 2026-12-04 04:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "b8e4d2f6a9c1"
down_revision = "d5a1f7c3e9b2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "counters",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_counters"),
    )


def downgrade() -> None:
    op.drop_table("counters")
