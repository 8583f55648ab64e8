"""calendar feeds: each player's private calendar link (a seed and its token's hash), and
how many times a deadline moved after it opened (the feed's SEQUENCE)

Revision ID: b3e9d7a1c5f2
Revises: f4b8d2a6c1e3
Create Date: 2026-11-27 05:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b3e9d7a1c5f2'
down_revision = 'f4b8d2a6c1e3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('calendar_seed', sa.String(length=64), nullable=True))
        batch.add_column(sa.Column('calendar_token_hash', sa.String(length=64), nullable=True))
        batch.create_unique_constraint(
            'uq_players_calendar_token_hash', ['calendar_token_hash']
        )
    with op.batch_alter_table('deadlines') as batch:
        batch.add_column(sa.Column('moved', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('deadlines') as batch:
        batch.drop_column('moved')
    with op.batch_alter_table('players') as batch:
        batch.drop_constraint('uq_players_calendar_token_hash', type_='unique')
        batch.drop_column('calendar_token_hash')
        batch.drop_column('calendar_seed')
