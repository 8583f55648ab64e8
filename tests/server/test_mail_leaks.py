"""No mail tells a player another player's secret: a hand, an unrevealed secret pick, the
card `power_card_return` took back, the order of the face-down action decks.

Two ways in:

* **Engine level, every mail for every recipient.** For many states of random games (three,
  four, five colours and the two-colour variant), each mail the composer would send (a
  decision mail for every pending decision, a scoring mail to every seat after a complete
  general scoring) is rendered from the real state and from a copy in which every *other
  person's* secrets are scrambled. The two must be the same, header for header (Message-ID
  and Date aside) and byte for byte in both parts: a mail that depended on a secret of
  someone else would differ for some state. No guessing at substrings. A control scrambles
  the recipient's own hand and expects the mail to change, so the comparison is known to
  see what it compares.
* **HTTP level, the rows actually queued.** An engine game is written into the server at
  the moments that matter (a secret pick open, a general scoring, the end:
  `tests.server.positions`) and played on through the API; after each move the outbox rows
  it queued are read: each is addressed to the holder of the seat it names, shows only that
  seat's hand, names no other colour's open pick or returned card (`Secrets`, from the
  rules' record, as in test_secrets), and is equal to the mail composed from the state with
  the other people's secrets scrambled.
"""

from __future__ import annotations

import random
import re
from email import message_from_string, policy
from email.message import EmailMessage

import pytest
import sqlalchemy as sa

import engine
from engine.data import REGIONS
from pbem import create_app, words
from pbem.extensions import db
from pbem.game import history
from pbem.notify import addresses, after_moves, compose, header_fields, sender
from pbem.notify.compose import Recipient
from pbem.store.models import Game, Notification, Seat
from tests.secret_oracle import EngineGame, Secrets, play_in_engine
from tests.server.conftest import Api, app_as_made, empty_tables, put_back
from tests.server.helpers import said_forms
from tests.server.positions import import_at

POWER_CARDS = range(1, 14)
#: Action cards whose special actions hold a secret (secret disks, a card taken back).
SECRET_CARDS = frozenset(
    {
        "power_card_return",
        "secret_two_from_region",
        "secret_all_from_region",
        "eviction",
        "secret_scoring",
    }
)
#: Headers that differ between any two mails composed alike (the multipart boundary, too).
IGNORED_HEADERS = frozenset({"message-id", "date"})


# -- scrambling what others keep secret ---------------------------------------------------------


def own_moves_left_out(text: str) -> str:
    """A mail's text without the moves its recipient may write: the list of moves now, the
    worked example ("A whole answer in one reply") and each card's example."""
    kept, in_example = [], False
    for line in text.split("Your moves now")[0].splitlines():
        if line.startswith("A whole answer in one reply"):
            in_example = True
            continue
        if in_example and line.startswith("  "):
            continue
        in_example = False
        if "its action, e.g.:" not in line:
            kept.append(line)
    return "\n".join(kept)


def scrambled(state: engine.State, keep: list[str], rng: random.Random) -> engine.State:
    """A copy of `state` in which every secret of colours outside `keep` (the recipient's
    person) is replaced by something else that looks legal: hands (same size), picks made,
    cards taken back (planned or done), and the order of every face-down action deck."""
    out = state.copy()
    others = [c for c in out.colours if c not in keep]
    for colour in others:
        hand = out.hands[colour]
        if hand:
            choices = [sorted(rng.sample(POWER_CARDS, len(hand))) for _ in range(20)]
            out.hands[colour] = next((h for h in choices if h != sorted(hand)), choices[0])
        if out.returned_cards.get(colour):
            out.returned_cards[colour] = [
                rng.choice([k for k in POWER_CARDS if k != card])
                for card in out.returned_cards[colour]
            ]
    out.picks = {c: _other_region(r, rng) if c in others else r for c, r in out.picks.items()}
    frame = out.special
    if frame is not None:
        frame["picks"] = {
            c: _other_region(r, rng) if c in others else r for c, r in frame["picks"].items()
        }
        for step in frame["steps"]:
            if step.get("do") == "power_card_return" and step["colour"] in others:
                step["card"] = rng.choice([k for k in POWER_CARDS if k != step["card"]])
    for deck in out.action_decks.values():
        if len(set(deck)) > 1:
            before = list(deck)
            while deck == before:
                rng.shuffle(deck)
    return out


def _other_region(region: str | None, rng: random.Random) -> str | None:
    return None if region is None else rng.choice([r for r in REGIONS if r != region])


def secrets_differ(a: engine.State, b: engine.State) -> bool:
    return a.to_dict() != b.to_dict()


# -- the mails, as a reader gets them ------------------------------------------------------


def readable(mail: EmailMessage) -> dict:
    """A mail's headers (but the per-message ones) and both parts, decoded."""
    # Written again as the server writes it: `policy.default` would fold a long
    # List-Unsubscribe of a parsed mail into encoded words, and read it back changed.
    parsed = message_from_string(mail.as_string(policy=header_fields.POLICY), policy=policy.default)
    headers = [(k, str(v)) for k, v in parsed.items() if k.lower() not in IGNORED_HEADERS]
    # The multipart boundary is random too: compare the content type without it.
    headers = [(k, parsed.get_content_type() if k == "Content-Type" else v) for k, v in headers]

    # A seat's sign-in link is signed with the time: the same link a second later differs.
    def unsigned(part: str) -> str:
        return re.sub(r"/sign-in/[^\s\"<]+", "/sign-in/TOKEN", part)

    return {
        "headers": headers,
        "text": unsigned(parsed.get_body(preferencelist=("plain",)).get_content()),
        "html": unsigned(parsed.get_body(preferencelist=("html",)).get_content()),
    }


def seat(colour: str) -> Recipient:
    return Recipient(7, f"{colour}@example.org", colour.title(), colour)


def mails_for(state: engine.State, events: list | None, seq: int) -> dict[tuple, EmailMessage]:
    """Every mail the composer could send at this state, keyed by (kind, colour[, decision]):
    a decision mail for each pending decision (new or not) and, after a complete general
    scoring, a scoring mail to every seat."""
    out = {}
    for decision in engine.pending(state):
        colour = decision["player"]
        key = ("decision", colour, after_moves.decision_key(decision))
        out[key] = compose.decision_mail(
            seat(colour), game_id=3, title="Leaks", state=state, decision=decision, seq=seq
        )
    scoring = after_moves.general_scoring_events(events or [], state)
    if scoring is not None:
        for colour in state.colours:
            out[("scoring", colour)] = compose.scoring_mail(
                seat(colour), game_id=3, title="Leaks", state=state, events=scoring, seq=seq
            )
    return out


def lean(moves: list[dict], rng: random.Random) -> dict:
    """A random move, leaning towards the Castillo and the cards with secrets, so that
    picks are open with others still to pick and cards are taken back."""
    preferred = [
        m
        for m in moves
        if m.get("to") == "castillo"
        or m.get("card") in SECRET_CARDS
        or m["type"] in ("return_power_card", "secret_pick", "castillo_pick")
    ]
    return rng.choice(preferred if preferred and rng.random() < 0.7 else moves)


@pytest.fixture(scope="module")
def composing_app():
    """The composer needs an app's config (MAIL_FROM, PBEM_BASE_URL, SECRET_KEY) only: no
    database, so its tests are `database_free` (once, in the SQLite pass)."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SECRET_KEY": "leak-test",
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
        }
    )
    with app.app_context():
        yield app


GAMES = [
    (["red", "blue", "green"], {"rounds": 6}, 11),
    (["red", "yellow", "green", "blue"], {"rounds": 6}, 12),
    (["red", "yellow", "green", "blue", "brown"], {"rounds": 6}, 13),
    (["red", "yellow", "green", "blue"], {"rounds": 6, "variant": "two_colour"}, 14),
    (["red", "blue"], {"rounds": 6}, 15),
]


@pytest.mark.database_free
@pytest.mark.parametrize(("colours", "options", "seed"), GAMES, ids=lambda v: str(v))
def test_no_mail_depends_on_another_persons_secret(composing_app, colours, options, seed):
    rng = random.Random(seed)
    state = engine.new_game(colours, seed=seed, options=options or None)
    events: list = []
    seen = {"mails": 0, "scoring": 0, "open_pick": 0, "returned": 0, "own_hand_control": 0}
    for seq in range(5000):
        # Every step where another's pick or taken-back card is open, every third besides
        # (hands are secret at every step: a third of them is plenty to see one leak).
        opened = any(r is not None for r in _open_picks(state).values()) or any(
            state.returned_cards.values()
        )
        mails = mails_for(state, events, seq) if opened or seq % 3 == 0 else {}
        for key, mail in mails.items():
            colour = key[1]
            keep = state.team_of(colour)
            other = scrambled(state, keep, rng)
            assert secrets_differ(state, other) or len(colours) == 1
            again = mails_for(other, events, seq)
            assert readable(again[key]) == readable(mail), (
                f"seq {seq}: the {key[0]} mail to {colour} changes with others' secrets"
            )
            seen["mails"] += 1
            seen["scoring"] += key[0] == "scoring"
            if any(c not in keep and r is not None for c, r in _open_picks(state).items()):
                seen["open_pick"] += 1
            if any(c not in keep for c in state.returned_cards if state.returned_cards[c]):
                seen["returned"] += 1
            # Control: the recipient's own hand does show (the comparison sees the parts).
            if key[0] == "decision" and state.hands[colour] and seq % 7 in (0, 3):
                mine = state.copy()
                mine.hands[colour] = [k for k in POWER_CARDS if k not in state.hands[colour]][
                    : len(state.hands[colour])
                ]
                if mine.hands[colour] != state.hands[colour]:
                    changed = mails_for(mine, events, seq)[key]
                    assert readable(changed)["text"] != readable(mail)["text"]
                    assert readable(changed)["html"] != readable(mail)["html"]
                    seen["own_hand_control"] += 1
        if engine.is_over(state):
            break
        player = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        state, events = engine.apply(state, player, lean(engine.legal_moves(state, player), rng))
    assert engine.is_over(state)
    # The game went where secrets are: a scoring, an open pick beside a mail to someone
    # else, and the recipient-hand control ran.
    assert seen["scoring"] >= len(colours), seen
    assert seen["open_pick"] > 0, seen
    assert seen["own_hand_control"] > 0, seen


def _open_picks(state: engine.State) -> dict[str, str | None]:
    picks = dict(state.picks) if state.phase == "castillo_pick" else {}
    if state.special is not None:
        picks.update(state.special.get("picks") or {})
    return picks


@pytest.mark.database_free
def test_mails_after_a_card_is_taken_back_do_not_depend_on_which(composing_app):
    """A game steered to play power_card_return, then every mail for a while after it."""
    colours = ["red", "blue", "green"]
    seed = next(
        s
        for s in range(1000)
        if "power_card_return" in engine.new_game(colours, seed=s).face_up.values()
    )
    rng = random.Random(5)
    state = engine.new_game(colours, seed=seed)
    events: list = []
    after_return = 0
    for seq in range(400):
        if any(state.returned_cards.values()):
            after_return += 1
            for key, mail in mails_for(state, events, seq).items():
                keep = state.team_of(key[1])
                other = scrambled(state, keep, rng)
                assert readable(mails_for(other, events, seq)[key]) == readable(mail), (seq, key)
            if after_return > 60:
                break
        if engine.is_over(state):
            break
        player = rng.choice(sorted({p["player"] for p in engine.pending(state)}))
        moves = engine.legal_moves(state, player)
        steer = [
            m
            for m in moves
            if m.get("card") == "power_card_return" or m["type"] == "return_power_card"
        ]
        state, events = engine.apply(state, player, rng.choice(steer or moves))
    assert after_return > 10, "nobody took a power card back"


@pytest.mark.database_free
def test_a_self_veto_windows_mails_name_the_card_to_its_player_alone(composing_app):
    """Green plays power_card_return holding a Veto, blue holds one too: both answer the
    window, and each decision mail shows the numbered plan as the observer shows it to its
    recipient: green's with the card coming back, blue's without, whatever was queued."""
    from tests.engine.helpers import acting

    five = ["red", "yellow", "green", "blue", "brown"]
    state = acting(
        engine.new_game(five, seed=3), "green", "power_card_return", vetoes=("green", "blue")
    )
    card = state.discards["green"][0]
    state, _ = engine.apply(state, "green", {"type": "return_power_card", "card": card})
    mails = mails_for(state, [], 40)
    assert set(mails) == {("decision", c, (c, "veto_window")) for c in ("green", "blue")}
    green = readable(mails[("decision", "green", ("green", "veto_window"))])
    blue = readable(mails[("decision", "blue", ("blue", "veto_window"))])
    assert f"1. your power card {card} back to the hand" in green["text"], green["text"]
    assert f"your power card {card} back" in green["html"]
    assert "1. green's power card back to the hand\n" in blue["text"], blue["text"]
    assert f"power card {card} back" not in blue["text"] + blue["html"]
    # Blue's mail is the same whichever card green takes back (the scrambler changes it).
    other = scrambled(state, ["blue"], random.Random(1))
    assert other.special["steps"][0]["card"] != card
    assert readable(mails_for(other, [], 40)[("decision", "blue", ("blue", "veto_window"))]) == blue
    # A queued decision is only a pointer: even one carrying green's card (green's own
    # entry, or a row queued before pending was public) is shown to blue as the observer
    # shows it.
    queued = {**engine.pending(state)[1], "plan": [{"step": 1, **state.special["steps"][0]}]}
    again = compose.decision_mail(
        seat("blue"), game_id=3, title="Leaks", state=state, decision=queued, seq=40
    )
    assert readable(again) == blue


# -- HTTP: the rows actually queued ------------------------------------------------------------


@pytest.fixture
def mail_app(database_url):
    app = app_as_made(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "MAIL_FROM": "El Grande <play@pbem.example>",
            "PBEM_BASE_URL": "https://pbem.example",
        }
    )
    yield app
    empty_tables(app)
    put_back(app)


def new_rows(app, game_id: int, after_id: int) -> list:
    with app.app_context():
        sender.compose_queued()  # as the sender does before sending: decision mails
        rows = db.session.execute(
            sa.select(Notification)
            .where(Notification.game_id == game_id, Notification.id > after_id)
            .order_by(Notification.id)
        ).scalars()
        out = [(r.id, r.player_id, r.kind, r.recipient, r.message) for r in rows]
        db.session.remove()
    return out


def seats_of(app, game_id: int) -> dict[str, tuple[int, str, str]]:
    """{colour: (player id, email, name)} of the game's seats."""
    with app.app_context():
        seats = db.session.execute(sa.select(Seat).where(Seat.game_id == game_id)).scalars()
        out = {s.colour: (s.player_id, s.player.email, s.player.name) for s in seats}
        title = db.session.get(Game, game_id).title
        db.session.remove()
    return out, title


def check_row(app, row, moved, secrets: Secrets, seats, title, game_id, rng) -> str:
    """One queued mail: to the seat's holder, their own hand only, nothing of another's open
    pick or returned card, and the same as composed with the others' secrets scrambled."""
    before, state, events, seq = moved
    _, player_id, kind, address, raw = row
    mail = message_from_string(raw, policy=policy.default)
    reply_to = addresses_seat(app, mail)
    assert reply_to is not None and reply_to[0] == game_id, mail["Reply-To"]
    colour = reply_to[1]
    holder = seats[colour]
    # Addressed to the seat's holder, and only to them.
    assert (player_id, address) == holder[:2], (colour, player_id, address, holder)
    assert holder[1] in str(mail["To"]) and "," not in str(mail["To"])
    person = frozenset(c for c, s in seats.items() if s[0] == player_id)
    text = mail.get_body(preferencelist=("plain",)).get_content()
    html = mail.get_body(preferencelist=("html",)).get_content()
    hand_lines = [line for line in text.splitlines() if line.startswith("Your power cards:")]
    if kind == "decision":
        named = with_app(app, lambda: addresses.read_message_id(mail["Message-ID"]))
        assert named == (game_id, colour, seq), (named, colour, seq)
        hand = state.hands[colour]
        expected = ["Your power cards: " + ", ".join(map(str, hand))] if hand else []
        assert hand_lines == expected, (colour, hand_lines, hand)
    else:
        assert hand_lines == [] and "Your power cards" not in html
    # Another person's open pick or taken-back card, in the notation, is named nowhere
    # outside what the recipient may write: its moves, the worked example, each card's example
    # (the same words may be the recipient's own card or region; whether the mail depends on
    # another's secret is the scrambled comparison's to say).
    told = own_moves_left_out(text)
    for phase, owner, _, region in secrets.open_picks:
        if owner not in person:
            pick = {"castillo": "castillo_pick", "special": "secret_pick"}[phase]
            # Neither in the notation nor in words, under any card (the mails are English).
            for said in said_forms({"type": pick, "region": region}):
                assert said not in told, said
    for owner, _, card in secrets.returns:
        if owner not in person:
            for said in said_forms({"type": "return_power_card", "card": card}):
                assert said not in told, said
    # The same mail, composed with every other person's secrets scrambled.
    other = scrambled(state, sorted(person), rng)
    recipient = Recipient(player_id, holder[1], holder[2], colour)

    def compose_again():
        if kind == "decision":
            old = {after_moves.decision_key(p) for p in engine.pending(before)}
            mine = [p for p in engine.pending(state) if p["player"] == colour]
            decision = next((p for p in mine if after_moves.decision_key(p) not in old), mine[0])
            return compose.decision_mail(
                recipient,
                game_id=game_id,
                title=title,
                state=other,
                decision=decision,
                seq=seq,
                deadline=compose.when(deadline_of(game_id, colour)),
                since=scrambled_story(game_id, colour, seq, person, rng),
                names={c: s[2] for c, s in seats.items()},
            )
        log = history.stored_log(db.session.connection(), game_id, 0, seq)
        return compose.scoring_mail(
            recipient,
            game_id=game_id,
            title=title,
            state=other,
            events=events,
            seq=seq,
            names={c: s[2] for c, s in seats.items()},
            totals=words.points_by_source(log) if engine.is_over(state) else None,
        )

    again = with_app(app, compose_again)
    assert readable(again) == readable(mail), (kind, colour, seq)
    return colour


def scrambled_story(game_id: int, colour: str, seq: int, person, rng) -> list:
    """The log since the seat's last move, with every move its reader may not see (another
    person's unrevealed pick, a card taken back) replaced by another of its kind: the story
    must read the same."""
    entries = history.since_last_move(db.session.connection(), game_id, colour, seq)
    shown = engine.visible_log(entries, person)
    out = []
    for entry, seen in zip(entries, shown, strict=True):
        move = dict(entry["move"])
        if seen.get("hidden"):
            if "region" in move:
                move["region"] = _other_region(move["region"], rng)
            if "card" in move:
                move["card"] = rng.choice([k for k in POWER_CARDS if k != move["card"]])
        out.append({**entry, "move": move})
    return out


def deadline_of(game_id: int, colour: str):
    """The seat's current deadline as stored (UTC; SQLite hands it back naive)."""
    from datetime import UTC

    from pbem.store.models import Deadline

    due = db.session.execute(
        sa.select(Deadline.due_at).where(Deadline.game_id == game_id, Deadline.colour == colour)
    ).scalar()
    return due.replace(tzinfo=UTC) if due is not None and due.tzinfo is None else due


def addresses_seat(app, mail) -> tuple[int, str] | None:
    return with_app(app, lambda: addresses.read_seat_address(str(mail["Reply-To"])))


def with_app(app, work):
    with app.app_context():
        return work()


def scoring_ends(game: EngineGame) -> list[int]:
    """The seqs of the moves that complete a general scoring (the game's last among them)."""
    return [
        seq
        for seq, events in enumerate(game.events, start=1)
        if after_moves.general_scoring_events(events, game.moments[seq].state) is not None
    ]


def play_on_checking_rows(mail_app, api, game: EngineGame, seq: int, moves: int, counts) -> None:
    """The game written into the server after `seq` moves, then its next `moves` played
    through the API, every row each queued checked (`check_row`)."""
    game_id, keys = import_at(mail_app, api, game, seq)
    seats, title = seats_of(mail_app, game_id)
    rng = random.Random(seq)
    last_id = 0
    for number in range(seq, min(seq + moves, len(game.log))):
        colour, move = game.log[number]
        response = api.post_moves(game_id, keys[colour], [move], number, colour=colour)
        assert response.status_code == 201, response.get_json()
        before, after = game.moments[number].state, game.moments[number + 1].state
        scoring = after_moves.general_scoring_events(game.events[number], after) or []
        rows = new_rows(mail_app, game_id, last_id)
        for row in rows:
            moved = (before, after, scoring, number + 1)
            secrets = game.moments[number + 1].secrets
            check_row(mail_app, row, moved, secrets, seats, title, game_id, rng)
            counts[row[2]] += 1
        if rows:
            last_id = rows[-1][0]


@pytest.mark.parametrize("two_colour", [False, True], ids=["three-players", "two-colour"])
def test_every_queued_mail_goes_to_its_seat_and_shows_no_one_elses_secret(mail_app, two_colour):
    api = Api(mail_app.test_client())
    colours = ["red", "yellow", "green", "blue"] if two_colour else ["red", "blue", "green"]
    options = {"rounds": 6, **({"variant": "two_colour"} if two_colour else {})}
    seed = 8 + two_colour
    rng = random.Random(seed)
    game = play_in_engine(colours, seed, rng, lambda moves: [lean(moves, rng)], options=options)
    counts = {"decision": 0, "scoring": 0, "game_over": 0}
    pick = next(m for m in game.moments if "pick" in m.kinds)
    for seq, moves in [(pick.seq - 1, 6), (scoring_ends(game)[0] - 1, 2), (len(game.log) - 1, 1)]:
        play_on_checking_rows(mail_app, api, game, seq, moves, counts)
    assert counts["decision"] >= 4 and counts["scoring"] and counts["game_over"], counts


def test_no_mail_holds_a_players_notes(mail_app):
    """Notes kept while a game is played and talked over: no row of the outbox (a mail
    composed or a decision to compose) holds them, nor any mail delivered."""
    from tests.server.test_mail_out import deliver

    api = Api(mail_app.test_client())
    game_id, keys = api.new_game(["red", "blue", "green"])
    secret = {c: f"NOTES-{c}-4409" for c in keys}
    for colour, key in keys.items():
        api.client.put(
            f"/api/games/{game_id}/notes", json={"text": secret[colour]}, headers=api.auth(key)
        )
        api.client.post(
            f"/api/games/{game_id}/messages",
            json={"text": f"hi from {colour}"},
            headers=api.auth(key),
        )
    rng = random.Random(5)
    for _ in range(6):
        view = api.get(f"/api/games/{game_id}").get_json()
        colour = sorted({p["player"] for p in view["pending"]})[0]
        legal = api.get(f"/api/games/{game_id}/legal-moves", keys[colour]).get_json()
        api.post_moves(game_id, keys[colour], [rng.choice(legal["moves"])], legal["seq"])
    deliver(mail_app)
    with mail_app.app_context():
        rows = db.session.execute(sa.select(Notification.message, Notification.payload)).all()
        db.session.remove()
    assert any("hi from red" in message for message, _ in rows)  # the talk went out
    for message, payload in rows:
        # The notes' own words (a bare number could be part of a MIME boundary).
        assert "NOTES-" not in message and "NOTES-" not in repr(payload)
