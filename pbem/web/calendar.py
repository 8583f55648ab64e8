"""A player's private calendar feed of their deadlines (`/calendar/<token>.ics`), which a
calendar program subscribes to: no session, the link is the credential. `/me` shows it and
makes a new one (`accounts`); `pbem.game.calendar` writes it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Response
from flask.typing import ResponseReturnValue

from pbem.game import calendar, players
from pbem.headers import no_referrer
from pbem.languages import _
from pbem.notify.compose import base_url
from pbem.web.routes import bp
from pbem.web.signin import absolute_link

#: What a calendar token looks like (`tokens.calendar_token`): anything else is unknown
#: without a look in the table.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
#: A calendar program's copy may be a few minutes old; no shared cache keeps one.
CACHE = "private, max-age=300"


@bp.get("/calendar/<token>.ics")
def calendar_feed(token: str) -> ResponseReturnValue:
    """The feed, or 404 with one sentence, the same for a token never made and one replaced
    by a newer link."""
    # The address is the credential: no Referer from it, even for a 404. A feed's own answer
    # may be kept (privately, briefly): calendar programs fetch it again and again.
    player = players.player_by_calendar_token(token) if _TOKEN.fullmatch(token) else None
    if player is None:
        no_referrer()
        unknown = _(
            "This calendar link is not known: it may have been replaced by a newer one. "
            "Your page on this site shows the link that works."
        )
        return Response(unknown + "\n", 404, mimetype="text/plain")
    no_referrer(kept_privately=True)
    body = calendar.feed(
        player,
        game_link=lambda game_id: absolute_link("web.game", game_id=game_id),
        domain=urlsplit(base_url()).hostname or "localhost",
    )
    answer = Response(body, 200, content_type="text/calendar; charset=utf-8")
    answer.headers["Cache-Control"] = CACHE
    return answer
