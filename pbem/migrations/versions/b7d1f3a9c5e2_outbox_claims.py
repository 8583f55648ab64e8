"""outbox claims: which sender's batch a row being sent belongs to, so that a dead sender's
batch is handed back at once but for the one row whose DATA may have been under way

Revision ID: b7d1f3a9c5e2
Revises: a5c3e9f1d7b4
Create Date: 2026-12-02 01:00:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "b7d1f3a9c5e2"
down_revision = "a5c3e9f1d7b4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("claim", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("claim")
