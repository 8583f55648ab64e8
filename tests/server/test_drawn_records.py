"""A player's record as their page draws it (the rating's chart, the finished games, the cards
chosen), kept per language in `drawn_records`: drawn by the first view, read kept by the
next ones, drawn again once a finished game raises the player's `record_seq`, and never
served from an older record, another drawing or another language."""

from __future__ import annotations

import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
import sqlalchemy.exc

from pbem.extensions import db
from pbem.game.ratings import Drawn, DrawnAs
from pbem.play import ratings as rating_play
from pbem.play import records
from pbem.store.models import Decision, DrawnRecord, GameRating, Player, Seat
from tests.server.test_player_records import add_decisions
from tests.server.test_ratings import new_game_of, people, play_out

COLOURS = ["red", "blue", "green"]


@pytest.fixture
def finished_and_going(app, api):
    """Three people who finished a game together, the first's id, and a second game going."""
    emails = people(api, 3)
    play_out(app, new_game_of(api, emails, COLOURS), seed=7)
    going = new_game_of(api, emails, COLOURS)
    with app.app_context():
        ann = db.session.execute(sa.select(Player.id).where(Player.email == emails[0]))
        return ann.scalar_one(), going


def kept_rows(app, player_id: int) -> dict[str, dict]:
    """What is kept drawn of a player's record, by language."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(DrawnRecord.__table__).where(DrawnRecord.player_id == player_id)
        )
        return {row["language"]: dict(row) for row in rows.mappings()}


def record_seq(app, player_id: int) -> int:
    with app.app_context():
        return db.session.get(Player, player_id).record_seq


def finished_ids(html: str) -> list[str]:
    return re.findall(r'<tr data-game="(\d+)">', html)


def tamper(app, player_id: int, language: str, mark: str) -> None:
    """Put `mark` into what is kept (the drawn record and the page's body drawn with it), as
    only a read of the kept row would show it."""
    with app.app_context():
        db.session.execute(
            sa.update(DrawnRecord)
            .where(DrawnRecord.player_id == player_id, DrawnRecord.language == language)
            .values(
                games=DrawnRecord.games + f"<p>{mark}</p>",
                body=DrawnRecord.body + f"<p>{mark}</p>",
            )
        )
        db.session.commit()


def test_the_first_view_draws_the_record_and_keeps_it_for_the_next(app, client, finished_and_going):
    ann, _going = finished_and_going
    assert kept_rows(app, ann) == {}
    drawn = client.get(f"/players/{ann}").get_data(as_text=True)
    kept = kept_rows(app, ann)["en"]
    assert kept["record_seq"] == record_seq(app, ann) == 1
    assert 'class="rating-line"' in kept["chart"] and kept["chart"] in drawn
    assert 'class="games finished-games"' in kept["games"] and kept["games"] in drawn
    # Read kept, the page is the page drawn: the same bytes.
    assert client.get(f"/players/{ann}").get_data(as_text=True) == drawn
    tamper(app, ann, "en", "read from the kept row")
    assert "read from the kept row" in client.get(f"/players/{ann}").get_data(as_text=True)


def test_the_pages_body_is_kept_whole_until_what_else_it_shows_changes(
    app, api, client, finished_and_going, monkeypatch
):
    """Asked again with nothing changed, the page is its kept body (nothing drawn); a new
    name, a decision closed (the reliability) and a game begun (games going) change what the
    page shows without a finished game: each is drawn and kept anew."""
    ann, going = finished_and_going
    drawn = client.get(f"/players/{ann}").get_data(as_text=True)
    kept = kept_rows(app, ann)["en"]
    assert kept["body"] and kept["body"] in drawn and len(kept["body_of"]) == 32
    from pbem.web import records as record_pages

    drawing_bodies = record_pages._player_body

    def not_drawn(*args):
        raise AssertionError("the page's body was drawn again")

    monkeypatch.setattr(record_pages, "_player_body", not_drawn)
    assert client.get(f"/players/{ann}").get_data(as_text=True) == drawn
    monkeypatch.setattr(record_pages, "_player_body", drawing_bodies)

    with app.app_context():
        # Only the kept drawing marked: a body drawn again is drawn from it, not read anew.
        db.session.execute(
            sa.update(DrawnRecord)
            .where(DrawnRecord.player_id == ann)
            .values(games=DrawnRecord.games + "<p>the kept drawing</p>")
        )
        db.session.get(Player, ann).name = "Ann the Renamed"
        db.session.commit()
    renamed = client.get(f"/players/{ann}").get_data(as_text=True)
    assert "<h1><bdi>Ann the Renamed</bdi></h1>" in renamed and "<p>the kept drawing</p>" in renamed
    assert kept_rows(app, ann)["en"]["body_of"] != kept["body_of"]

    with app.app_context():
        owed = len(db.session.scalars(sa.select(Decision).where(Decision.player_id == ann)).all())
    add_decisions(app, ann, going, ["timeout"])
    answered = client.get(f"/players/{ann}").get_data(as_text=True)
    assert f"of their last {owed + 1} decisions" in answered
    assert f"of their last {owed} decisions" not in answered

    with app.app_context():  # the same three begin another game
        seated = db.session.scalars(
            sa.select(Player.email)
            .join(Seat, Seat.player_id == Player.id)
            .where(Seat.game_id == going)
            .order_by(Seat.position)
        ).all()
    begun = new_game_of(api, list(seated), COLOURS)
    listed = client.get(f"/players/{ann}").get_data(as_text=True)
    assert f'<li data-game="{begun}">' in listed and f'<li data-game="{going}">' in listed
    assert f'<li data-game="{begun}">' not in answered
    # What is kept is what was drawn last: served as it is, nothing drawn.
    monkeypatch.setattr(record_pages, "_player_body", not_drawn)
    assert client.get(f"/players/{ann}").get_data(as_text=True) == listed


def test_a_stale_body_whose_drawing_went_meanwhile_is_drawn_from_all_read_anew(
    app, client, finished_and_going, monkeypatch
):
    """The body is stale and the drawing read with it is gone by the next read (another view
    kept a newer one): the page reads and draws it all again."""
    ann, _going = finished_and_going
    first = client.get(f"/players/{ann}").get_data(as_text=True)
    with app.app_context():
        db.session.get(Player, ann).name = "Ann Again"
        db.session.commit()
    from pbem.game import ratings as record_reads

    monkeypatch.setattr(record_reads, "drawn_record", lambda *args: None)
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    assert "<h1><bdi>Ann Again</bdi></h1>" in html
    assert finished_ids(html) == finished_ids(first) and len(finished_ids(html)) == 1
    assert kept_rows(app, ann)["en"]["body"] in html


def test_a_finished_game_makes_the_kept_record_stale(app, client, finished_and_going):
    ann, going = finished_and_going
    client.get(f"/players/{ann}")
    tamper(app, ann, "en", "drawn before the second game")
    play_out(app, going, seed=8)
    assert record_seq(app, ann) == 2
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    assert "drawn before the second game" not in html
    assert finished_ids(html)[0] == str(going) and len(finished_ids(html)) == 2
    assert kept_rows(app, ann)["en"]["record_seq"] == 2


def test_a_drawing_of_an_older_record_written_late_is_not_served(app, client, finished_and_going):
    """A view that read before a game ended and keeps its drawing after: it is kept under
    the number it read, so the next view draws again."""
    ann, going = finished_and_going
    client.get(f"/players/{ann}")
    drawing = kept_rows(app, ann)["en"]["drawing"]
    play_out(app, going, seed=8)
    with app.test_request_context():
        stale = Drawn("", "<p>the record before the second game</p>")
        assert records.keep_drawn_record(ann, DrawnAs("en", drawing), 1, stale)
    html = client.get(f"/players/{ann}").get_data(as_text=True)
    assert "the record before the second game" not in html and len(finished_ids(html)) == 2


def test_each_language_keeps_its_own_drawing(app, client, finished_and_going):
    ann, _going = finished_and_going
    english = client.get(f"/players/{ann}").get_data(as_text=True)
    german = client.get(f"/players/{ann}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    kept = kept_rows(app, ann)
    assert set(kept) == {"en", "de"}
    assert kept["en"]["games"] in english and kept["de"]["games"] in german
    assert "Finished games" in kept["en"]["games"] and "Finished games" not in kept["de"]["games"]
    tamper(app, ann, "de", "only in German")
    assert "only in German" not in client.get(f"/players/{ann}").get_data(as_text=True)


def test_links_kept_point_where_the_app_is_mounted(app, client, finished_and_going):
    ann, _going = finished_and_going
    client.get(f"/players/{ann}")
    mounted = client.get(f"/players/{ann}", base_url="http://localhost/pbem")
    links = re.findall(r'<a href="([^"]*/games/\d+)"', mounted.get_data(as_text=True))
    assert links and all(link.startswith("/pbem/games/") for link in links)
    root = client.get(f"/players/{ann}").get_data(as_text=True)
    assert not re.search(r'href="/pbem/', root) and re.search(r'href="/games/\d+"', root)


def test_a_game_a_person_played_among_bots_raises_their_number_too(app, api, client):
    """Unrated (no other person), yet a result on their page: what was kept is stale."""
    emails = people(api, 1) + ["bot", "bot"]
    game_id = new_game_of(api, emails, COLOURS, bots=("blue", "green"))
    with app.app_context():
        ann = db.session.execute(sa.select(Player.id).where(Player.email == emails[0]))
        ann = ann.scalar_one()
    client.get(f"/players/{ann}")
    assert kept_rows(app, ann)["en"]["record_seq"] == 0
    play_out(app, game_id, seed=3)
    with app.app_context():
        result = db.session.execute(sa.select(GameRating).where(GameRating.player_id == ann))
        assert result.scalar_one().rated is False
    assert record_seq(app, ann) == 1
    assert finished_ids(client.get(f"/players/{ann}").get_data(as_text=True)) == [str(game_id)]


def test_a_rebuild_forgets_every_drawing(app, client, finished_and_going):
    ann, _going = finished_and_going
    drawn = client.get(f"/players/{ann}").get_data(as_text=True)
    with app.app_context():
        rating_play.rebuild()
        db.session.commit()
    assert kept_rows(app, ann) == {}
    assert client.get(f"/players/{ann}").get_data(as_text=True) == drawn


def test_a_database_too_busy_to_keep_it_still_gets_the_page(
    app, client, finished_and_going, monkeypatch, caplog
):
    ann, _going = finished_and_going
    drawn = client.get(f"/players/{ann}").get_data(as_text=True)
    with app.app_context():
        db.session.execute(sa.delete(DrawnRecord))
        db.session.commit()

    def locked(*_args):
        raise sqlalchemy.exc.OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(records, "_upsert", locked)
    with caplog.at_level(logging.WARNING):
        answer = client.get(f"/players/{ann}")
    assert answer.status_code == 200 and answer.get_data(as_text=True) == drawn
    assert kept_rows(app, ann) == {}
    assert any("a drawn record not kept" in r.getMessage() for r in caplog.records)


def test_views_drawing_it_at_once_all_answer_and_keep_one_row(app, finished_and_going):
    """Eight first views at once (on PostgreSQL, eight transactions writing the same row):
    each gets the page, and one drawing is kept."""
    ann, _going = finished_and_going
    start = threading.Barrier(8)

    def view(_n: int) -> tuple[int, str]:
        client = app.test_client()
        start.wait()
        answer = client.get(f"/players/{ann}")
        return answer.status_code, answer.get_data(as_text=True)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(view, range(8)))
    assert {status for status, _ in answers} == {200}
    assert len({html for _, html in answers}) == 1
    kept = kept_rows(app, ann)
    assert list(kept) == ["en"] and kept["en"]["games"] in answers[0][1]


def test_a_drawing_is_named_by_its_templates_code_catalogs_and_root(app, tmp_path, monkeypatch):
    """A release that changes any of them draws every record again."""
    from pbem.web import records as drawing

    with app.test_request_context():
        named = drawing._drawing_now("")
        assert drawing._drawing_now("") == named and drawing._drawing_now("/pbem") != named
        catalog = tmp_path / "de" / "LC_MESSAGES"
        catalog.mkdir(parents=True)
        (catalog / "messages.mo").write_bytes(b"a catalog updated")
        monkeypatch.setattr(drawing, "TRANSLATIONS_DIR", tmp_path)
        assert drawing._drawing_now("") != named
        monkeypatch.undo()
        monkeypatch.setattr(
            drawing, "_DRAWN_TEMPLATES", ("web/player_chart.html", "web/ratings.html")
        )
        assert drawing._drawing_now("") != named
        monkeypatch.undo()
        monkeypatch.setattr(drawing, "_DRAWN_BY", drawing._DRAWN_BY[:-1])
        assert drawing._drawing_now("") != named
