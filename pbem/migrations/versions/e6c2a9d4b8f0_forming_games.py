"""forming games: a seat's acceptance, and open seats anyone may join

Revision ID: e6c2a9d4b8f0
Revises: d3b7e5f1a2c8
Create Date: 2026-11-25 04:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e6c2a9d4b8f0'
down_revision = 'd3b7e5f1a2c8'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('accepted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(
            sa.Column('open', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_column('open')
        batch_op.drop_column('accepted_at')
