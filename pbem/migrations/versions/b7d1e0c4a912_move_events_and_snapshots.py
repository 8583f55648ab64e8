"""moves keep their events; snapshots of the state at each round's start

Revision ID: b7d1e0c4a912
Revises: 4c2a7e1b9d30
Create Date: 2026-11-22 09:00:00

Existing games are backfilled by replaying their logs through the engine: each move gets its
events, and each game a snapshot at setup and after every move that started a round. A log
the engine no longer accepts keeps null events from that move on (shown as revealing
nothing, so no secret pick is shown early).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d1e0c4a912'
down_revision = '4c2a7e1b9d30'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('moves') as batch_op:
        batch_op.add_column(sa.Column('events', sa.JSON(), nullable=True))
    op.create_table(
        'snapshots',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('state', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name='fk_snapshots_game_id_games'),
        sa.PrimaryKeyConstraint('game_id', 'seq', name='pk_snapshots'),
    )
    _backfill(op.get_bind())


def _backfill(connection: sa.Connection) -> None:
    import engine

    games = sa.table(
        'games', sa.column('id'), sa.column('colours', sa.JSON), sa.column('seed'),
        sa.column('options', sa.JSON),
    )
    moves = sa.table(
        'moves', sa.column('id'), sa.column('game_id'), sa.column('seq'), sa.column('colour'),
        sa.column('move', sa.JSON), sa.column('events', sa.JSON),
    )
    snapshots = sa.table(
        'snapshots', sa.column('game_id'), sa.column('seq'), sa.column('state', sa.JSON)
    )
    for game in connection.execute(sa.select(games)).all():
        state = engine.new_game(game.colours, seed=game.seed, options=game.options or None)
        connection.execute(
            snapshots.insert().values(game_id=game.id, seq=0, state=engine.to_dict(state))
        )
        log = connection.execute(
            sa.select(moves).where(moves.c.game_id == game.id).order_by(moves.c.seq)
        ).all()
        for row in log:
            try:
                state, events = engine.apply(state, row.colour, row.move)
            except engine.IllegalMove:
                break
            connection.execute(
                moves.update().where(moves.c.id == row.id).values(events=events)
            )
            if any(e["type"] == "round_started" for e in events):
                connection.execute(
                    snapshots.insert().values(
                        game_id=game.id, seq=row.seq, state=engine.to_dict(state)
                    )
                )


def downgrade() -> None:
    op.drop_table('snapshots')
    with op.batch_alter_table('moves') as batch_op:
        batch_op.drop_column('events')
