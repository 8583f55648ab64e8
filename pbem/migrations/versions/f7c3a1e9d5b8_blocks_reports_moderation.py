"""blocks, talk mutes, reports and moderation: players keeping others away, an operator's
queue of reports and the log of what operators did, and players suspended or banned

Revision ID: f7c3a1e9d5b8
Revises: b7d1f3a9c5e2
Create Date: 2026-12-02 18:30:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "f7c3a1e9d5b8"
down_revision = "b7d1f3a9c5e2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("operator", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "blocks",
        sa.Column("blocker_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "talk_mutes",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("colour", sa.String(length=16), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("subject_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_reports_closed_at_id", "reports", ["closed_at", "id"])
    op.create_index("ix_reports_subject_id", "reports", ["subject_id"])
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("moderator", sa.String(length=200), nullable=False),
        sa.Column("report_id", sa.Integer(), sa.ForeignKey("reports.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_moderation_actions_player_id_id", "moderation_actions", ["player_id", "id"]
    )


def downgrade() -> None:
    op.drop_table("moderation_actions")
    op.drop_table("reports")
    op.drop_table("talk_mutes")
    op.drop_table("blocks")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("operator")
        batch.drop_column("banned_at")
        batch.drop_column("suspended_until")
