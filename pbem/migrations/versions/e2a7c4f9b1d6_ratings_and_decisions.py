"""ratings and decisions: each person's rating, their result in each rated game, and each of
their decisions that closed (for reliability)

Games that finished before this revision are rated by `pbem ratings rebuild`.

Revision ID: e2a7c4f9b1d6
Revises: d1f7a3c5e9b2
Create Date: 2026-12-08 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e2a7c4f9b1d6'
down_revision = 'd1f7a3c5e9b2'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'player_ratings',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('ordinal', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('games_2', sa.Integer(), nullable=False),
        sa.Column('games_3', sa.Integer(), nullable=False),
        sa.Column('games_4', sa.Integer(), nullable=False),
        sa.Column('games_5', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'], name='fk_player_ratings_player_id_players'
        ),
        sa.PrimaryKeyConstraint('player_id', name='pk_player_ratings'),
    )
    op.create_index('ix_player_ratings_ordinal', 'player_ratings', ['ordinal'])
    op.create_table(
        'game_ratings',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('score', sa.Integer(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu_after', sa.Float(), nullable=False),
        sa.Column('sigma_after', sa.Float(), nullable=False),
        sa.Column('bot_finished', sa.Boolean(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('rated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_game_ratings_game_id_games'),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'], name='fk_game_ratings_player_id_players'
        ),
        sa.PrimaryKeyConstraint('id', name='pk_game_ratings'),
        sa.UniqueConstraint('game_id', 'player_id', name='uq_game_ratings_game_id_player_id'),
    )
    op.create_index(
        'ix_game_ratings_player_id_rated_at', 'game_ratings', ['player_id', 'rated_at']
    )
    op.create_table(
        'decisions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('colour', sa.String(length=16), nullable=False),
        sa.Column('decision', sa.String(length=64), nullable=False),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('how', sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_decisions_game_id_games'),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'], name='fk_decisions_player_id_players'
        ),
        sa.PrimaryKeyConstraint('id', name='pk_decisions'),
    )
    op.create_index('ix_decisions_player_id_id', 'decisions', ['player_id', 'id'])


def downgrade() -> None:
    op.drop_index('ix_decisions_player_id_id', 'decisions')
    op.drop_table('decisions')
    op.drop_index('ix_game_ratings_player_id_rated_at', 'game_ratings')
    op.drop_table('game_ratings')
    op.drop_index('ix_player_ratings_ordinal', 'player_ratings')
    op.drop_table('player_ratings')
