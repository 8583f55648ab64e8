"""Composing mails: what each one says, from Jinja templates under `templates/mail/` (a text
and an HTML part each), as RFC 822 messages with the game's threading headers.

Everything a mail shows of a game comes from the engine for its recipient's colour: the
view (`engine.view`), the legal moves, the log as `engine.visible_log` lets them see it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import base64mime
from email.headerregistry import Address
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime
from functools import cache, wraps
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import quote

import jinja2
from flask import current_app

import engine
from engine.bots.review import Review
from pbem import jinja, languages, tokens, words
from pbem.clock import now
from pbem.languages import N_, _, moment_text
from pbem.notify import addresses, header_fields, payloads
from pbem.notify.header_fields import kept
from pbem.notify.later import shown
from pbem.paths import TEMPLATES_DIR
from pbem.words import ASKS, advice, moves, place_name, term
from pbem.words.board import board_table
from pbem.words.lessons import Lesson
from pbem.words.moves import move_lines, moves_text, notation_line

P = ParamSpec("P")
R = TypeVar("R")

#: The line every mail's text starts its quotable part with: mail in reads above it.
REPLY_ABOVE = N_("## Reply above this line to play. ##")


@dataclass(frozen=True)
class Recipient:
    player_id: int
    email: str
    name: str
    colour: str | None  # the seat a mail is for; None for a game-wide mail
    # A bot plays that seat for now: it is sent no decision mails (the bot decides at once).
    bot_plays: bool = False
    # What the mail is written in (`languages.language_of`: their choice, else the game's).
    language: str = languages.DEFAULT
    # They subscribed a browser to pushes (`outbox.recipients` reads it): only then is a
    # push made, so a move with nobody subscribed reads no subscription.
    pushes: bool = False


def seat_of(recipient: Recipient) -> str:
    """The seat a mail to `recipient` is for: every recipient of a game's seat mail is read
    with its seat (`outbox.recipients`)."""
    assert recipient.colour is not None, "a seat's mail names its seat"
    return recipient.colour


#: The longest a display name may be in `To`, quoted (with its escapes): Python's header
#: folding unquotes a quoted name it must split over lines, and then its commas would name
#: more recipients; a name this short fits the header's first line and is never split.
_SHOWN_NAME_LENGTH = 60


def to_header(recipient: Recipient) -> Address:
    """`To` for `recipient`: their address (one kept by `pbem.addresses.kept_address`, the
    same the envelope names) with their name shown beside it, quoted or encoded as it needs,
    on one line, and short enough never to be folded."""
    shown = " ".join("".join(c if c.isprintable() else " " for c in recipient.name).split())
    while len(shown) + shown.count('"') + shown.count("\\") > _SHOWN_NAME_LENGTH:
        shown = shown[:-1]
    return Address(display_name=shown.rstrip(), addr_spec=recipient.email)


def in_recipients_language(
    compose_mail: Callable[Concatenate[Recipient, P], R],
) -> Callable[Concatenate[Recipient, P], R]:
    """A mail composed in its recipient's language: its words, the game's words it quotes
    and the names of the board, whichever language the request or job that sends it is in."""

    @wraps(compose_mail)
    def composed(recipient: Recipient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with languages.in_language(recipient.language):
            return compose_mail(recipient, *args, **kwargs)

    return composed


@cache
def _environment() -> jinja2.Environment:
    env = jinja.MailEnvironment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=shown,  # lazy lines (answers, notices) written in the mail's language
    )
    languages.install_in(env)  # `_` and `{% trans %}`, in the language being rendered
    return env


def render(template: str, **context: Any) -> tuple[str, str]:
    """The text and HTML parts of `templates/mail/<template>.txt|.html`."""
    env = _environment()
    context = {
        "place_name": place_name,
        "term": term,
        "colour_name": words.colour_name,
        "notation_help": moves.notation_help,
        "help_examples": moves.help_examples,
        "command": moves.command,
        "notation_line": moves.notation_line,
        "scoring_rounds_line": words.scoring_rounds_line,
        "reply_above": _(REPLY_ABOVE),
        **context,
    }
    text = env.get_template(f"mail/{template}.txt").render(**context)
    html = env.get_template(f"mail/{template}.html").render(**context)
    return text, html


#: Where links point when PBEM_BASE_URL is unset and nothing set it (`pbem serve` sets it
#: to the address it listens on): `pbem serve`'s default address.
FALLBACK_BASE_URL = "http://127.0.0.1:5000"


def base_url() -> str:
    """PBEM_BASE_URL, else `pbem serve`'s default address; never the request's Host header,
    which any client may set: a link mailed to someone else would lead them to its site."""
    configured: str | None = current_app.config.get("PBEM_BASE_URL")
    return (configured or FALLBACK_BASE_URL).rstrip("/")


def game_link(game_id: int, recipient: Recipient | None = None) -> str:
    """The game's page; for a seat's mail, the seat's signed link, which signs them in."""
    if recipient is not None and recipient.colour is not None:
        token = tokens.seat_link_token(game_id, recipient.colour, recipient.player_id)
        return f"{base_url()}/games/{game_id}/sign-in/{token}"
    return f"{base_url()}/games/{game_id}"


def message(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    subject: str,
    parts: tuple[str, str],
    seq: int | None = None,
    first: bool = False,
) -> EmailMessage:
    """A mail of game `game_id` to `recipient`, threaded with their others of that game."""
    mail = _addressed(recipient)
    mail["Subject"] = kept("Subject", f"[El Grande #{game_id}] {title}: {subject}")
    mail["Date"] = kept("Date", format_datetime(now()))
    colour = recipient.colour or "all"
    root = addresses.thread_root(game_id, colour)
    if first:
        mail["Message-ID"] = root
    else:
        mail["Message-ID"] = addresses.message_id(game_id, colour, seq)
        mail["In-Reply-To"] = kept("In-Reply-To", root)
        mail["References"] = kept("References", root)
    if recipient.colour:
        mail["Reply-To"] = kept("Reply-To", addresses.seat_address(game_id, recipient.colour))
    mail["List-Id"] = kept("List-Id", addresses.list_id(game_id))
    mail["List-Unsubscribe"] = kept(
        "List-Unsubscribe", ", ".join(unsubscribe_links(recipient, game_id))
    )
    if base_url().startswith("https://"):
        # RFC 8058's one-click unsubscribe is for an https link only.
        mail["List-Unsubscribe-Post"] = kept("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
    mail["Auto-Submitted"] = kept("Auto-Submitted", "auto-generated")
    return with_parts(mail, parts)


def _addressed(recipient: Recipient) -> EmailMessage:
    """A mail from the game's address to `recipient` (`to_header`)."""
    mail = EmailMessage(policy=header_fields.POLICY)
    mail["From"] = kept("From", current_app.config["MAIL_FROM"])
    to = to_header(recipient)
    mail["To"] = header_fields.kept_address("To", to.display_name, to.addr_spec)
    return mail


#: The boundary between a mail's parts, one per process. RFC 2046 asks only that it never
#: start a line of a part; both parts are quoted-printable or base64, where "==" cannot
#: (quoted-printable writes "=" as "=3D"; base64 pads with "=" at a line's end only).
_BOUNDARY = f"==============={secrets.randbelow(10**19):019d}=="


def with_parts(mail: EmailMessage, parts: tuple[str, str]) -> EmailMessage:
    """`mail` with its text and HTML parts as multipart/alternative, each in its
    `transfer_encoding`: what `set_content` and `add_alternative` make, their fields made
    once (`header_fields.kept`) rather than parsed again for every mail."""
    text, html = parts
    mail["MIME-Version"] = kept("MIME-Version", "1.0")
    mail["Content-Type"] = kept("Content-Type", f'multipart/alternative; boundary="{_BOUNDARY}"')
    mail.set_payload([_text_part("plain", text), _text_part("html", html)])
    return mail


def _text_part(subtype: str, content: str) -> MIMEPart:
    """A text part in UTF-8, its lines ending as the policy's do once written."""
    cte = transfer_encoding(content)
    body = "\n".join(content.splitlines()) + "\n"
    part = MIMEPart(policy=header_fields.POLICY)
    part["Content-Type"] = kept("Content-Type", f'text/{subtype}; charset="utf-8"')
    part["Content-Transfer-Encoding"] = kept("Content-Transfer-Encoding", cte)
    if cte == "base64":
        # 57 bytes a line, 76 characters encoded: what `set_content` writes.
        part.set_payload(base64mime.body_encode(body.encode(), maxlinelen=76))
    else:
        # The UTF-8 bytes one character each, as quoprimime encodes them.
        part.set_payload(quoted_printable(body.encode().decode("latin-1"), maxlinelen=78))
    return part


def quoted_printable(body: str, maxlinelen: int = 76) -> str:
    """`quoprimime.body_encode(body, maxlinelen)`, the same text, made faster where it is
    slow. It quotes with `str.translate` over a table of 256, which leaves Python's fast
    path at the first character it must quote: a decision mail's HTML part, with hundreds of
    "=" in its attributes, took a tenth of composing the mail. Here "=" is quoted by
    `str.replace` and the rare rest (beyond ASCII, controls) by a regex; the lines are
    then broken as quoprimime breaks them (RFC 2045: soft breaks "=" at the end of a line,
    never inside a quoted octet, and a space or tab ending a line quoted)."""
    if not body:
        return body
    quoted = body.replace("=", "=3D")
    if _QUOTED_BUT_EQUALS.search(quoted):
        quoted = _QUOTED_BUT_EQUALS.sub(lambda found: _quoted(found.group()), quoted)
    lines: list[str] = []
    for line in quoted.splitlines():
        start, last_start = 0, len(line) - 1 - maxlinelen
        while start <= last_start:  # a soft break each maxlinelen - 1 characters
            stop = start + maxlinelen - 1
            if line[stop - 2] == "=":  # not inside "=XX": break before it
                lines.append(line[start : stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                lines.append(line[start:stop])
                start = stop - 1
            else:
                lines.append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":  # a line's last blank would be taken for padding
            room = start - last_start
            if room >= 3:
                end = _quoted(line[-1])
            elif room == 2:
                end = line[-1] + "=\n"
            else:
                end = "=\n" + _quoted(line[-1])
            lines.append(line[start:-1] + end)
        else:
            lines.append(line[start:])
    if quoted[-1] in "\r\n":
        lines.append("")
    return "\n".join(lines)


#: What quoted-printable must quote besides "=": all but a space, tab, line end or
#: printable ASCII.
_QUOTED_BUT_EQUALS = re.compile(r"[^\t\n\r -~]")


def _quoted(character: str) -> str:
    return f"={ord(character):02X}"


def transfer_encoding(part: str) -> str:
    """How a part travels, in ASCII either way (SMTP's lines stay short): quoted-printable
    for text mostly in the Latin alphabet, which stays readable and small; base64 for the
    rest (Cyrillic quoted-printable is three times its UTF-8 and slower to encode)."""
    # What is left once the Latin runs are cut out (in C, not a loop over characters).
    outside = 0 if part.isascii() else len(_LATIN_RUNS.sub("", part))
    return "base64" if outside * 10 > len(part) else "quoted-printable"


#: Runs of characters of the Latin alphabet (Basic Latin to Latin Extended-B).
_LATIN_RUNS = re.compile("[\u0000-\u024f]+")


#: What a mail program's "unsubscribe" sends to a seat's address: the command ending the
#: game's mails ("stop" with a word after it, never the move that ends a card).
UNSUBSCRIBE_COMMAND = "stop mails"


def unsubscribe_links(recipient: Recipient, game_id: int) -> list[str]:
    """`List-Unsubscribe`'s links: the page (one click where it is https), then, for a seat,
    a mail to the seat's address that says "stop mails", which works over any base URL."""
    token = tokens.unsubscribe_token(recipient.player_id, game_id)
    links = [f"<{base_url()}/mail/unsubscribe/{token}>"]
    if recipient.colour:
        seat = addresses.seat_address(game_id, recipient.colour)
        words = quote(UNSUBSCRIBE_COMMAND)
        links.append(f"<mailto:{seat}?subject={words}&body={words}>")
    return links


def when(moment: datetime | None) -> str | None:
    """A deadline as a queued mail keeps it (ISO 8601), to be written in its recipient's
    language when the mail is composed (`deadline_text`)."""
    return moment.isoformat() if moment is not None else None


def deadline_text(deadline: datetime | str | None) -> str | None:
    """A deadline as a mail writes it, in the language being rendered: UTC, to the minute.
    Given as kept by `when` (or, queued by an older version, already written: kept so)."""
    if deadline is None:
        return None
    try:
        return moment_text(deadline, year=True)
    except ValueError:
        return str(deadline)


def log_lines(
    entries: Sequence[engine.ShownLogEntry], before: str | None = None, reader: str | None = None
) -> list[tuple[engine.ShownLogEntry, str, list[str]]]:
    """Log entries as `reader` may see them (`engine.visible_log`), each with its move in
    words, as what it did under the card that asked it (a hidden one by its kind), and what
    it made happen. `before`: the action card in play before the first."""
    told = []
    for entry, card in zip(entries, words.cards_of(entries, before=before), strict=True):
        move, effects = words.played_entry(entry, card, {}, reader)
        told.append((entry, move, effects))
    return told


@in_recipients_language
def decision_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    state: engine.State,
    decision: engine.Pending,
    seq: int,
    deadline: datetime | str | None = None,
    reminder: bool = False,
    since: Sequence[engine.LogEntry] = (),
    names: Mapping[str, str] | None = None,
    bank: int | None = None,
    lessons: Sequence[Lesson] = (),
) -> EmailMessage:
    """Tell a seat a decision is theirs: what happened since their last move (`since`, the
    log entries after it, shown as they may see them; `names`: each colour's player), what
    is asked and all it needs (the action cards, where caballeros may go, a worked example
    of a whole answer), the board, their hand, their legal moves (and remind them of it,
    before its deadline). `bank`: a time-bank game's seat's bank, in seconds. `lessons`: a
    game that teaches, what this decision teaches (`pbem.words.lessons`)."""
    colour = recipient.colour
    assert colour is not None
    view = engine.view(state, colour)
    # The decision as the observer shows it to this seat, not as it was queued: a Veto
    # window's plan names the card power_card_return takes back to its own player only.
    decision = next(
        (p for p in view["pending"] if p["player"] == colour and p["kind"] == decision["kind"]),
        decision,
    )
    legal = engine.legal_moves(state, colour)
    card = words.card_in_play(view)
    moves = move_lines(legal, card)
    asks = _(ASKS.get(decision["kind"], N_("A decision is yours.")))
    context = {
        "recipient": recipient,
        "game_id": game_id,
        "title": title,
        "asks": asks,
        "decision": decision,
        "view": view,
        "board": board_table(view),
        "hand": view["players"][colour].get("hand", []),
        "moves": moves,
        "deadline": deadline_text(deadline),
        "bank": words.bank_text(bank) if bank is not None else None,
        "link": game_link(game_id, recipient),
        "seq": seq,
        "story": words.story(engine.visible_log(since, {colour}), names or {}, colour, after=card),
        "guide": words.guide(view, colour, decision, names),
        "cards": _cards_to_choose(state, view, decision),
        # A power card is played for a place in the order of this round's turns: which
        # action cards they choose from, and where the king stands.
        "round_cards": words.round_cards(view) if decision["kind"] == "power_card" else [],
        "king_line": words.king_line(view),
        "power_cards": [
            words.power_card_line(m["card"]) for m in legal if m["type"] == "play_power_card"
        ],
        "example": words.worked_example(state, colour),
        "orders": words.orders_hint(decision["kind"]),
        "lessons": lessons,
    }
    subject = asks.rstrip(".")
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("reminder: %(subject)s", subject=f"{subject[0].lower()}{subject[1:]}")
        if reminder
        else subject,
        parts=render("decision", **context),
        seq=seq,
    )


def _cards_to_choose(
    state: engine.State, view: engine.View, decision: engine.Pending
) -> list[dict[str, Any]]:
    """The face-up action cards, for a turn that has not chosen one yet, each with the first
    move of its special action written out for this position."""
    turn = view["turn"]
    if decision["kind"] != "turn" or turn is None or turn["step"] not in ("draw", "choose_card"):
        return []
    examples = words.card_examples(state, decision["player"])
    return [{**card, "example": examples.get(card["stack"])} for card in words.face_up_cards(view)]


@in_recipients_language
def scoring_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    state: engine.State,
    events: Sequence[engine.Event],
    seq: int,
    names: Mapping[str, str] | None = None,
    totals: Mapping[str, Mapping[str, int]] | None = None,
) -> EmailMessage:
    """After a general scoring or at the end: each place scored with its breakdown (ranks,
    points, king's and home bonuses), the standings, and at the end each player's points by
    source (`totals`, from `words.points_by_source`)."""
    view = engine.view(state, recipient.colour)
    awards = [e for e in events if e["type"] == "score"]
    standings = sorted(view["players"].items(), key=lambda item: -item[1]["score"])
    over = view["phase"] == "over"
    names = names or {}
    context = {
        "recipient": recipient,
        "title": title,
        "game_id": game_id,
        "breakdown": words.scoring_lines(awards, names, recipient.colour),
        "standings": [
            {
                "who": words.who(colour, names, None),
                "score": player["score"],
                "sources": [
                    f"{languages._(source)} {(totals or {}).get(colour, {}).get(source, 0)}"
                    for source in words.SOURCES
                ]
                if totals is not None
                else [],
            }
            for colour, player in standings
        ],
        "over": over,
        "view": view,
        # The round it followed: the state is the next round's by now (or the game's end).
        "scored_round": view["rounds_total"] if over else view["round_number"] - 1,
        "winners": [words.colour_name(colour) for colour in view.get("winners", [])],
        "teams": view.get("teams"),
        "link": game_link(game_id),
    }
    subject = _("the game is over") if over else _("general scoring")
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=subject,
        parts=render("scoring", **context),
        seq=seq,
    )


@in_recipients_language
def welcome_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    seats: Sequence[payloads.WelcomeSeat],
    claim_token: str | None = None,
    declinable: bool = True,
) -> EmailMessage:
    """The first mail of a seat's thread: the game has started, how to play, how to decline
    the seat (not for its organiser), and (for an email with no account yet) a one-time link
    to claim an API key."""
    assert recipient.colour is not None
    context = {
        "recipient": recipient,
        "title": title,
        "game_id": game_id,
        "seats": seats,
        "link": game_link(game_id, recipient),
        "claim": f"{base_url()}/mail/claim/{claim_token}" if claim_token else None,
        "decline": f"{base_url()}/mail/decline/"
        + tokens.decline_token(game_id, recipient.colour, recipient.player_id)
        if declinable
        else None,
        # Someone else seated them: this mail invites them, and may be refused for good.
        "never": never_invite_link(recipient.email) if declinable else None,
    }
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("a game of El Grande for you"),
        parts=render("welcome", **context),
        first=True,
    )


@in_recipients_language
def invitation_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    organiser: str,
    seats: list[dict[str, Any]],
    pace: str,
    rounds: int,
) -> EmailMessage:
    """An invitation to a game that forms: who invites you to what, its seats and pace, and
    links to accept or decline the seat (nothing to reply: the game has not begun)."""
    assert recipient.colour is not None
    seat = (game_id, recipient.colour, recipient.player_id)
    context = {
        "recipient": recipient,
        "title": title,
        "organiser": organiser,
        "seats": seats,
        "pace": pace,
        "rounds": rounds,
        "accept": f"{base_url()}/games/{game_id}/accept/{tokens.accept_token(*seat)}",
        "decline": f"{base_url()}/mail/decline/{tokens.decline_token(*seat)}",
        "never": never_invite_link(recipient.email),
    }
    # The organiser's name and title are their words, quoted, never the server's sentence.
    subject = "[El Grande] " + _(
        "“%(organiser)s” invites you to a game called “%(title)s”", organiser=organiser, title=title
    )
    return plain_message(recipient, subject, render("invitation", **context))


def never_invite_link(email: str) -> str:
    """The page that asks, and then makes sure, that `email` is never invited again."""
    return f"{base_url()}/never-invite/{tokens.never_invite_token(email)}"


def text_of(mail: EmailMessage) -> str:
    """The text part, as a digest quotes it."""
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None  # every mail composed here has a text part
    text: str = body.get_content()
    return text


@in_recipients_language
def moves_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    entries: Sequence[engine.ShownLogEntry],
    seq: int,
    before: str | None = None,
) -> EmailMessage:
    """Every move preference: what another seat just played, as the recipient may see it,
    in words, with what it made happen (`before`: the action card in play before it)."""
    lines = []
    for entry, move, effects in log_lines(entries, before, recipient.colour):
        lines.append(f"{words.colour_name(entry['player'])}: {move}")
        lines += [f"  {effect}" for effect in effects]
    context = {"title": title, "game_id": game_id, "lines": lines, "link": game_link(game_id)}
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("%(colour)s played", colour=words.colour_name(entries[0]["player"])),
        parts=render("moves", **context),
        seq=seq,
    )


def public_summary(
    *,
    game_id: int,
    title: str,
    state: engine.State,
    entries: Sequence[engine.ShownLogEntry],
    scored: Sequence[Mapping[str, Any]] | None,
) -> str:
    """One line per move, who must act next, and scoring results, as a spectator sees them
    (for webhooks, which post where anyone in a channel may read)."""
    view = engine.view(state, None)
    lines = [f"[El Grande #{game_id}] {title}"]
    lines += [f"{e['player']}: {move}" for e, move, _effects in log_lines(entries)]
    if scored:
        awards = [e for e in scored if e["type"] == "score"]
        lines += [f"{a['player']} +{a['points']} in {place_name(a['place'])}" for a in awards]
        lines.append(
            "Scores: " + ", ".join(f"{c} {p['score']}" for c, p in view["players"].items())
        )
    waiting = sorted({p["player"] for p in view["pending"]})
    if waiting:
        lines.append("Now: " + ", ".join(waiting))
    elif view["phase"] == "over":
        lines.append("Game over. Won by " + " and ".join(view.get("winners", [])) + ".")
    return "\n".join(lines)


def plain_message(recipient: Recipient, subject: str, parts: tuple[str, str]) -> EmailMessage:
    """A mail that belongs to no game's thread (a key, a digest, the help)."""
    mail = _addressed(recipient)
    mail["Subject"] = subject
    mail["Date"] = kept("Date", format_datetime(now()))
    mail["Message-ID"] = addresses.message_id(None, None, None)
    mail["Auto-Submitted"] = kept("Auto-Submitted", "auto-generated")
    return with_parts(mail, parts)


@in_recipients_language
def key_mail(recipient: Recipient, key: str) -> EmailMessage:
    """A new API key, asked for by mail (POST /api/players/key-reset)."""
    parts = render("key", recipient=recipient, key=key, link=base_url())
    return plain_message(recipient, "[El Grande] " + _("your new API key"), parts)


@in_recipients_language
def sign_in_mail(
    recipient: Recipient, link: str, minutes: int, known: bool, registering: bool = False
) -> EmailMessage:
    """A one-time sign-in link, asked for at /sign-in (`known`: the address has a player), or
    by `POST /api/players` (`registering`: following it shows an API key)."""
    parts = render(
        "sign_in",
        recipient=recipient,
        link=link,
        minutes=minutes,
        known=known,
        registering=registering,
        site=base_url(),
    )
    subject = _("confirm your address") if registering else _("your sign-in link")
    return plain_message(recipient, "[El Grande] " + subject, parts)


@in_recipients_language
def email_change_mail(recipient: Recipient, link: str, hours: int, old_email: str) -> EmailMessage:
    """To a new address: the link that makes it the player's (asked for on /me)."""
    parts = render(
        "email_change",
        recipient=recipient,
        link=link,
        hours=hours,
        old_email=old_email,
        site=base_url(),
    )
    return plain_message(recipient, "[El Grande] " + _("confirm your new address"), parts)


@in_recipients_language
def email_changed_mail(recipient: Recipient, new_email: str) -> EmailMessage:
    """To the old address: it is no longer the player's (a change they did not make shows)."""
    parts = render("email_changed", recipient=recipient, new_email=new_email, site=base_url())
    return plain_message(recipient, "[El Grande] " + _("your address has changed"), parts)


@in_recipients_language
def moderation_mail(
    recipient: Recipient, action: str, until: datetime | None, reason: str
) -> EmailMessage:
    """To a player an operator warned, suspended, banned or let back: what, until when, and
    the operator's reason, quoted."""
    parts = render(
        "moderation",
        recipient=recipient,
        action=action,
        until=moment_text(until, year=True) if until is not None else "",
        reason=reason,
        site=base_url(),
    )
    subjects = {
        "warn": _("a warning from the moderators"),
        "suspend": _("you are suspended for now"),
        "ban": _("your account is closed"),
        "lift": _("you may play again"),
    }
    return plain_message(recipient, "[El Grande] " + subjects[action], parts)


@in_recipients_language
def digest_mail(recipient: Recipient, parts: list[str]) -> EmailMessage:
    """Gathered mails (every move, scorings) in one, for a player who asked for a digest."""
    subject = "[El Grande] " + _("what happened in your games (%(count)s)", count=len(parts))
    return plain_message(recipient, subject, render("digest", recipient=recipient, parts=parts))


@in_recipients_language
def declined_mail(
    recipient: Recipient, *, game_id: int, title: str, colour: str, name: str
) -> EmailMessage:
    """To the admin: a seat was declined; give it to someone else."""
    context = {
        "recipient": recipient,
        "title": title,
        "game_id": game_id,
        "colour": colour,
        "name": name,
        "link": game_link(game_id),
    }
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_(
            "%(name)s declined the %(colour)s seat", name=name, colour=words.colour_name(colour)
        ),
        parts=render("declined", **context),
    )


@in_recipients_language
def timed_out_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    kind: str,
    moves: list[engine.Move],
    seq: int,
    bot_now: bool,
    card: str | None = None,
) -> EmailMessage:
    """Your time ran out: what the server played for you, in words, as what each move did
    under `card`, the action card in play before them (a Veto window: it closed)."""
    context = {
        "recipient": recipient,
        "title": title,
        "game_id": game_id,
        "window": kind == "veto_window",
        # In words: the moves played, not lines to write.
        "moves": moves_text(moves, card),
        "bot_now": bot_now,
        "link": game_link(game_id),
    }
    subject = _("the Veto window closed") if kind == "veto_window" else _("your time ran out")
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=subject,
        parts=render("timed_out", **context),
        seq=seq,
    )


@in_recipients_language
def notice_mail(
    recipient: Recipient, *, game_id: int, title: str, subject: str, lines: list[str]
) -> EmailMessage:
    context = {"title": title, "game_id": game_id, "lines": lines, "link": game_link(game_id)}
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=subject,
        parts=render("notice", **context),
    )


@in_recipients_language
def hint_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    moves_found: Sequence[Mapping[str, Any]],
    card: str | None,
    seq: int,
) -> EmailMessage:
    """The hint a seat asked for by mail, once the scheduler has worked it out: its best
    moves (`moves_found`, best first, from `engine.bots.SearchBot.appraise`) at `seq`."""
    items = [{"text": line, "link": None} for line in advice.hint_lines(moves_found, card)]
    playouts = moves_found[0]["playouts"] if moves_found else 0
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("your hint at move %(seq)s", seq=seq),
        parts=render(
            "advice",
            title=title,
            game_id=game_id,
            heading=_("Your hint: the moves the strong bot found best for you now."),
            items=items,
            basis=advice.hint_basis(playouts),
            link=game_link(game_id, recipient),
        ),
    )


@in_recipients_language
def review_mail(recipient: Recipient, *, game_id: int, title: str, review: Review) -> EmailMessage:
    """Where a person lost points in a finished game, by the strong bot's review."""
    colour = recipient.colour or ""
    items = [
        {"text": line["text"], "link": f"{game_link(game_id)}?seq={line['seq']}"}
        for line in advice.review_lines(review["flagged"].get(colour, []))
    ]
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("where you lost points"),
        parts=render(
            "advice",
            title=title,
            game_id=game_id,
            heading=advice.review_summary(review, colour),
            items=items,
            basis=None,
            link=game_link(game_id),
        ),
    )


@in_recipients_language
def orders_mail(
    recipient: Recipient, *, game_id: int, title: str, moves: list[engine.Move], seq: int
) -> EmailMessage:
    """What a seat's orders played (its own mail: the others learn only the moves, as any
    other move); `seq`: the game's seq after them."""
    return notice_mail(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("your orders played %(moves)s", moves="; ".join(map(notation_line, moves))),
        lines=[*words.orders_played(moves), _("The game is at move %(seq)s.", seq=seq)],
    )


@in_recipients_language
def table_talk_mail(
    recipient: Recipient,
    *,
    game_id: int,
    title: str,
    speaker: str,
    colour: str | None = None,
    lines: Sequence[str],
    seq: int,
    said_at: datetime | str | None = None,
) -> EmailMessage:
    """Words a player wrote to the table (`speaker`, at `colour`, named in the reader's
    language), passed on in the game's thread, with when they were said (`said_at`, kept
    by `when`; written in UTC, the zone named, as no player's zone is kept)."""
    if colour is not None:
        speaker = f"{speaker} ({words.colour_name(colour)})"
    context = {
        "title": title,
        "game_id": game_id,
        "speaker": speaker,
        "lines": lines,
        "said": deadline_text(said_at),
        "link": game_link(game_id),
    }
    return message(
        recipient,
        game_id=game_id,
        title=title,
        subject=_("%(speaker)s says", speaker=speaker),
        parts=render("table_talk", **context),
        seq=seq,
    )


def bot_story_text(
    *,
    game_id: int,
    title: str,
    colour: str,
    entries: Sequence[engine.LogEntry],
    names: Mapping[str, str],
) -> str:
    """What happened at a seat a bot plays, for its person's digest: the story as the seat
    sees it, the bot's moves named as such."""
    named = {**names, colour: _("your bot")}
    lines = words.story(engine.visible_log(entries, {colour}), named, None)
    head = _(
        'In "%(title)s" (game %(game_id)s), a bot plays %(colour)s for you:',
        title=title,
        game_id=game_id,
        colour=colour,
    )
    return "\n".join([head, *(f"  {line}" for line in lines)])
