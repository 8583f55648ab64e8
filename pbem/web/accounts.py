"""Accounts on the pages: signing in by a link mailed to your address (no password), and
`/me`, your own page (your name and address, your mail and webhooks, notifications on your
devices, absences, your calendar's private link, a new API key, signing out everywhere).
Thin: `play.accounts` does the work; these routes read forms and render."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from pbem.addresses import kept_address
from pbem.errors import Invalid, TooMany
from pbem.game import games, players
from pbem.headers import no_referrer, no_store
from pbem.languages import LANGUAGES, N_, _, in_language, known
from pbem.notify import preferences
from pbem.notify.push import public_key
from pbem.play import absences, accounts, apart, push, settings
from pbem.store.models import Player
from pbem.timing import away
from pbem.web import another_account, signin
from pbem.web.another_account import hidden_address
from pbem.web.language import keep_language
from pbem.web.links import own_path
from pbem.web.routes import bp, current_player

#: The mails a player may choose, as `/me` offers them (the API's `mail` preferences).
MAIL_KINDS = {
    "decision": N_("when a decision is yours (your turn, a pick, a Veto window)"),
    "every_move": N_("every move the others play"),
    "scoring": N_("after each general scoring"),
    "game_over": N_("the final scores"),
    "table_talk": N_("what the other players write to the table"),
}

#: What may be pushed to a player's devices, as `/me` offers it (the API's `push`).
PUSH_KINDS = {
    "decision": N_("when a decision is yours (your turn, a pick, a Veto window)"),
    "table_talk": N_("what the other players write to the table"),
    "game_over": N_("when a game ends"),
}


@bp.post("/sign-in/mail")
def mail_sign_in_link() -> ResponseReturnValue:
    """Mail a one-time sign-in link; the same answer whether or not the address plays here."""
    no_referrer()
    typed = request.form.get("email", "")
    next_page = own_path(request.form.get("next"))
    try:
        email = kept_address(typed)
        accounts.mail_sign_in_link(
            email,
            client=request.remote_addr or "unknown",
            next_path=next_page,
            link_for=lambda token: signin.absolute_link("web.sign_in_link", token=token),
        )
    except Invalid as error:
        page = render_template("web/sign_in.html", next=next_page, error=error.detail, email=typed)
        return page, 422
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
    it); the button POSTs, which signs in, making the player on first use. Signed in as
    someone else, it asks first whose account to go on with (`another_account`)."""
    no_referrer()
    offer = accounts.read_sign_in_link(token)
    asked = _asked_first(offer)
    if asked is not None:
        return asked
    # Gone on from the question to a link that still wants a name: asked as if signed out.
    asking = offer.needs_name and another_account.continued()
    if request.method == "GET" or asking:
        return render_template("web/sign_in_link.html", offer=offer, error=None, name="")
    name = request.form.get("name")
    try:
        spent = accounts.spend_sign_in_link(token, name)
    except Invalid as error:
        page = render_template("web/sign_in_link.html", offer=offer, error=error.detail, name=name)
        return page, 422
    signin.sign_in(spent.player_id)
    player = players.player(spent.player_id)
    flash(_("Signed in as %(name)s.", name=player.name))
    if spent.api_key is not None:
        # A registration: the key is shown here, once (no_referrer above keeps it uncached).
        return _me_page(player, key=spent.api_key)
    return redirect(own_path(spent.next_path) or url_for("web.index"), code=303)


def _asked_first(offer: accounts.SignInOffer) -> ResponseReturnValue | None:
    if offer.player is None:
        what = _("The link makes an account for that address.")
    else:
        what = _("The link signs in to their account.")
    player_id = offer.player.id if offer.player is not None else None
    return another_account.asked(current_player(), player_id, what, offer.email)


@bp.get("/me")
def me() -> ResponseReturnValue:
    """Your own page: name, address, mail choices, and a new API key."""
    player = _me()
    if player is None:
        return redirect(url_for("web.sign_in", next="/me"), code=303)
    return _me_page(player)


#: How often the mails that are not a decision may come, as `/me` offers it (digest_hours).
DIGEST_CHOICES = {
    0: N_("each at once"),
    6: N_("gathered, at most every 6 hours"),
    12: N_("gathered, at most every 12 hours"),
    24: N_("gathered, once a day"),
}
#: Where a webhook may post from `/me` (the API checks the same with its schema).
_WEBHOOK_URL = re.compile(r"https?://\S{1,1990}")


@bp.post("/me")
def change_me() -> ResponseReturnValue:
    """Change what `/me` shows (each form names its `action`), make a new API key (shown
    once, here), or sign out of every session."""
    player = _me()
    if player is None:
        return redirect(url_for("web.sign_in", next="/me"), code=303)
    action = request.form.get("action", "")
    if action == "key":
        no_store()  # the key is on the page
        key = accounts.make_new_key(player)
        current_app.logger.info("a new API key made on /me", extra={"player_id": player.id})
        return _me_page(player, key=key)
    if action == "calendar":
        accounts.new_calendar_link(player)
        flash(_("Your calendar's new link is below; a link made before no longer works."))
        return redirect(url_for("web.me", _anchor="calendar-title"), code=303)
    if action == "sign_out_everywhere":
        accounts.sign_out_everywhere(player)
        signin.sign_out()
        flash(_("You are signed out everywhere: on every device, sign in again to play there."))
        return redirect(url_for("web.index"), code=303)
    change = _CHANGES.get(action)
    if change is None:
        raise Invalid(_("This form says nothing to change; reload the page and try again."))
    try:
        said = change(player, request.form)
    except (Invalid, TooMany) as error:
        # An address refused stays in its field, to be mended rather than typed again.
        typed = request.form.get("email", "") if action == "email" else ""
        return _me_page(player, error=error.detail, typed_email=typed), error.status
    flash(said)
    return redirect(url_for("web.me"), code=303)


def _change_name(player: Player, form: MultiDict[str, str]) -> str:
    name = accounts.rename(player, form.get("name", ""))
    said: str = _("Your name is now %(name)s.", name=name)
    return said


def _change_language(player: Player, form: MultiDict[str, str]) -> str:
    chosen = known(form.get("language"))
    settings.set_preferences(player, {"language": chosen})
    keep_language(chosen)
    if chosen is None:
        return _("Pages follow your browser's language, and each game's mails its own.")
    with in_language(chosen):
        return _(
            "Your mails and pages are in %(language)s from now on.", language=LANGUAGES[chosen]
        )


def _change_mail(player: Player, form: MultiDict[str, str]) -> str:
    chosen = {kind: kind in form.getlist("mail") for kind in MAIL_KINDS}
    raw = form.get("digest_hours", "0")
    hours = int(raw) if raw.isdigit() and int(raw) in DIGEST_CHOICES else 0
    settings.set_preferences(player, {"mail": chosen, "digest_hours": hours})
    said: str = _("Your mail choices are saved.")
    return said


def _change_email(player: Player, form: MultiDict[str, str]) -> str:
    # accounts checks the address (`kept_address`), after its own word for a bot's.
    new_email = accounts.mail_email_change(
        player,
        form.get("email", ""),
        lambda token: signin.absolute_link("web.email_change", token=token),
    )
    hours = accounts.EMAIL_CHANGE_HOURS
    said: str = _(
        "A link went to %(new)s: follow it within %(hours)s hours to make it your "
        "address. Until then your mail still goes to %(old)s.",
        new=new_email,
        hours=hours,
        old=player.email,
    )
    return said


def _add_webhook(player: Player, form: MultiDict[str, str]) -> str:
    raw, url = form.get("game", ""), form.get("url", "").strip()
    game_id = int(raw) if raw.isdigit() and len(raw) < 10 else 0
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in url):
        # NUL, a line break, a zero-width space: copied along with the URL, never part of it.
        raise Invalid(
            _(
                "This webhook URL holds a control or invisible character (such as NUL or a line "
                "break): copy it again from your chat's settings."
            )
        )
    if not _WEBHOOK_URL.fullmatch(url):
        raise Invalid(_("A webhook is a web address starting https:// (your chat's webhook URL)."))
    style = "slack" if form.get("format") == "slack" else "discord"
    hooks = preferences.preferences_of(player)["webhooks"]
    if len(hooks) >= 50:
        raise Invalid(_("You have 50 webhooks already; remove one to add another."))
    new = {"game_id": game_id, "url": url, "format": style}
    settings.set_preferences(player, {"webhooks": [*hooks, new]})
    said: str = _("Game %(id)s's news now also goes to your webhook.", id=game_id)
    return said


def _remove_webhook(player: Player, form: MultiDict[str, str]) -> str:
    raw = form.get("webhook", "")
    hooks = list(preferences.preferences_of(player)["webhooks"])
    if not raw.isdigit() or int(raw) >= len(hooks):
        raise Invalid(_("That webhook is gone already; reload the page."))
    del hooks[int(raw)]
    settings.set_preferences(player, {"webhooks": hooks})
    said: str = _("That webhook is removed.")
    return said


def _change_push(player: Player, form: MultiDict[str, str]) -> str:
    chosen = {kind: kind in form.getlist("push") for kind in PUSH_KINDS}
    settings.set_preferences(player, {"push": chosen})
    said: str = _("Your choices of notifications are saved.")
    return said


def _remove_push(player: Player, form: MultiDict[str, str]) -> str:
    raw = form.get("subscription", "")
    # ASCII digits only: `isdigit` takes "²" too, which `int` refuses.
    push.unsubscribe(player, int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 20 else 0)
    said: str = _("That device is no longer notified.")
    return said


def _declare_away(player: Player, form: MultiDict[str, str]) -> str:
    try:
        starts = datetime.fromisoformat(form.get("from", "")).replace(tzinfo=UTC)
        ends = datetime.fromisoformat(form.get("until", "")).replace(tzinfo=UTC)
    except ValueError:
        raise Invalid(_("Give the first and the last day you are away (dates).")) from None
    # The last day is a whole day away: the absence ends at the next midnight (UTC).
    absences.declare(player, starts, ends + timedelta(days=1))
    said: str = _("Your absence is noted: your deadlines that fall in it move to after it.")
    return said


def _withdraw_away(player: Player, form: MultiDict[str, str]) -> str:
    raw = form.get("absence", "")
    absences.cancel(player, int(raw) if raw.isdigit() and len(raw) < 10 else 0)
    said: str = _("That absence is withdrawn.")
    return said


def _unmute(player: Player, form: MultiDict[str, str]) -> str:
    raw = form.get("game", "")
    game_id = int(raw) if raw.isdigit() and len(raw) < 10 else 0
    muted = [g for g in preferences.preferences_of(player)["muted_games"] if g != game_id]
    settings.set_preferences(player, {"muted_games": muted})
    said: str = _("Game %(id)s's mails come again.", id=game_id)
    return said


#: What each of `/me`'s forms changes: a function of the player and the form, saying what
#: it did (or raising Invalid, which changes nothing).
_CHANGES: dict[str, Callable[[Player, MultiDict[str, str]], str]] = {
    "name": _change_name,
    "language": _change_language,
    "mail": _change_mail,
    "email": _change_email,
    "webhook": _add_webhook,
    "webhook_remove": _remove_webhook,
    "push": _change_push,
    "push_remove": _remove_push,
    "away": _declare_away,
    "back": _withdraw_away,
    "unmute": _unmute,
}


@bp.route("/me/email/<token>", methods=["GET", "POST"])
def email_change(token: str) -> ResponseReturnValue:
    """A mailed link that makes a new address the player's. GET only asks (mail scanners
    follow links); the button POSTs, which changes it (no sign-in needed: the link is the
    proof that the new address is theirs, and it was asked for while signed in). Signed in
    as someone else, it asks first whose account to go on with (`another_account`), and
    going on as theirs signs in to it."""
    no_referrer()
    change = accounts.read_email_change(token)
    what = _("The link makes %(email)s their address.", email=hidden_address(change.new_email))
    asked = another_account.asked(current_player(), change.player.id, what)
    if asked is not None:
        return asked
    if request.method == "GET":
        return render_template("web/email_change.html", change=change, error=None)
    try:
        change = accounts.change_email(token)
    except Invalid as error:
        change = accounts.read_email_change(token)
        return render_template("web/email_change.html", change=change, error=error.detail), 422
    if another_account.continued():
        signin.sign_in(change.player.id)
    flash(_("Your address is now %(email)s.", email=change.new_email))
    return redirect(url_for("web.me"), code=303)


def _me_page(
    player: Player, key: str | None = None, error: str | None = None, typed_email: str = ""
) -> str:
    chosen = preferences.preferences_of(player)
    muted, hooks = chosen["muted_games"], chosen["webhooks"]
    titles = games.titles([*muted, *(h["game_id"] for h in hooks)])
    playing = games.playing(player)
    token = players.calendar_token_of(player)
    if token is not None:
        no_store()  # the calendar's link is on the page
    return render_template(
        "web/me.html",
        calendar=accounts.calendar_url(token) if token is not None else None,
        player=player,
        key=key,
        error=error,
        typed_email=typed_email,
        choices=_choices(player),
        digest_hours=chosen["digest_hours"],
        language=chosen["language"],
        digest_choices={hours: _(label) for hours, label in DIGEST_CHOICES.items()},
        absences=away.absences_of(player),
        muted=[{"id": g, "title": titles.get(g, _("game %(id)s", id=g))} for g in muted],
        webhooks=[
            {**h, "title": titles.get(h["game_id"], _("game %(id)s", id=h["game_id"]))}
            for h in hooks
        ],
        playing=playing,
        push_key=public_key(current_app),
        push_choices=_push_choices(chosen["push"]),
        push_devices=push.subscriptions_of(player),
        blocked=apart.blocks_of(player.id),
    )


def _me() -> Player | None:
    signed = current_player()
    return players.find_player(signed.id) if signed is not None else None


def _choices(player: Player) -> list[dict[str, object]]:
    mail: Mapping[str, object] = preferences.preferences_of(player)["mail"]
    return [{"kind": k, "label": _(label), "on": bool(mail[k])} for k, label in MAIL_KINDS.items()]


def _push_choices(push_kinds: Mapping[str, object]) -> list[dict[str, object]]:
    return [
        {"kind": k, "label": _(label), "on": bool(push_kinds[k])} for k, label in PUSH_KINDS.items()
    ]
