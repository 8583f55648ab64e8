"""The links mails carry: one-click unsubscribe (RFC 8058), claiming an API key, declining
a seat. Each GET only asks (mail scanners and link previews follow links); a POST acts. A
claim opened where another account is signed in asks whose to go on with first
(`another_account`)."""

from __future__ import annotations

from flask import Blueprint, render_template_string, request
from flask.typing import ResponseReturnValue

from pbem.errors import ServiceError
from pbem.game.players import find_player
from pbem.headers import no_referrer
from pbem.languages import _
from pbem.play import settings
from pbem.play.accounts import claim_key, claim_link_player
from pbem.play.lifecycle import decline_seat
from pbem.tokens import read_decline_token, read_unsubscribe_token
from pbem.web import another_account, signin
from pbem.web.routes import current_player
from pbem.web.wording import colour_name

blp = Blueprint("mail", __name__, url_prefix="/mail")
# Each page's address holds a token: no Referer carries it anywhere.
blp.before_request(no_referrer)

_PAGE = """<!doctype html><title>{{ title }}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{{ url_for('web.static', filename='pages.css') }}">
<body class="mail-page">
<p>{{ message }}</p>
{% if key %}<pre class="key">{{ key }}</pre>{% endif %}
{% if confirm %}<form method="post">
<button>{{ button }}</button></form>{% endif %}
</body>"""


def _page(**context: object) -> str:
    """The one page these links show, saying `message` (with a `button` to `confirm`)."""
    return render_template_string(_PAGE, title=_("El Grande: mail"), **context)


@blp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token: str) -> str | tuple[str, int]:
    """GET asks (mail scanners follow links); POST, as mail clients send it, turns the mails
    of that game off for that player."""
    read = read_unsubscribe_token(token)
    player = find_player(read[0]) if read else None
    if read is None or player is None:
        return _page(message=_("This unsubscribe link is not valid."), confirm=False), 404
    game_id = read[1]
    if request.method == "GET":
        return _page(
            message=_("Stop the mails of El Grande game %(id)s?", id=game_id),
            confirm=True,
            button=_("Stop these mails"),
        )
    settings.mute(player, game_id)
    return _page(
        message=_("You will get no more mails from game %(id)s.", id=game_id), confirm=False
    )


@blp.route("/claim/<token>", methods=["GET", "POST"])
def claim(token: str) -> ResponseReturnValue:
    """An invited email claims its API key: shown once, on this page. Signed in as someone
    else, it asks first whose account to go on with (`another_account`), and going on as
    theirs signs in to it."""
    asked = _asked_first(token)
    if asked is not None:
        return asked
    if request.method == "GET":
        return _page(
            message=_("Claim your API key for this El Grande server? It is shown once."),
            confirm=True,
            button=_("Show my key"),
        )
    try:
        player, key = claim_key(token)
    except ServiceError as error:
        return _page(message=error.detail, confirm=False), 410
    if another_account.continued():
        signin.sign_in(player.id)
    return _page(
        message=_(
            "%(name)s, your API key (send it as Authorization: Bearer ...):", name=player.name
        ),
        key=key,
        confirm=False,
    )


def _asked_first(token: str) -> ResponseReturnValue | None:
    signed = current_player()
    player_id = claim_link_player(token) if signed is not None else None
    if player_id is None:
        return None  # signed out, or a link spent or not ours: its page says which
    what = _("The link shows a new API key for their account, once.")
    return another_account.asked(signed, player_id, what)


@blp.route("/decline/<token>", methods=["GET", "POST"])
def decline(token: str) -> str | tuple[str, int]:
    read = read_decline_token(token)
    if read is None:
        return _page(message=_("This link is not valid."), confirm=False), 404
    game_id, colour, player_id = read
    if request.method == "GET":
        return _page(
            message=_(
                "Decline the %(colour)s seat of game %(id)s?",
                colour=colour_name(colour),
                id=game_id,
            ),
            confirm=True,
            button=_("Decline the seat"),
        )
    try:
        decline_seat(game_id, colour, player_id)
    except ServiceError as error:
        return _page(message=error.detail, confirm=False), 409
    return _page(
        message=_(
            "You declined the %(colour)s seat; the game's admin has been told.",
            colour=colour_name(colour),
        ),
        confirm=False,
    )
