"""heartbeats: when the sweep and the mail sender last ran

Revision ID: f2b6c8d4e0a7
Revises: e4f1a9c7b2d5
Create Date: 2026-11-22 11:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2b6c8d4e0a7'
down_revision = 'e4f1a9c7b2d5'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'heartbeats',
        sa.Column('name', sa.String(length=32), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('name', name='pk_heartbeats'),
    )


def downgrade() -> None:
    op.drop_table('heartbeats')
