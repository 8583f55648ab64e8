"""sign-in links: one-time links mailed to an address, to sign in without a password

Revision ID: c2f8a4d6e9b1
Revises: b7d3f5a9c1e4
Create Date: 2026-11-25 03:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c2f8a4d6e9b1'
down_revision = 'b7d3f5a9c1e4'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'sign_in_links',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('nonce_hash', sa.String(length=64), nullable=False),
        sa.Column('client', sa.String(length=64), nullable=False),
        sa.Column('next_path', sa.String(length=2000), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id', name='pk_sign_in_links'),
    )
    op.create_index(
        'ix_sign_in_links_email_created', 'sign_in_links', ['email', 'created_at']
    )
    op.create_index(
        'ix_sign_in_links_client_created', 'sign_in_links', ['client', 'created_at']
    )


def downgrade() -> None:
    op.drop_index('ix_sign_in_links_client_created', table_name='sign_in_links')
    op.drop_index('ix_sign_in_links_email_created', table_name='sign_in_links')
    op.drop_table('sign_in_links')
