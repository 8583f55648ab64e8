"""deadline extensions: the hours a game's organiser added to a pending deadline

Revision ID: d3b7e5f1a2c8
Revises: c5e8a2d4f7b3
Create Date: 2026-11-25 03:50:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd3b7e5f1a2c8'
down_revision = 'c5e8a2d4f7b3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('deadlines') as batch_op:
        batch_op.add_column(
            sa.Column('extended_hours', sa.Integer(), nullable=False, server_default='0')
        )


def downgrade() -> None:
    with op.batch_alter_table('deadlines') as batch_op:
        batch_op.drop_column('extended_hours')
