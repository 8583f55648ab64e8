"""Which connection a request reads a game with (`pbem.store.reads`): a GET reads on a
connection of its own, without an ORM session, given back when the request ends; whatever
writes, or may, reads on the session's connection and so sees its own writes."""

from pbem.extensions import db
from pbem.store import reads
from pbem.store.models import Game
from pbem.web import pages
from pbem.web.signin import Reader


def test_a_get_reads_on_its_own_connection_given_back_at_the_end(app, api):
    game_id, _ = api.new_game(["red", "blue", "green"])
    with app.test_request_context(f"/games/{game_id}"):
        taken = reads.connection()
        assert reads.connection() is taken
        page, _ = pages.board_page(game_id, Reader(None, 0))
        assert page.game_id == game_id and "data-region" in page.board
        # The page was read without an ORM session.
        assert not db.session.registry.has()
        assert not taken.closed
    assert taken.closed


def test_whatever_writes_reads_on_the_sessions_connection(app, api):
    game_id, _ = api.new_game(["red", "blue", "green"])
    with app.test_request_context(f"/games/{game_id}/moves", method="POST"):
        assert reads.connection() is db.session.connection()
    with app.app_context():  # the scheduler, the mail door
        assert reads.connection() is db.session.connection()
    with app.test_request_context(f"/games/{game_id}"):
        # A GET that has begun the session's transaction (and may have written in it).
        game = db.session.get(Game, game_id)
        game.title = "Renamed, not committed"
        db.session.flush()
        connection = reads.connection()
        assert connection is db.session.connection()
        assert pages.board_page(game_id, Reader(None, 0))[0].title == "Renamed, not committed"
        db.session.rollback()
