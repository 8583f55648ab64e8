"""card plays and join minimums: each person's action cards chosen in finished games (for
their page), what a game's organiser asks of a player joining an open seat, the standings'
index (ordinal, player), and the level of a seat's house bot

Card plays of games that finished before this revision are counted by `pbem ratings
rebuild`.

Revision ID: f4b8d2a6c1e3
Revises: e2a7c4f9b1d6
Create Date: 2026-12-09 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f4b8d2a6c1e3'
down_revision = 'e2a7c4f9b1d6'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'card_plays',
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('card', sa.String(length=32), nullable=False),
        sa.Column('plays', sa.Integer(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'], name='fk_card_plays_player_id_players'
        ),
        sa.PrimaryKeyConstraint('player_id', 'card', name='pk_card_plays'),
    )
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('min_reliability', sa.Float(), nullable=True))
        batch.add_column(sa.Column('min_rating', sa.Float(), nullable=True))
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('bot_level', sa.String(length=16), nullable=True))
    op.drop_index('ix_player_ratings_ordinal', 'player_ratings')
    op.create_index(
        'ix_player_ratings_ordinal_player_id', 'player_ratings', ['ordinal', 'player_id']
    )


def downgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('bot_level')
    op.drop_index('ix_player_ratings_ordinal_player_id', 'player_ratings')
    op.create_index('ix_player_ratings_ordinal', 'player_ratings', ['ordinal'])
    with op.batch_alter_table('games') as batch:
        batch.drop_column('min_rating')
        batch.drop_column('min_reliability')
    op.drop_table('card_plays')
