"""games.language: the language a game's mails are in for players who chose none

Revision ID: b8e4d2a6c0f3
Revises: a7d3c1e9f5b2
Create Date: 2026-11-25 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8e4d2a6c0f3'
down_revision = 'a7d3c1e9f5b2'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('language', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('language')
