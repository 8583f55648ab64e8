"""The links mails carry: one-click unsubscribe (RFC 8058), claiming an API key, declining
a seat. Each GET only asks (mail scanners and link previews follow links); a POST acts."""

from __future__ import annotations

from flask import Blueprint, render_template_string, request

from pbem.errors import ServiceError
from pbem.extensions import db
from pbem.game.players import claim_key
from pbem.headers import no_referrer
from pbem.notify import preferences
from pbem.play.lifecycle import decline_seat
from pbem.store.models import Player
from pbem.tokens import read_decline_token, read_unsubscribe_token

blp = Blueprint("mail", __name__, url_prefix="/mail")
# Each page's address holds a token: no Referer carries it anywhere.
blp.before_request(no_referrer)

_PAGE = """<!doctype html><title>El Grande: mail</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{{ url_for('web.static', filename='pages.css') }}">
<body class="mail-page">
<p>{{ message }}</p>
{% if key %}<pre class="key">{{ key }}</pre>{% endif %}
{% if confirm %}<form method="post">
<button>{{ button }}</button></form>{% endif %}
</body>"""


@blp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token: str) -> str | tuple[str, int]:
    """GET asks (mail scanners follow links); POST, as mail clients send it, turns the mails
    of that game off for that player."""
    read = read_unsubscribe_token(token)
    player = db.session.get(Player, read[0]) if read else None
    if read is None or player is None:
        return render_template_string(
            _PAGE, message="This unsubscribe link is not valid.", confirm=False
        ), 404
    game_id = read[1]
    if request.method == "GET":
        return render_template_string(
            _PAGE,
            message=f"Stop the mails of El Grande game {game_id}?",
            confirm=True,
            button="Stop these mails",
        )
    preferences.mute(player, game_id)
    db.session.commit()
    return render_template_string(
        _PAGE, message=f"You will get no more mails from game {game_id}.", confirm=False
    )


@blp.route("/claim/<token>", methods=["GET", "POST"])
def claim(token: str) -> str | tuple[str, int]:
    """An invited email claims its API key: shown once, on this page."""
    if request.method == "GET":
        return render_template_string(
            _PAGE,
            message="Claim your API key for this El Grande server? It is shown once.",
            confirm=True,
            button="Show my key",
        )
    try:
        player, key = claim_key(token)
    except ServiceError as error:
        return render_template_string(_PAGE, message=error.detail, confirm=False), 410
    db.session.commit()
    return render_template_string(
        _PAGE,
        message=f"{player.name}, your API key (send it as Authorization: Bearer ...):",
        key=key,
        confirm=False,
    )


@blp.route("/decline/<token>", methods=["GET", "POST"])
def decline(token: str) -> str | tuple[str, int]:
    read = read_decline_token(token)
    if read is None:
        return render_template_string(_PAGE, message="This link is not valid.", confirm=False), 404
    game_id, colour, player_id = read
    if request.method == "GET":
        return render_template_string(
            _PAGE,
            message=f"Decline the {colour} seat of game {game_id}?",
            confirm=True,
            button="Decline the seat",
        )
    try:
        decline_seat(game_id, colour, player_id)
    except ServiceError as error:
        return render_template_string(_PAGE, message=error.detail, confirm=False), 409
    db.session.commit()
    return render_template_string(
        _PAGE,
        message=f"You declined the {colour} seat; the game's admin has been told.",
        confirm=False,
    )
