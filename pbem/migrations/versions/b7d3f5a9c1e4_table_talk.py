"""table talk: the words to the table written in replies, kept in the game's record

Revision ID: b7d3f5a9c1e4
Revises: a6c9e3f1b8d2
Create Date: 2026-11-24 22:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d3f5a9c1e4'
down_revision = 'a6c9e3f1b8d2'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'table_talk',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('colour', sa.String(length=16), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('source', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_table_talk_game_id_games'),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'], name='fk_table_talk_player_id_players'
        ),
        sa.PrimaryKeyConstraint('id', name='pk_table_talk'),
    )
    op.create_index('ix_table_talk_game_id_id', 'table_talk', ['game_id', 'id'])


def downgrade() -> None:
    op.drop_index('ix_table_talk_game_id_id', table_name='table_talk')
    op.drop_table('table_talk')
