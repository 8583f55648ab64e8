"""rating history: each person's shown rating after their last 100 rated games, kept on their
rating's row for their page's chart, filled here from the results already kept

Revision ID: d4e9a1c7b5f2
Revises: c7d1e5a9f3b8
Create Date: 2026-11-29 03:00:00

"""

import itertools

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "d4e9a1c7b5f2"
down_revision = "c7d1e5a9f3b8"
branch_labels = None
depends_on = None

#: As `pbem.game.ratings.HISTORY_POINTS` was when this revision was written (a migration
#: does not change with the code).
POINTS = 100


def upgrade() -> None:
    with op.batch_alter_table("player_ratings") as batch:
        batch.add_column(sa.Column("history", sa.JSON(), nullable=True))
    results = sa.table(
        "game_ratings",
        sa.column("player_id", sa.Integer),
        sa.column("game_id", sa.Integer),
        sa.column("rated_at", sa.DateTime),
        sa.column("rated", sa.Boolean),
        sa.column("mu_before", sa.Float),
        sa.column("sigma_before", sa.Float),
        sa.column("mu_after", sa.Float),
        sa.column("sigma_after", sa.Float),
    )
    ratings = sa.table(
        "player_ratings", sa.column("player_id", sa.Integer), sa.column("history", sa.JSON)
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(results)
        .where(results.c.rated == sa.true())
        .order_by(results.c.player_id, results.c.rated_at, results.c.game_id)
    )
    filled = []
    for player_id, group in itertools.groupby(rows, key=lambda row: row.player_id):
        last = list(group)[-POINTS:]
        shown = [last[0].mu_before - 3 * last[0].sigma_before]
        shown += [row.mu_after - 3 * row.sigma_after for row in last]
        filled.append({"player": player_id, "shown": shown})
    if filled:
        connection.execute(
            sa.update(ratings)
            .where(ratings.c.player_id == sa.bindparam("player"))
            .values(history=sa.bindparam("shown", type_=sa.JSON)),
            filled,
        )


def downgrade() -> None:
    with op.batch_alter_table("player_ratings") as batch:
        batch.drop_column("history")
