"""orders: a seat's power cards and Veto answers given in advance

Revision ID: c9a4e2f7d1b3
Revises: e6c2a9d4b8f0
Create Date: 2026-11-25 03:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c9a4e2f7d1b3'
down_revision = 'e6c2a9d4b8f0'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'orders',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('colour', sa.String(length=16), nullable=False),
        sa.Column('power_cards', sa.JSON(), nullable=False),
        sa.Column('veto_allow_round', sa.Integer(), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_orders_game_id_games'),
        sa.PrimaryKeyConstraint('game_id', 'colour', name='pk_orders'),
    )


def downgrade() -> None:
    op.drop_table('orders')
