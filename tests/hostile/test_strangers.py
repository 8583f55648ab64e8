"""No one can make the server mail people who never asked: games and invitations are capped
per player and per address a day, under a burst of requests at once."""

from __future__ import annotations

from collections import Counter
from functools import partial

from tests.hostile.conftest import at_once, statuses


def test_thirty_games_in_a_second_from_one_player_are_capped(server):
    """One player, thirty games at once, each inviting two strangers: at most the day's cap
    of games is made (10), the rest get 429, and only the games made mail anyone."""
    organiser, key = server.player("spammer")
    bodies = [
        {
            "title": "Spam",
            "forming": True,
            "seats": [
                {"colour": "red", "email": organiser},
                {"colour": "blue", "email": f"victim-{n}-a@strangers.example.org"},
                {"colour": "green", "email": f"victim-{n}-b@strangers.example.org"},
            ],
        }
        for n in range(30)
    ]
    responses = at_once([partial(server.call, "POST", "/api/games", key, body) for body in bodies])
    counted = statuses(responses)
    assert set(counted) <= {201, 429}, counted
    assert counted[201] == 10, counted
    refused = next(r for r in responses if r.status_code == 429)
    assert int(refused.headers["Retry-After"]) > 0 and "games today" in refused.json()["detail"]
    made = server.rows(
        "SELECT count(*) FROM games WHERE creator_id = (SELECT id FROM players WHERE email = :e)",
        e=organiser,
    )[0][0]
    invited = [m for m in server.mails(kind="invitation") if "victim-" in m.recipient]
    assert made == 10 and len(invited) == 20, (made, len(invited))
    print(f"games at once: {sum(counted.values())} requests, {dict(counted)}")


def test_one_stranger_invited_by_many_at_once_gets_at_most_three(server):
    stranger = "much-invited@strangers.example.org"
    inviters = [server.player("inviter") for _ in range(8)]
    calls = [
        partial(
            server.call,
            "POST",
            "/api/games",
            key,
            {
                "title": "Come and play",
                "forming": True,
                "seats": [{"colour": "red", "email": own}, {"colour": "blue", "email": stranger}],
            },
        )
        for own, key in inviters
    ]
    counted = statuses(at_once(calls))
    assert counted == Counter({201: 3, 429: 5}), counted
    assert len([m for m in server.mails(kind="invitation") if m.recipient == stranger]) == 3
