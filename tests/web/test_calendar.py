"""A player's private calendar feed of their deadlines: one event per decision they owe,
read back with `icalendar`; its link made and made anew on `/me` and by the API, the old
one answering 404 as a link never made does; the migration that keeps what it needs."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade
from icalendar import Calendar

from pbem import create_app
from pbem.clock import set_now
from pbem.extensions import db
from pbem.game.calendar import ALARM_WITHOUT_REMINDER
from pbem.languages import _, in_language
from pbem.timing import policy
from pbem.words import ASKS
from tests.server.conftest import one_player_and_game, unmigrated_database
from tests.web.helpers import page, sign_in_seat
from tests.web.html import parse
from tests.web.test_new_game import sign_in_with_key

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)  # a Monday
BASE = "http://127.0.0.1:5000"  # the tests set no PBEM_BASE_URL: the served default


def calendar_url(api, key: str, method: str = "GET") -> str:
    answer = api.client.open("/api/players/me/calendar", method=method, headers=api.auth(key))
    assert answer.status_code == 200, answer.get_json()
    assert answer.headers["Cache-Control"] == "no-store"  # the link is a credential
    return answer.get_json()["url"]


def fetch(client, url: str) -> Calendar:
    answer = client.get(urlsplit(url).path)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.headers["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(answer.get_data())


def events(calendar: Calendar) -> list:
    return list(calendar.walk("VEVENT"))


def deadline_of(api, game_id: int, colour: str) -> datetime:
    due = api.get(f"/api/games/{game_id}").get_json()["deadlines"]
    return min(datetime.fromisoformat(d["due"]) for d in due if d["player"] == colour)


def pending_of(api, game_id: int) -> list[dict]:
    return api.get(f"/api/games/{game_id}").get_json()["pending"]


def play_highest_card(api, game_id: int, keys: dict, colour: str) -> None:
    legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
    card = max(legal["moves"], key=lambda m: m.get("card", 0))
    assert api.post_moves(game_id, keys[colour], [card], legal["seq"]).status_code == 201


def test_the_feed_holds_the_decisions_owed_and_follows_the_game(app, api, client):
    set_now(app, T0)
    game_id, keys = api.new_game(["red", "blue", "green"])
    title = api.get(f"/api/games/{game_id}").get_json()["title"]
    first = pending_of(api, game_id)[0]
    assert first["kind"] == "power_card"
    mine = first["player"]
    others = [c for c in keys if c != mine]
    urls = {c: calendar_url(api, keys[c]) for c in keys}

    feed = fetch(client, urls[mine])
    [event] = events(feed)
    due = deadline_of(api, game_id, mine)
    assert event.decoded("dtstart") == due == T0 + timedelta(hours=48)
    assert "dtend" not in event  # a moment: it ends where it starts (RFC 5545 3.6.1)
    assert str(event["summary"]) == f"{title}: Play a power card for this round"
    assert str(event["url"]) == f"{BASE}/games/{game_id}"
    description = str(event["description"])
    assert "Play a power card for this round." in description
    assert f"{BASE}/games/{game_id}" in description and "sign-in" not in description
    assert event.decoded("dtstamp") == T0
    assert feed["x-published-ttl"] == "PT30M" and feed["refresh-interval"].to_ical() == b"PT30M"
    assert event["sequence"] == 0
    [alarm] = list(event.walk("VALARM"))
    # The game's first reminder is 24 hours before the deadline (the default [24, 4]).
    assert event.decoded("dtstart") + alarm.decoded("trigger") == due - timedelta(hours=24)
    uid = str(event["uid"])
    assert str(events(fetch(client, urls[mine]))[0]["uid"]) == uid  # the same on each fetch
    for colour in others:  # nothing of another seat's
        assert events(fetch(client, urls[colour])) == []

    set_now(app, T0 + timedelta(hours=1))
    play_highest_card(api, game_id, keys, mine)
    assert events(fetch(client, urls[mine])) == []  # answered: gone
    following = pending_of(api, game_id)[0]["player"]
    [theirs] = events(fetch(client, urls[following]))
    assert f"-{following}-" in str(theirs["uid"]) and str(theirs["uid"]) != uid
    for hours in (2, 3):
        set_now(app, T0 + timedelta(hours=hours))
        play_highest_card(api, game_id, keys, pending_of(api, game_id)[0]["player"])
    # The highest card (13, played first) opens the round: the next decision is their turn.
    assert pending_of(api, game_id)[0]["kind"] == "turn"
    assert pending_of(api, game_id)[0]["player"] == mine
    [turn] = events(fetch(client, urls[mine]))
    assert str(turn["uid"]) not in (uid, str(theirs["uid"]))
    assert str(turn["summary"]) == f"{title}: It is your turn"
    assert turn.decoded("dtstart") == T0 + timedelta(hours=3 + 72)


def test_an_extension_moves_the_event_and_raises_its_sequence(app, api, client):
    set_now(app, T0)
    game_id, keys = api.new_game(["red", "blue", "green"])  # red organises
    mine = pending_of(api, game_id)[0]["player"]
    url = calendar_url(api, keys[mine])
    [before] = events(fetch(client, url))
    sign_in_seat(app, client, game_id, "red")
    doc = page(client, f"/games/{game_id}/organise")
    token = doc.find("input", name="csrf_token").get("value")
    form = {"csrf_token": token, "action": "extend", "colour": mine, "hours": "24"}
    assert client.post(f"/games/{game_id}/organise", data=form).status_code == 303
    [after] = events(fetch(client, url))
    assert after["uid"] == before["uid"]
    assert after["sequence"] == before["sequence"] + 1
    assert after.decoded("dtstart") == before.decoded("dtstart") + timedelta(hours=24)
    assert after.decoded("dtstart") == deadline_of(api, game_id, mine)
    # The alarm is relative to the deadline: still the first reminder's moment.
    [alarm] = list(after.walk("VALARM"))
    assert alarm.decoded("trigger") == -timedelta(hours=24)
    # An absence declared over the deadline moves it again: the sequence goes on rising.
    away = {
        "from": (T0 + timedelta(hours=12)).isoformat(),
        "until": (T0 + timedelta(days=2)).isoformat(),
    }
    declared = api.client.post("/api/players/me/absences", json=away, headers=api.auth(keys[mine]))
    assert declared.status_code == 201, declared.get_json()
    [pushed] = events(fetch(client, url))
    assert pushed["uid"] == before["uid"] and pushed["sequence"] == after["sequence"] + 1
    assert pushed.decoded("dtstart") == deadline_of(api, game_id, mine) > after.decoded("dtstart")


def test_a_german_player_reads_their_feed_in_german(app, api, client):
    set_now(app, T0)
    game_id, keys = api.new_game(["red", "blue", "green"])
    mine = pending_of(api, game_id)[0]["player"]
    answer = api.client.put(
        "/api/players/me/preferences", json={"language": "de"}, headers=api.auth(keys[mine])
    )
    assert answer.status_code == 200
    feed = fetch(client, calendar_url(api, keys[mine]))
    [event] = events(feed)
    with app.test_request_context(), in_language("de"):
        asks = _(ASKS["power_card"])
        name = _("El Grande: your deadlines")
    assert asks != ASKS["power_card"]  # the catalog has it
    assert str(event["summary"]).endswith(f": {asks.rstrip('.')}")
    assert asks in str(event["description"]) and "Entscheide" in str(event["description"])
    assert str(feed["x-wr-calname"]) == name != "El Grande: your deadlines"


def test_a_new_link_by_the_api_ends_the_old_one(app, api, client):
    key = api.register("cal@example.org", "Cal")
    url = calendar_url(api, key)
    assert url.startswith(f"{BASE}/calendar/") and url.endswith(".ics")
    token = urlsplit(url).path.removeprefix("/calendar/").removesuffix(".ics")
    assert len(token) >= 32  # 256 bits, URL-safe
    assert calendar_url(api, key) == url  # GET shows the same link while it works
    newer = calendar_url(api, key, method="POST")
    assert newer != url and newer.endswith(".ics")
    assert calendar_url(api, key) == newer
    old = client.get(urlsplit(url).path)
    never = client.get("/calendar/" + "A" * 43 + ".ics")
    odd = client.get("/calendar/nothing.ics")
    for answer in (old, never, odd):
        assert answer.status_code == 404 and answer.mimetype == "text/plain"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert answer.get_data(as_text=True) == old.get_data(as_text=True)
    assert "calendar link is not known" in old.get_data(as_text=True)
    works = client.get(urlsplit(newer).path)
    assert works.status_code == 200 and b"BEGIN:VCALENDAR" in works.get_data()
    assert works.headers["Cache-Control"] == "private, max-age=300"
    assert works.headers["Referrer-Policy"] == "no-referrer"
    # Without a key: refused, and no link made.
    assert client.get("/api/players/me/calendar").status_code == 401


def test_me_shows_the_link_and_makes_a_new_one(app, api, client):
    key = api.register("mia@example.org", "Mia")
    csrf = sign_in_with_key(client, key)
    section = page(client, "/me").find("section", cls="calendar")
    assert "Your deadlines in your calendar" in section.text
    assert section.find("code") is None  # none made yet: a button makes it
    made = client.post("/me", data={"csrf_token": csrf, "action": "calendar"})
    assert made.status_code == 303 and made.headers["Location"].endswith("/me#calendar-title")
    shown = client.get("/me")
    assert shown.headers["Cache-Control"] == "no-store"
    section = parse(shown.get_data(as_text=True)).find("section", cls="calendar")
    url = section.find("code").text
    assert url == calendar_url(api, key)
    assert "From URL" in section.text and "New Calendar Subscription" in section.text
    webcal = [a.get("href") for a in section.find_all("a")]
    assert webcal == ["webcal://" + url.removeprefix("http://")]

    # Without the page's token the form changes nothing.
    refused = client.post("/me", data={"action": "calendar"})
    assert refused.status_code == 400
    assert calendar_url(api, key) == url
    assert client.post("/me", data={"csrf_token": csrf, "action": "calendar"}).status_code == 303
    newer = parse(client.get("/me").get_data(as_text=True)).find("section", cls="calendar")
    assert newer.find("code").text != url
    assert client.get(urlsplit(url).path).status_code == 404
    assert client.get(urlsplit(newer.find("code").text).path).status_code == 200


def test_the_spec_lists_the_calendar_routes(client):
    spec = client.get("/api/openapi.json").get_json()
    path = spec["paths"]["/api/players/me/calendar"]
    for method in ("get", "post"):
        schema = path[method]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["$ref"].endswith("/Calendar")
        assert path[method]["security"]
    assert spec["components"]["schemas"]["Calendar"]["required"] == ["url"]


@pytest.fixture
def empty_database(tmp_path) -> Iterator[str]:
    with unmigrated_database(tmp_path, "pbem_calendar_") as url:
        yield url


def test_the_migration_adds_the_calendar_and_the_deadlines_moves(empty_database):
    url = empty_database
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "migration-test"})
    with app.app_context():
        upgrade(revision="f4b8d2a6c1e3")
        with db.engine.begin() as connection:
            one_player_and_game(connection, T0)
            connection.execute(
                sa.text(
                    "INSERT INTO deadlines (game_id, colour, decision, opened_at, due_at, "
                    "next_at, reminders_sent) VALUES (1, 'red', 'turn', :t, :t, :t, '[]')"
                ),
                {"t": T0},
            )
        upgrade()
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT moved FROM deadlines")).scalar_one() == 0
            columns = {c["name"] for c in sa.inspect(connection).get_columns("players")}
            assert {"calendar_seed", "calendar_token_hash"} <= columns
        downgrade(revision="f4b8d2a6c1e3")
        with db.engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("players")}
            assert "calendar_seed" not in columns
            moved = {c["name"] for c in sa.inspect(connection).get_columns("deadlines")}
            assert "moved" not in moved
        db.engine.dispose()


def test_each_feed_holds_its_own_players_decisions_only(app, api, client):
    set_now(app, T0)
    first, first_keys = api.new_game(["red", "blue", "green"])
    second, second_keys = api.new_game(["red", "blue", "green"])
    owing = {game: pending_of(api, game)[0]["player"] for game in (first, second)}
    for game, keys in ((first, first_keys), (second, second_keys)):
        for colour, key in keys.items():
            feed = fetch(client, calendar_url(api, key))
            uids = [str(event["uid"]) for event in events(feed)]
            # Their own decision, if they owe one, and nothing of any other seat or game.
            if colour == owing[game]:
                assert len(uids) == 1 and uids[0].startswith(f"{game}-{colour}-power_card-")
            else:
                assert uids == []
            text = feed.to_ical().decode()
            assert "hand" not in text.lower() and "@example.org" not in text


def test_a_link_made_under_another_secret_key_is_made_anew(app, api, client):
    key = api.register("kim@example.org", "Kim")
    url = calendar_url(api, key)
    app.config["SECRET_KEY"] = "a new secret key, as after a leak"
    assert client.get(urlsplit(url).path).status_code == 200  # its hash is still kept
    newer = calendar_url(api, key)  # the page's link can no longer be made again: a new one
    assert newer != url
    assert client.get(urlsplit(url).path).status_code == 404
    assert client.get(urlsplit(newer).path).status_code == 200


def test_the_alarm_is_at_the_first_reminder_still_to_come_else_an_hour_before():
    timing = policy.timing_of({"reminders": [24, 4]})
    due = T0 + timedelta(hours=48)
    assert policy.first_reminder(timing, due, T0) == 24
    # Opened 30 hours before its deadline: the 24-hour reminder is the first still.
    assert policy.first_reminder(timing, due, due - timedelta(hours=30)) == 24
    # Opened 10 hours before: the 24-hour reminder is never sent; the 4-hour one is first.
    assert policy.first_reminder(timing, due, due - timedelta(hours=10)) == 4
    assert policy.first_reminder(policy.timing_of({"reminders": []}), due, T0) is None
    assert timedelta(hours=1) == ALARM_WITHOUT_REMINDER


def test_a_two_colour_games_events_name_their_seat(app, api, client):
    """A person holding two colours owes a decision for each: each event says for which."""
    set_now(app, T0)
    game_id, keys = api.new_two_colour_game(["red", "yellow", "green", "blue"])
    title = api.get(f"/api/games/{game_id}").get_json()["title"]
    owed = {p["player"] for p in pending_of(api, game_id)}
    holder = keys[sorted(owed)[0]]  # whoever owes the first decision, of their two colours
    feed = events(fetch(client, calendar_url(api, holder)))
    mine = sorted(c for c in owed if keys[c] == holder)
    summaries = sorted(str(event["summary"]) for event in feed)
    assert summaries == sorted(f"{title} ({c}): Play a power card for this round" for c in mine)
    # One seat a person: no colour in the summary.
    one_seat, one_keys = api.new_game(["red", "blue"])
    owner = pending_of(api, one_seat)[0]["player"]
    [single] = events(fetch(client, calendar_url(api, one_keys[owner])))
    assert "(" not in str(single["summary"]).split(":")[0]
