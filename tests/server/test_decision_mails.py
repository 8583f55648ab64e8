"""Every decision mail shows what it decides: a power card's mail names the round's five
action cards (in a few words each) and where the king stands, a Castillo or secret pick's
says what the reader's pick does, a card that hits opponents in an order says that the
order is whom it hits first; and the footer's command that ends the mails never reads as
the move that ends a special action. Composed here from engine states (where it is
decided), read as their reader reads them."""

from __future__ import annotations

import re
from email import message_from_string, policy
from email.message import EmailMessage
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from markupsafe import escape

import engine
from engine.data import CARD_STACKS
from pbem import words
from pbem.extensions import db
from pbem.languages import in_language
from pbem.notify import addresses, compose, sender
from pbem.notify.compose import Recipient
from pbem.play import lifecycle
from pbem.schedule.sweep import sweep
from pbem.store.models import Notification, Player
from tests.server.mailin_helpers import moves_listed, reply
from tests.server.test_mail_in import inbound
from tests.web.html import parse

#: What it tries comes out the same on every database (words, mails and pages as read and
#: written): once, in the SQLite pass; the PostgreSQL pass runs what a database decides.
pytestmark = pytest.mark.database_free

THREE = ["red", "blue", "green"]
FOUR = ["red", "blue", "green", "yellow"]
NAMES = {"red": "Ana", "blue": "Ben", "green": "Cleo", "yellow": "Dai"}


def parts(state: engine.State, colour: str, language: str = "en") -> tuple[str, str]:
    """The text and HTML of `colour`'s decision mail now."""
    decision = next(p for p in engine.pending(state) if p["player"] == colour)
    mail = compose.decision_mail(
        Recipient(1, f"{colour}@example.org", NAMES[colour], colour, language=language),
        game_id=3,
        title="Spain",
        state=state,
        decision=decision,
        seq=1,
        names=NAMES,
    )
    parsed = message_from_string(mail.as_string(), policy=policy.default)
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    html = parsed.get_body(preferencelist=("html",)).get_content()
    return text, html


def flat(text: str) -> str:
    """A mail's text with its lines joined (a wrapped sentence reads whole)."""
    return " ".join(text.split())


def section(text: str, heading: str) -> list[str]:
    """The indented lines under the line that starts `heading` (a wrapped line joined; none
    without that line)."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        return []
    while not lines[start].rstrip().endswith(":"):  # the heading wraps
        start += 1
    found: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("     ") and found:
            found[-1] += " " + line.strip()
        elif line.startswith("  "):
            found.append(line.strip())
        else:
            break
    return found


def at_turn(colours: list[str], seed: int) -> engine.State:
    """The game after its first round's power cards, played by default moves."""
    state = engine.new_game(colours, seed=seed)
    while engine.pending(state)[0]["kind"] != "turn":
        colour = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, colour, engine.default_move(state, colour))
    return state


def with_card(state: engine.State, card: str) -> engine.State:
    """`state` with `card` face up on its stack, for the turn under way to choose."""
    board = state.copy()
    board.face_up[min(CARD_STACKS[card])] = card
    return board


def chosen(state: engine.State, card: str) -> engine.State:
    """The turn under way takes no caballeros and chooses `card`."""
    colour = engine.pending(state)[0]["player"]
    state, _ = engine.apply(state, colour, {"type": "take_caballeros", "count": 0})
    stack = min(CARD_STACKS[card])
    state, _ = engine.apply(state, colour, {"type": "choose_card", "card": card, "stack": stack})
    return state


@pytest.mark.parametrize(("colours", "seed", "rounds"), [(THREE, 5, 6), (FOUR, 8, 9)])
def test_a_power_card_mail_names_the_rounds_action_cards_and_the_kings_place(
    app, colours, seed, rounds
):
    state = engine.new_game(colours, seed=seed, options={"rounds": rounds})
    colour = engine.pending(state)[0]["player"]
    view = engine.view(state, colour)
    face_up = sorted(view["action_cards"]["face_up"], key=lambda c: c["stack"])
    assert len(face_up) == 5
    with app.app_context():
        text, html = parts(state, colour)
        titles = {c["card"]: words.card_title(c["card"]) for c in face_up}
        short = {c["card"]: words.card_short_text(c["card"]) for c in face_up}
        king = words.place_name(view["king"])
    listed = section(text, "This round's action cards")
    assert listed == [f"{c['stack']}  {titles[c['card']]} ({short[c['card']]})" for c in face_up]
    assert f"The king is in {king}: caballeros may be placed in" in flat(text)
    for card in face_up:  # the HTML part's table, a row each
        cells = rf"<b>{card['stack']}</b></td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)<"
        row = re.search(cells, html)
        assert row and row.groups() == (titles[card["card"]], str(escape(short[card["card"]])))
    # Shortened, each card's line fits a mail's width.
    assert all(len(line) <= 78 for line in text.split("\n") if re.match(r"  [1-5]  |     \S", line))


def test_every_card_has_its_few_words_in_every_language(app):
    assert set(words.CARD_SHORT_TEXTS) == set(words.CARD_TEXTS)
    for language in ("de", "es", "fr", "it", "ru"):
        with app.app_context(), in_language(language):
            for card, english in words.CARD_SHORT_TEXTS.items():
                said = words.card_short_text(card)
                assert said != english and len(said) <= len(words.card_text(card)), (language, card)


def test_a_turn_mail_lists_no_round_cards_beside_its_own(app):
    state = at_turn(THREE, 5)
    with app.app_context():
        text, _ = parts(state, engine.pending(state)[0]["player"])
    assert "This round's action cards" not in text and "The action cards face up" in text


def test_a_castillo_pick_mail_says_the_castillo_is_scored_before_they_go(app):
    state = at_turn(THREE, 5)
    state.round_index = 2  # chart round 3: a general scoring follows this round
    state.move_caballeros("blue", "court", "castillo", 3)
    while state.phase != "castillo_pick":
        colour = engine.pending(state)[0]["player"]
        state, _ = engine.apply(state, colour, engine.default_move(state, colour))
    count = engine.view(state, "blue")["castillo"]["caballeros"]["blue"]
    with app.app_context():
        text, _ = parts(state, "blue")
    said = flat(text)
    assert count >= 3
    assert f"The Castillo is scored first; then your {count} caballeros there go, all" in said
    assert "every region is scored with them there" in said
    assert said.count("General scoring:") <= 1  # the subject's line, not again in the guide


def secret_pick_of(card: str, colours: list[str]) -> tuple[engine.State, str]:
    """A state where an opponent of the player of `card` must make its secret pick, and who."""
    state = at_turn(colours, 5)
    actor = engine.pending(state)[0]["player"]
    for colour in colours:  # every colour has caballeros in two regions beside its home
        if colour != actor:
            state.move_caballeros(colour, "court", "galicia" if colour != "blue" else "aragon", 2)
    state = chosen(with_card(state, card), card)
    for _ in range(10):
        picking = [p["player"] for p in engine.pending(state) if p["kind"] == "secret_pick"]
        if picking and picking != [actor]:
            return state, next(c for c in picking if c != actor)
        legal = engine.legal_moves(state, actor)
        move = next(m for m in legal if m["type"] not in ("place", "end_turn", "skip_special"))
        state, _ = engine.apply(state, actor, move)
    raise AssertionError(f"no secret pick for {card}")


@pytest.mark.parametrize(
    ("card", "says"),
    [
        ("secret_two_from_region", "Pick a region holding at least 2 of your caballeros"),
        ("secret_all_from_region", "all of yours there go back to your province"),
        ("eviction", "must leave it: pick the region they all go to (neither"),
        ("secret_scoring", "each region that one player alone picked is scored"),
    ],
)
def test_a_secret_pick_mail_says_what_the_readers_pick_does(app, card, says):
    state, colour = secret_pick_of(card, FOUR)
    with app.app_context():
        text, html = parts(state, colour)
        title = words.card_title(card)
    said = flat(text)
    assert title in said and says in said, said
    assert str(escape(says)) in " ".join(html.split())


def test_an_eviction_says_its_order_is_whom_it_hits_first_then_next(app):
    state = at_turn(FOUR, 5)
    actor = engine.pending(state)[0]["player"]
    for colour in FOUR:
        if colour != actor:
            state.move_caballeros(colour, "court", "galicia", 1)
    state = chosen(with_card(state, "eviction"), "eviction")
    state, _ = engine.apply(state, actor, {"type": "special_region", "region": "galicia"})
    with app.app_context():
        text, _ = parts(state, actor)
        first = flat(text)
        others = [c for c in FOUR if c != actor]
        state, _ = engine.apply(state, actor, {"type": "target", "player": others[1]})
        text, _ = parts(state, actor)
        described = words.moves.describe_move({"type": "target", "player": "blue"})
    assert "You named Galicia: Eviction hits your opponents there one after another" in first
    assert 'Choose whom it hits first ("target <colour>")' in first
    # Once it is under way, placing is over: the mail does not offer it any more.
    assert "place up to" not in first and "caballeros may be placed in" not in first
    assert f"Choose whom it hits next, after {NAMES[others[1]]}" in flat(text)
    assert described == "hit blue next"


def test_the_footer_names_the_command_that_ends_the_mails_apart_from_the_move(app):
    state = at_turn(THREE, 5)
    colour = engine.pending(state)[0]["player"]
    state = chosen(with_card(state, "intrigue_four_own"), "intrigue_four_own")
    state, _ = engine.apply(state, colour, {"type": "place", "to": "castillo"})
    legal = engine.legal_moves(state, colour)
    state, _ = engine.apply(state, colour, next(m for m in legal if m["type"] == "move_caballero"))
    assert {"type": "end_special"} in engine.legal_moves(state, colour)
    with app.app_context():
        text, _ = parts(state, colour)
    said = flat(text)
    assert '("stop" in a mail' in said  # the move that ends the special action
    assert '"stop mails" ends these mails for this game' in said
    assert '"stop" ends these mails' not in said


# -- a whole game by mail ------------------------------------------------------------------

#: A new seed for the whole game below (no other test plays it): one game is enough.
WHOLE_GAME_SEEDS = [5_423_117]
HUMAN = "reader@example.org"


def _mails_since(app, player_id: int, after: int) -> list[tuple[int, str, EmailMessage]]:
    """The mails to the player queued after row `after`, composed as the sender composes
    them: (row id, kind, mail)."""
    with app.app_context():
        sender.compose_queued()
        rows = db.session.execute(
            sa.select(Notification.id, Notification.kind, Notification.message)
            .where(Notification.player_id == player_id, Notification.id > after)
            .where(Notification.channel == "mail")
            .order_by(Notification.id)
        ).all()
        db.session.remove()
    return [(i, k, message_from_string(m, policy=policy.default)) for i, k, m in rows]


def _listed_cards(text: str) -> list[str]:
    return section(text, "This round's action cards")


@pytest.mark.parametrize("seed", WHOLE_GAME_SEEDS)
def test_a_short_game_by_mail_names_each_rounds_cards_and_counts_its_rounds_one_way(
    app, api, monkeypatch, seed
):
    """A 6-round game, red answering every mail by reply (its worked example), greedy house
    bots on the other seats: every power card mail names that round's five action cards as
    the engine's view at its seq has them face up; the panel, every mail and the API say
    the general scorings come after rounds 2, 4 and 6, each mail its round of 6, and the
    finished game's score chart counts six rounds."""
    monkeypatch.setattr(lifecycle, "secrets", SimpleNamespace(randbits=lambda _bits: seed))
    key = api.register(HUMAN, "Reader")
    seats = [{"email": HUMAN, "colour": "red"}]
    seats += [{"colour": c, "bot": True, "level": "greedy"} for c in ("blue", "green")]
    made = api.client.post(
        "/api/games",
        json={"title": "Short", "seats": seats, "options": {"rounds": 6}},
        headers=api.auth(key),
    )
    assert made.status_code == 201, made.get_json()
    game_id = made.get_json()["id"]
    player_id = api.get("/api/players/me", key).get_json()["id"]
    scorings_said = "General scoring after rounds 2, 4, and 6 of 6."
    panel = parse(api.client.get(f"/games/{game_id}").get_data(as_text=True))
    assert panel.find("p", cls="scorings").text == scorings_said
    assert api.get(f"/api/games/{game_id}", key).get_json()["scoring_rounds"] == [2, 4, 6]
    last, power_mails, rounds_named, scored_after = 0, 0, set(), []
    for _ in range(400):
        with app.app_context():
            sweep()
        mails = _mails_since(app, player_id, last)
        last = max([last, *(i for i, _, _ in mails)])
        view = api.get(f"/api/games/{game_id}", key).get_json()
        for _, kind, mail in mails:
            text = mail.get_body(preferencelist=("plain",)).get_content()
            if kind in ("scoring", "game_over"):
                found = re.search(r"General scoring after round (\d) of 6 in", text)
                scored_after += [int(found[1])] if found else []
                assert scorings_said in flat(text)
            if kind != "decision":
                continue
            _, _, seq = addresses.read_message_id(str(mail["Message-ID"]))
            then = api.get(f"/api/games/{game_id}/states/{seq}", key).get_json()
            assert f"Round {then['round_number']} of 6." in text and scorings_said in flat(text)
            if "Play a power card" not in text:
                continue
            power_mails += 1
            rounds_named.add(then["round_number"])
            with app.app_context():
                face_up = sorted(then["action_cards"]["face_up"], key=lambda c: c["stack"])
                titles = [f"{c['stack']}  {words.card_title(c['card'])} (" for c in face_up]
            listed = _listed_cards(text)
            assert len(listed) == 5 and all(
                line.startswith(title) for line, title in zip(listed, titles, strict=True)
            ), (listed, titles)
        if view["status"] != "active":
            break
        if any(p["player"] == "red" for p in view["pending"]):
            _answer(app, api, game_id, key, mails)
    else:
        raise AssertionError("the game did not end")
    assert view["status"] == "finished"
    assert power_mails == 6 and rounds_named == {1, 2, 3, 4, 5, 6}
    assert scored_after == [2, 4]  # the third, after round 6, is the game's end
    log = api.get(f"/api/games/{game_id}/log", key).get_json()["moves"]
    general = [e for m in log for e in m["events"] if e["type"] == "general_scoring"]
    assert [e["round_number"] for e in general] == view["scoring_rounds"] == [2, 4, 6]
    # The finished game's score chart counts the same rounds: the start, then 1 to 6.
    finished = parse(api.client.get(f"/games/{game_id}").get_data(as_text=True))
    chart = finished.find("figure", cls="score-chart")
    ticks = [t.text for t in chart.find_all("text") if "round" in (t.get("class") or "")]
    assert ticks == [str(n) for n in range(7)]


def _answer(app, api, game_id: int, key: str, mails: list) -> None:
    """Red answers by mail: the newest decision mail's worked example, then, while the
    decision is still theirs (an example stops before what it would reveal), the first move
    each answer lists."""
    asked = [m for _, kind, m in mails if kind == "decision"]
    mail = asked[-1] if asked else None
    for _ in range(40):
        if mail is None:
            return
        text = mail.get_body(preferencelist=("plain",)).get_content()
        lines = section(text, "A whole answer in one reply") or moves_listed(mail)[:1]
        assert lines, text
        result = inbound(app, reply(mail, "\n".join(lines), sender=HUMAN))
        assert result.outcome == "played", (result, text)
        view = api.get(f"/api/games/{game_id}", key).get_json()
        if not any(p["player"] == "red" for p in view["pending"]):
            return
        answers = [m for _, kind, m in _mails_since(app, _player(app), 0) if kind == "answer"]
        mail = answers[-1]
    raise AssertionError("red's decision did not end")


def _player(app) -> int:
    with app.app_context():
        found = db.session.execute(sa.select(Player.id).where(Player.email == HUMAN)).scalar()
        db.session.remove()
    return found
