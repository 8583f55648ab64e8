"""The sender is woken when a transaction that queued mail commits (an in-process event;
PostgreSQL's NOTIFY for other processes), never by one that rolled back or queued none; the
poll stays as the safety net."""

from __future__ import annotations

import os
import threading
import time

import pytest
from sqlalchemy import make_url

from pbem.notify import wake
from tests.server.conftest import assert_problem


def play_first_card(api, game_id, keys, card=1, seq=0):
    colour = api.get(f"/api/games/{game_id}").get_json()["pending"][0]["player"]
    return api.post_moves(game_id, keys[colour], [{"type": "play_power_card", "card": card}], seq)


def test_a_commit_that_queued_mail_wakes_the_sender_and_a_refusal_does_not(app, api):
    game_id, keys = api.new_game(["red", "blue", "green"])
    assert wake.WAKE.is_set()  # the game's first mails
    wake.WAKE.clear()
    refused = play_first_card(api, game_id, keys, card=14)
    assert_problem(refused, 422)
    assert not wake.WAKE.is_set()
    # A read queues nothing.
    assert api.get(f"/api/games/{game_id}").status_code == 200
    assert not wake.WAKE.is_set()
    assert play_first_card(api, game_id, keys).status_code == 201
    assert wake.WAKE.is_set()
    wake.WAKE.clear()


def test_the_waker_delivers_at_once_and_a_running_pass_goes_again(app):
    calls: list[float] = []
    busy = threading.Event()

    def deliver() -> bool:
        if busy.is_set():
            return False  # as a pass already running says
        wake.WAKE.clear()
        calls.append(time.monotonic())
        return True

    wake.WAKE.clear()
    stop = wake.start(app, deliver)
    try:
        started = time.monotonic()
        wake.WAKE.set()
        while not calls and time.monotonic() - started < 2:
            time.sleep(0.005)
        assert calls and calls[0] - started < 0.5
        # While a pass runs, a wake-up is kept until it can be served.
        busy.set()
        wake.WAKE.set()
        time.sleep(0.1)
        assert len(calls) == 1 and wake.WAKE.is_set()
        busy.clear()
        time.sleep(0.2)
        assert len(calls) == 2
    finally:
        stop.set()
        wake.WAKE.clear()


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="LISTEN/NOTIFY is PostgreSQL's")
def test_postgresql_tells_a_listening_process_only_of_commits(app, api):
    import psycopg

    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"]).set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False), autocommit=True) as listener:
        # The test's schema's own channel: other schemas' commits (another worker's) are
        # not heard on it.
        channel = wake.channel(listener)
        assert channel.startswith(f"{wake.CHANNEL}_pbem_test_")
        listener.execute(f'LISTEN "{channel}"')
        game_id, keys = api.new_game(["red", "blue", "green"])
        heard = list(listener.notifies(timeout=2.0, stop_after=1))
        assert [n.channel for n in heard] == [channel]
        assert_problem(play_first_card(api, game_id, keys, card=14), 422)
        assert list(listener.notifies(timeout=0.5, stop_after=1)) == []
        assert play_first_card(api, game_id, keys).status_code == 201
        # Said once per transaction however many rows it queued.
        heard = list(listener.notifies(timeout=2.0, stop_after=2))
        assert len(heard) == 1
    wake.WAKE.clear()
