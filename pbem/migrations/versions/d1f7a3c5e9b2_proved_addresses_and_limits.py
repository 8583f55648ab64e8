"""Safe to open to strangers: proved addresses, address versions, registration links, rate
counters, the suppression list and ended sessions

Revision ID: d1f7a3c5e9b2
Revises: b8e4d2a6c0f3
Create Date: 2026-11-26 15:00:00

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = 'd1f7a3c5e9b2'
down_revision = 'b8e4d2a6c0f3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No player's address counts as proved yet: an account made by POST /api/players before
    # was never proved; its holder proves it by the next link mailed to it they follow.
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('email_proved_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column('email_version', sa.Integer(), server_default='0', nullable=False)
        )
    with op.batch_alter_table('sign_in_links') as batch:
        batch.add_column(
            sa.Column('purpose', sa.String(16), server_default='sign_in', nullable=False)
        )
        batch.add_column(sa.Column('name', sa.String(100), nullable=True))
    op.create_table(
        'rate_counts',
        sa.Column('key', sa.String(300), primary_key=True),
        sa.Column('window_start', sa.BigInteger(), primary_key=True),
        sa.Column('count', sa.Integer(), nullable=False),
    )
    op.create_table(
        'suppressed_addresses',
        sa.Column('email', sa.String(254), primary_key=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'ended_sessions',
        sa.Column('sid', sa.String(64), primary_key=True),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_ended_sessions_ended_at', 'ended_sessions', ['ended_at'])


def downgrade() -> None:
    op.drop_index('ix_ended_sessions_ended_at', 'ended_sessions')
    op.drop_table('ended_sessions')
    op.drop_table('suppressed_addresses')
    op.drop_table('rate_counts')
    with op.batch_alter_table('sign_in_links') as batch:
        batch.drop_column('name')
        batch.drop_column('purpose')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('email_version')
        batch.drop_column('email_proved_at')
