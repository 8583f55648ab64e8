"""notes: a player's private notes on a game

Revision ID: c5e8a2d4f7b3
Revises: c2f8a4d6e9b1
Create Date: 2026-12-01 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c5e8a2d4f7b3'
down_revision = 'c2f8a4d6e9b1'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'notes',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_notes_game_id_games'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name='fk_notes_player_id_players'),
        sa.PrimaryKeyConstraint('player_id', 'game_id', name='pk_notes'),
    )


def downgrade() -> None:
    op.drop_table('notes')
