"""inbound mails: each handled Message-ID once, answers counted per address

Revision ID: e4f1a9c7b2d5
Revises: d8e2b4f6a1c3
Create Date: 2026-11-22 09:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e4f1a9c7b2d5'
down_revision = 'd8e2b4f6a1c3'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'inbound_mails',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('message_id', sa.String(length=255), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=True),
        sa.Column('colour', sa.String(length=16), nullable=True),
        sa.Column('sender', sa.String(length=254), nullable=False),
        sa.Column('outcome', sa.String(length=16), nullable=False),
        sa.Column('answered_to', sa.String(length=254), nullable=True),
        sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name='pk_inbound_mails'),
        sa.UniqueConstraint('message_id', name='uq_inbound_mails_message_id'),
    )
    op.create_index('ix_inbound_mails_answered_to', 'inbound_mails', ['answered_to', 'received_at'])


def downgrade() -> None:
    op.drop_index('ix_inbound_mails_answered_to', table_name='inbound_mails')
    op.drop_table('inbound_mails')
