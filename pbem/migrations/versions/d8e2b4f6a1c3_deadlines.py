"""deadlines, absences; seats count timeouts and may be played by a bot

Revision ID: d8e2b4f6a1c3
Revises: c3a5f2d8e6b1
Create Date: 2026-11-22 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd8e2b4f6a1c3'
down_revision = 'c3a5f2d8e6b1'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'deadlines',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('colour', sa.String(length=16), nullable=False),
        sa.Column('decision', sa.String(length=64), nullable=False),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('next_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('reminders_sent', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_deadlines_game_id_games'),
        sa.PrimaryKeyConstraint('id', name='pk_deadlines'),
        sa.UniqueConstraint('game_id', 'colour', 'decision', name='uq_deadlines_game_colour'),
    )
    op.create_index('ix_deadlines_game_id', 'deadlines', ['game_id'])
    op.create_index('ix_deadlines_next_at', 'deadlines', ['next_at'])
    op.create_table(
        'absences',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], name='fk_absences_player_id_players'),
        sa.PrimaryKeyConstraint('id', name='pk_absences'),
    )
    op.create_index('ix_absences_player_id', 'absences', ['player_id'])
    with op.batch_alter_table('seats') as batch_op:
        batch_op.add_column(sa.Column('timeouts', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('bot', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('games') as batch_op:
        batch_op.add_column(sa.Column('abandon_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_games_abandon_at', ['abandon_at'])


def downgrade() -> None:
    with op.batch_alter_table('games') as batch_op:
        batch_op.drop_index('ix_games_abandon_at')
        batch_op.drop_column('abandon_at')
    with op.batch_alter_table('seats') as batch_op:
        batch_op.drop_column('bot')
        batch_op.drop_column('timeouts')
    op.drop_table('absences')
    op.drop_table('deadlines')
