"""outbox: messages written with the change that causes them; a seat may be declined

Revision ID: c3a5f2d8e6b1
Revises: b7d1e0c4a912
Create Date: 2026-11-22 09:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3a5f2d8e6b1'
down_revision = 'b7d1e0c4a912'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'outbox',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('channel', sa.String(length=16), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('recipient', sa.String(length=2000), nullable=False),
        sa.Column('message', sa.Text(), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('attempts', sa.Integer(), nullable=False),
        sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_outbox_game_id_games'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name='fk_outbox_player_id_players'),
        sa.PrimaryKeyConstraint('id', name='pk_outbox'),
    )
    op.create_index('ix_outbox_game_id', 'outbox', ['game_id'])
    op.create_index('ix_outbox_status_due', 'outbox', ['status', 'next_attempt_at'])
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('declined_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_column('declined_at')
    op.drop_index('ix_outbox_status_due', table_name='outbox')
    op.drop_index('ix_outbox_game_id', table_name='outbox')
    op.drop_table('outbox')
