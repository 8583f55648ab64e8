"""Seats under attack: an invitation is its address's, and every race over a seat or a
game's start has one winner, a clear 409 for the others and no mail for a request that lost."""

from __future__ import annotations

from collections import Counter
from functools import partial

from pbem.game.players import new_api_key
from tests.hostile.conftest import at_once, link_in, statuses

ROUNDS = 5


def forming_game(server, organiser_key: str, seats: list[dict]) -> int:
    body = {"title": "Hostile table", "seats": seats, "forming": True}
    made = server.call("POST", "/api/games", organiser_key, body)
    assert made.status_code == 201, made.text
    return made.json()["id"]


def status_of(server, game_id: int) -> str:
    return server.rows("SELECT status FROM games WHERE id = :id", id=game_id)[0][0]


def holders(server, game_id: int) -> list[int]:
    found = server.rows(
        "SELECT player_id FROM seats WHERE game_id = :id ORDER BY position", id=game_id
    )
    return [row[0] for row in found]


def test_a_stranger_cannot_take_an_invited_seat(server):
    organiser, key = server.player("organiser")
    friend = "friend-invited@players.example.org"
    game_id = forming_game(
        server, key, [{"colour": "red", "email": organiser}, {"colour": "blue", "email": friend}]
    )
    # Registering the friend's address hands out no key: it mails the friend a link.
    signed_up = server.call("POST", "/api/players", body={"email": friend, "name": "Mallory"})
    assert signed_up.status_code == 202 and "api_key" not in signed_up.json()
    # Nor can a stranger with an account of their own accept the friend's seat.
    _stranger, stranger_key = server.player("stranger")
    taken = server.call("POST", f"/api/games/{game_id}/seats/blue/accept", stranger_key)
    assert taken.status_code == 404 and "not yours" in taken.json()["detail"]
    assert status_of(server, game_id) == "forming"


def test_an_account_whose_address_was_never_proved_accepts_only_by_its_link(server):
    """An account made before addresses were proved (its key handed to whoever asked) may
    not accept an invitation through the API; the invitation's mailed link may."""
    organiser, key = server.player("organiser")
    invited = "unproved@players.example.org"
    game_id = forming_game(
        server, key, [{"colour": "red", "email": organiser}, {"colour": "blue", "email": invited}]
    )
    # An old account: a key handed out before addresses were proved, never proved since.
    old_key, digest = new_api_key()
    server.execute(
        "UPDATE players SET api_key_hash = :digest WHERE email = :email",
        digest=digest,
        email=invited,
    )
    invitation = server.mails(game_id, "invitation")[0].message
    refused = server.call("POST", f"/api/games/{game_id}/seats/blue/accept", old_key)
    assert refused.status_code == 403 and invited in refused.json()["detail"]
    assert status_of(server, game_id) == "forming"
    # The link in the invitation mail proves the address: it accepts, and the game begins.
    path = link_in(invitation, f"/games/{game_id}/accept/")
    page = server.call("GET", path)
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    accepted = server.call(
        "POST", path, data={"csrf_token": token}, cookies=page.cookies, allow_redirects=False
    )
    assert accepted.status_code == 303, accepted.text
    assert status_of(server, game_id) == "active"


def test_ten_joins_of_one_open_seat_have_one_winner(server):
    """Ten players join the one open seat at once: one holds it, nine get 409, and only the
    winner's join is told (one notice per other seat) and starts the game once."""
    tally: Counter[int] = Counter()
    for _ in range(ROUNDS):
        organiser, key = server.player("organiser")
        game_id = forming_game(
            server, key, [{"colour": "red", "email": organiser}, {"colour": "blue", "open": True}]
        )
        joiners = [server.player("joiner") for _ in range(10)]
        responses = at_once(
            [
                partial(server.call, "POST", f"/api/games/{game_id}/seats/blue/join", k)
                for _address, k in joiners
            ]
        )
        counted = statuses(responses)
        tally.update(counted)
        assert counted == Counter({200: 1, 409: 9}), counted
        assert all("not open" in r.json()["detail"] or "is active" in r.json()["detail"]
                   for r in responses if r.status_code == 409)  # fmt: skip
        assert status_of(server, game_id) == "active"
        welcomes = server.mails(game_id, "welcome")
        assert len(welcomes) == 2, [m.recipient for m in welcomes]  # started once
        winner = next(a for (a, _k), r in zip(joiners, responses, strict=True) if r.ok)
        assert {m.recipient for m in server.mails(game_id)} <= {organiser, winner}
    print(f"joins: {sum(tally.values())} requests, {dict(tally)}")


def test_joins_at_once_of_a_seat_asking_a_reliability_have_one_winner_among_the_reliable(
    server,
):
    """Players join a seat whose organiser asks 80% of decisions in time: five with no record
    at once are all refused (403, saying why) and change nothing; then of five reliable ones
    at once, one holds the seat, the other four get 409, and only the winner's join is
    told."""
    for _ in range(ROUNDS):
        organiser, key = server.player("organiser")
        body = {
            "title": "Picky table",
            "seats": [{"colour": "red", "email": organiser}, {"colour": "blue", "open": True}],
            "forming": True,
            "join": {"min_reliability": 0.8},
        }
        made = server.call("POST", "/api/games", key, body)
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        newcomers = [server.player("newcomer") for _ in range(5)]
        reliable = [server.player("reliable") for _ in range(5)]
        for address, _key in reliable:
            server.execute(
                "INSERT INTO decisions (player_id, game_id, colour, decision, due_at, closed_at,"
                " how) SELECT id, :game, 'red', 'turn', now(), now(), 'in_time' FROM players"
                " WHERE email = :email",
                game=game_id,
                email=address,
            )

        def join_at_once(players, path=f"/api/games/{game_id}/seats/blue/join"):
            return at_once([partial(server.call, "POST", path, k) for _address, k in players])

        # The newcomers at once: each refused, saying why, the seat still open, none told.
        mailed = len(server.mails(game_id))
        refused = join_at_once(newcomers)
        assert [r.status_code for r in refused] == [403] * 5, [r.text for r in refused]
        assert {r.json()["code"] for r in refused} == {"join-needs-reliability"}
        assert status_of(server, game_id) == "forming"
        assert len(server.mails(game_id)) == mailed
        # Then the reliable ones at once: one holds the seat, the others get 409.
        responses = join_at_once(reliable)
        assert statuses(responses) == Counter({200: 1, 409: 4}), statuses(responses)
        winner = next(a for (a, _k), r in zip(reliable, responses, strict=True) if r.ok)
        assert status_of(server, game_id) == "active"
        assert {m.recipient for m in server.mails(game_id)} <= {organiser, winner}


def test_one_player_joining_two_seats_at_once_holds_one(server):
    organiser, key = server.player("organiser")
    game_id = forming_game(
        server,
        key,
        [
            {"colour": "red", "email": organiser},
            {"colour": "blue", "open": True},
            {"colour": "green", "open": True},
        ],
    )
    _address, joiner = server.player("joiner")
    responses = at_once(
        [
            partial(server.call, "POST", f"/api/games/{game_id}/seats/blue/join", joiner),
            partial(server.call, "POST", f"/api/games/{game_id}/seats/green/join", joiner),
        ]
    )
    assert statuses(responses) == Counter({200: 1, 409: 1})
    refused = next(r for r in responses if r.status_code == 409)
    assert "already hold a seat" in refused.json()["detail"]


def last_two_at_once(server, blue: str, green: str) -> None:
    """A game of three forming, whose blue and green seats are taken at once (`accept` by an
    invited guest, `join` an open seat by a newcomer): both win, and it starts once."""
    organiser, key = server.player("organiser")
    seats, takes = [{"colour": "red", "email": organiser}], []
    for colour, how in (("blue", blue), ("green", green)):
        address, own_key = server.player("guest")
        seats.append({"colour": colour, "email": address} if how == "accept" else
                     {"colour": colour, "open": True})  # fmt: skip
        takes.append((colour, how, own_key))
    game_id = forming_game(server, key, seats)
    responses = at_once(
        [
            partial(server.call, "POST", f"/api/games/{game_id}/seats/{colour}/{how}", own_key)
            for colour, how, own_key in takes
        ]
    )
    assert statuses(responses) == Counter({200: 2})
    assert status_of(server, game_id) == "active"
    assert len(server.mails(game_id, "welcome")) == 3  # one start: one welcome a seat


def test_the_last_two_accepts_at_once_start_the_game_once(server):
    for _ in range(ROUNDS):
        last_two_at_once(server, "accept", "accept")


def test_an_accept_and_a_join_at_once_start_the_game_once(server):
    for _ in range(ROUNDS):
        last_two_at_once(server, "accept", "join")


def test_a_start_and_an_abort_at_once_leave_one_outcome(server):
    organiser, key = server.player("organiser")
    game_id = forming_game(
        server, key, [{"colour": "red", "email": organiser}, {"colour": "blue", "open": True}]
    )
    responses = at_once(
        [
            partial(server.call, "POST", f"/api/games/{game_id}/start", key),
            partial(server.call, "POST", f"/api/games/{game_id}/abort", key),
        ]
    )
    counted = statuses(responses)
    assert counted in (Counter({200: 2}), Counter({200: 1, 409: 1})), counted
    status = status_of(server, game_id)
    welcomes = len(server.mails(game_id, "welcome"))
    # Started then stopped (both won in turn), or stopped before it could start.
    assert (status, welcomes) in (("aborted", 1), ("aborted", 0)), (status, welcomes)
