"""players.session_epoch: signing out everywhere ends every session signed in before

Revision ID: a7d3c1e9f5b2
Revises: c9a4e2f7d1b3
Create Date: 2026-11-25 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7d3c1e9f5b2'
down_revision = 'c9a4e2f7d1b3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.add_column(
            sa.Column('session_epoch', sa.Integer(), server_default='0', nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_column('session_epoch')
