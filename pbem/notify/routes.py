"""One-click unsubscribe (RFC 8058): the link in every mail's List-Unsubscribe header."""

from __future__ import annotations

from flask import Blueprint, render_template_string

from pbem.extensions import db
from pbem.notify.addresses import read_unsubscribe_token
from pbem.store.models import Player

blp = Blueprint("mail", __name__, url_prefix="/mail")

_PAGE = """<!doctype html><title>El Grande: mail</title>
<body style="font-family: Georgia, serif; max-width: 36em; margin: 3em auto;">
<p>{{ message }}</p>
{% if confirm %}<form method="post">
<button>Stop the mails of game {{ game_id }}</button></form>{% endif %}
</body>"""


@blp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token: str):
    """GET asks (mail scanners follow links); POST, as mail clients send it, turns the mails
    of that game off for that player."""
    from flask import request

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
            game_id=game_id,
        )
    preferences = dict(player.preferences or {})
    muted = set(preferences.get("muted_games") or [])
    muted.add(game_id)
    preferences["muted_games"] = sorted(muted)
    player.preferences = preferences
    db.session.commit()
    return render_template_string(
        _PAGE, message=f"You will get no more mails from game {game_id}.", confirm=False
    )
