"""time banks: each seat's bank of a time-bank game, and when its clock last started

Revision ID: c6d4e8a2f1b7
Revises: b3e9d7a1c5f2
Create Date: 2026-11-27 05:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c6d4e8a2f1b7'
down_revision = 'b3e9d7a1c5f2'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Both null for a game of fixed deadlines (every game before this one).
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('bank_seconds', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('bank_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_column('bank_at')
        batch_op.drop_column('bank_seconds')
