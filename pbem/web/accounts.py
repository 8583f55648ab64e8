"""Accounts on the pages: signing in by a link mailed to your address (no password), and
`/me`, your own page (your name, a new API key, your mail). Thin: `play.accounts` does the
work; these routes read forms and render."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.errors import Invalid
from pbem.extensions import db
from pbem.game.players import new_api_key
from pbem.headers import no_referrer
from pbem.notify import preferences
from pbem.play import accounts
from pbem.store.models import Game, Player
from pbem.timing import away
from pbem.web import signin
from pbem.web.links import own_path
from pbem.web.routes import bp, current_player

#: The mails a player may choose, as `/me` offers them (the API's `mail` preferences).
MAIL_KINDS = {
    "decision": "when a decision is yours (your turn, a pick, a Veto window)",
    "every_move": "every move the others play",
    "scoring": "after each general scoring",
    "game_over": "the final scores",
    "table_talk": "what the other players write to the table",
}

#: An address as a person types it: something@somewhere, no spaces (the mail tells the rest).
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@bp.post("/sign-in/mail")
def mail_sign_in_link() -> ResponseReturnValue:
    """Mail a one-time sign-in link; the same answer whether or not the address plays here."""
    no_referrer()
    email = request.form.get("email", "").strip()
    next_page = own_path(request.form.get("next"))
    if not _EMAIL.fullmatch(email) or len(email) > 254:
        error = f"{email!r} does not look like an email address; check it and try again."
        return render_template("web/sign_in.html", next=next_page, error=error, email=email), 422
    accounts.mail_sign_in_link(
        email,
        client=request.remote_addr or "unknown",
        next_path=next_page,
        link_for=lambda token: signin.absolute_link("web.sign_in_link", token=token),
    )
    db.session.commit()
    return render_template(
        "web/sign_in.html",
        next=next_page,
        error=None,
        sent=email,
        email=email,
        minutes=accounts.SIGN_IN_LINK_MINUTES,
    )


@bp.route("/sign-in/link/<token>", methods=["GET", "POST"])
def sign_in_link(token: str) -> ResponseReturnValue:
    """A mailed sign-in link. GET only asks (mail scanners follow links, and must not spend
    it); the button POSTs, which signs in, making the player on first use."""
    no_referrer()
    offer = accounts.read_sign_in_link(token)
    if request.method == "GET":
        return render_template("web/sign_in_link.html", offer=offer, error=None, name="")
    name = request.form.get("name")
    try:
        player_id, next_page = accounts.spend_sign_in_link(token, name)
    except Invalid as error:
        db.session.rollback()
        page = render_template("web/sign_in_link.html", offer=offer, error=error.detail, name=name)
        return page, 422
    db.session.commit()
    signin.sign_in(player_id)
    player = db.session.get_one(Player, player_id)
    flash(f"Signed in as {player.name}.")
    return redirect(own_path(next_page) or url_for("web.index"), code=303)


@bp.get("/me")
def me() -> ResponseReturnValue:
    """Your own page: name, address, mail choices, and a new API key."""
    player = _me()
    if player is None:
        return redirect(url_for("web.sign_in", next="/me"), code=303)
    return _me_page(player)


@bp.post("/me")
def change_me() -> ResponseReturnValue:
    """Change your name or your mail choices, or make a new API key (shown once, here)."""
    player = _me()
    if player is None:
        return redirect(url_for("web.sign_in", next="/me"), code=303)
    action = request.form.get("action")
    if action == "key":
        key, player.api_key_hash = new_api_key()
        db.session.commit()
        current_app.logger.info("a new API key made on /me", extra={"player_id": player.id})
        return _me_page(player, key=key)
    if action == "name":
        name = request.form.get("name", "").strip()
        if not 1 <= len(name) <= 100:
            error = "Your name is what the other players see: 1 to 100 characters."
            return _me_page(player, error=error), 422
        player.name = name
        flash(f"Your name is now {name}.")
    elif action == "mail":
        chosen = {kind: kind in request.form.getlist("mail") for kind in MAIL_KINDS}
        preferences.set_preferences(player, {"mail": chosen})
        flash("Your mail choices are saved.")
    elif action in ("away", "back", "unmute"):
        try:
            flash(_change_away_or_muted(player, action))
        except Invalid as error:
            db.session.rollback()
            return _me_page(player, error=error.detail), 422
    else:
        raise Invalid("This form says nothing to change; reload the page and try again.")
    db.session.commit()
    return redirect(url_for("web.me"), code=303)


def _change_away_or_muted(player: Player, action: str) -> str:
    """An absence declared or withdrawn, or a game's mail turned on again: what to say."""
    form = request.form
    if action == "away":
        try:
            starts = datetime.fromisoformat(form.get("from", "")).replace(tzinfo=UTC)
            ends = datetime.fromisoformat(form.get("until", "")).replace(tzinfo=UTC)
        except ValueError:
            raise Invalid("Give the first and the last day you are away (dates).") from None
        # The last day is a whole day away: the absence ends at the next midnight (UTC).
        away.declare(player, starts, ends + timedelta(days=1))
        return "Your absence is noted: your deadlines that fall in it move to after it."
    if action == "back":
        raw = form.get("absence", "")
        away.cancel(player, int(raw) if raw.isdigit() and len(raw) < 10 else 0)
        return "That absence is withdrawn."
    raw = form.get("game", "")
    game_id = int(raw) if raw.isdigit() and len(raw) < 10 else 0
    muted = [g for g in preferences.preferences_of(player)["muted_games"] if g != game_id]
    preferences.set_preferences(player, {"muted_games": muted})
    return f"Game {game_id}'s mails come again."


def _me_page(player: Player, key: str | None = None, error: str | None = None) -> str:
    muted = preferences.preferences_of(player)["muted_games"]
    titles = dict(
        db.session.execute(db.select(Game.id, Game.title).where(Game.id.in_(muted))).all()
    )
    return render_template(
        "web/me.html",
        player=player,
        key=key,
        error=error,
        choices=_choices(player),
        absences=away.absences_of(player),
        muted=[{"id": g, "title": titles.get(g, f"game {g}")} for g in muted],
    )


def _me() -> Player | None:
    signed = current_player()
    return db.session.get(Player, signed.id) if signed is not None else None


def _choices(player: Player) -> list[dict[str, object]]:
    mail = preferences.preferences_of(player)["mail"]
    return [{"kind": k, "label": label, "on": bool(mail[k])} for k, label in MAIL_KINDS.items()]
