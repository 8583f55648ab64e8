"""A link mailed to one address, opened where another account is signed in: before it
changes anything, its page says whose the link is and asks (a forwarded invitation must not
switch accounts without a word). Every door a mailed link opens that signs its player in or
acts for their account asks here first (`asked`): a sign-in link, a seat's link, an
invitation's accept, a key's claim, an address change. A link for the reader's own account,
and any link opened signed out, go on as before."""

from __future__ import annotations

from flask import flash, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.game import players
from pbem.languages import _
from pbem.web import signin
from pbem.web.csrf import check_csrf

#: The question's field: which account the reader goes on with.
CHOICE = "account"
#: Its answers: the link's player (signing out of one's own first), or one's own (nothing
#: changes).
THEIRS, MINE = "theirs", "mine"


def hidden_address(email: str) -> str:
    """`email` with its name hidden but for its first letter (`c•••@example.org`): enough
    for its owner to know it, too little to write to."""
    local, at, domain = email.rpartition("@")
    return f"{local[:1]}•••@{domain}" if at else "•••"


def asked(
    signed: signin.SignedIn | None, player_id: int | None, what: str, email: str = ""
) -> ResponseReturnValue | None:
    """What a link for player `player_id` (None: for `email`, no player's yet) answers
    before it does `what` (a sentence saying so), when `signed` is someone else: the
    question, on a GET and on a POST that did not answer it; on "keep mine", the reader's
    own games, nothing changed. None: go on, for `signed` is nobody or the link's player, or
    the reader chose to go on as the link's player (their own session is ended now, and the
    door signs them in as its link does: `continued`)."""
    if signed is None or signed.id == player_id:
        return None
    choice = request.form.get(CHOICE) if request.method == "POST" else None
    if choice not in (THEIRS, MINE):
        return _question(signed, player_id, what, email)
    check_csrf()  # the mail pages' blueprint checks no token itself; this answer carries one
    if choice == MINE:
        flash(_("You are still signed in as %(name)s: the link changed nothing.", name=signed.name))
        return redirect(url_for("web.index"), code=303)
    signin.sign_out(for_good=True)  # whatever the link does next
    g.web_player = None  # `routes.current_player`, for this page's header: nobody now
    g.continued_as_the_links_player = True  # read by `continued`
    return None


def continued() -> bool:
    """Whether this request's reader chose to go on as the link's player (`asked`): a door
    whose link signs nobody in then signs them in, as the choice said."""
    return bool(g.get("continued_as_the_links_player", False))


def _question(
    signed: signin.SignedIn, player_id: int | None, what: str, email: str
) -> tuple[str, int]:
    theirs = players.find_player(player_id) if player_id is not None else None
    yours = players.find_player(signed.id)
    page = render_template(
        "web/another_account.html",
        their_name=theirs.name if theirs is not None else "",
        their_address=hidden_address(theirs.email if theirs is not None else email),
        your_name=signed.name,
        your_address=hidden_address(yours.email) if yours is not None else "",
        what=what,
        choice=CHOICE,
        theirs=THEIRS,
        mine=MINE,
    )
    return page, 200
