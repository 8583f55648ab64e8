"""Players: register and receive an API key, mail preferences, a new key by mail, a private
calendar link of one's deadlines, browsers notified by Web Push; a player's record (rating,
reliability, games) and the standings, which anyone may read."""

from typing import Any

from flask import Response, current_app, request

from pbem.api.auth import KEY_REQUIRED, current_player
from pbem.api.players.schemas import (
    Absence,
    AbsenceIn,
    AbsenceInSchema,
    AbsenceListSchema,
    Absences,
    Accepted,
    AcceptedSchema,
    BlockedSchema,
    BlocksSchema,
    CalendarSchema,
    HouseBotsSchema,
    KeyReset,
    KeyResetSchema,
    PageQuery,
    PageQuerySchema,
    PlayerCreate,
    PlayerCreateSchema,
    PlayerGamesSchema,
    PlayerSchema,
    PreferencesSchema,
    PushSubscriptionIn,
    PushSubscriptionInSchema,
    PushSubscriptionListSchema,
    PushSubscriptionSchema,
    StandingsQuery,
    StandingsQuerySchema,
    StandingsSchema,
)
from pbem.api.safe_json import Blueprint
from pbem.game import ratings
from pbem.headers import no_store
from pbem.kept import app_drawn
from pbem.languages import _
from pbem.notify import preferences
from pbem.play import absences, accounts, apart, push, settings
from pbem.timing import away

blp = Blueprint("players", __name__, url_prefix="/api/players", description="Players")
standings_blp = Blueprint(
    "ratings", __name__, url_prefix="/api/ratings", description="The standings"
)


@blp.route("", methods=["POST"])
@blp.arguments(PlayerCreateSchema)
@blp.response(202, AcceptedSchema)
@blp.alt_response(429, response="TOO_MANY_REQUESTS")
def register(data: PlayerCreate) -> Accepted:
    """Register: a link is mailed to the address; following it proves the address is yours,
    makes your player (a known address: signs you in) and shows your API key, once. The
    answer is the same whether or not the address plays here."""
    accounts.mail_sign_in_link(
        data["email"],
        client=request.remote_addr or "unknown",
        next_path=None,
        link_for=accounts.sign_in_url,
        name=data["name"],
    )
    return {
        "detail": _(
            "A link is on its way to %(email)s: follow it within %(minutes)s minutes to prove "
            "the address is yours; your API key is shown there, once. At most 3 links are "
            "mailed to an address an hour.",
            email=data["email"],
            minutes=accounts.SIGN_IN_LINK_MINUTES,
        )
    }


@blp.route("/me/preferences", methods=["GET"])
@blp.response(200, PreferencesSchema)
@blp.doc(security=KEY_REQUIRED)
def get_preferences() -> preferences.Preferences:
    """Which events mail you, how often, and your webhooks."""
    return preferences.preferences_of(current_player())


@blp.route("/me/preferences", methods=["PUT"])
@blp.arguments(PreferencesSchema)
@blp.response(200, PreferencesSchema)
@blp.doc(security=KEY_REQUIRED)
def set_preferences(data: dict[str, Any]) -> preferences.Preferences:
    """Change the preferences given; the others stay as they are."""
    changed = settings.set_preferences(current_player(), data)
    return changed


@blp.route("/key-reset", methods=["POST"])
@blp.arguments(KeyResetSchema)
@blp.response(202, AcceptedSchema)
def key_reset(data: KeyReset) -> Accepted:
    """Mail a new API key to a registered email (the old key stops working). The answer is
    the same whether the email is registered or not."""
    accounts.reset_key_by_mail(data["email"])
    return {
        "detail": _(
            "If %(email)s is registered, a new API key is on its way to it; the "
            "old key stops working now. At most 3 keys are sent per hour.",
            email=data["email"],
        )
    }


@blp.route("/me/absences", methods=["GET"])
@blp.response(200, AbsenceListSchema)
@blp.doc(security=KEY_REQUIRED)
def list_absences() -> Absences:
    """When you said you would be away."""
    return {"absences": _absences(away.absences_of(current_player()))}


#: From your absences to withdrawing the first (a link clients and schemathesis follow).
WITHDRAW_ABSENCE = {
    "operationRef": "#/paths/~1api~1players~1me~1absences~1{absence_id}/delete",
    "parameters": {"absence_id": "$response.body#/absences/0/id"},
}


@blp.route("/me/absences", methods=["POST"])
@blp.arguments(AbsenceInSchema)
@blp.response(201, AbsenceListSchema)
@blp.doc(security=KEY_REQUIRED, responses={201: {"links": {"Withdraw": WITHDRAW_ABSENCE}}})
def add_absence(data: AbsenceIn) -> Absences:
    """Say you will be away: your deadlines falling inside move to after it (up to each
    game's vacation allowance); the others see only until when you are away."""
    player = current_player()
    absences.declare(player, data["starts"], data["ends"])
    return {"absences": _absences(away.absences_of(player))}


@blp.route("/me/absences/<int:absence_id>", methods=["DELETE"])
@blp.response(200, AbsenceListSchema)
@blp.doc(security=KEY_REQUIRED)
def cancel_absence(absence_id: int) -> Absences:
    """Back early, or plans changed: the absence no longer pushes deadlines."""
    player = current_player()
    absences.cancel(player, absence_id)
    return {"absences": _absences(away.absences_of(player))}


def _absences(rows: list[away.AbsenceShown]) -> list[Absence]:
    return [{"id": r["id"], "starts": r["from"], "ends": r["until"]} for r in rows]


@blp.route("/me/calendar", methods=["GET"])
@blp.response(200, CalendarSchema)
@blp.doc(security=KEY_REQUIRED)
def get_calendar() -> dict[str, str]:
    """Your private calendar link (made now if you have none): subscribe to it in a calendar
    program to see your deadlines there."""
    no_store()  # the link is a credential
    url = accounts.calendar_link(current_player())
    return {"url": url}


@blp.route("/me/calendar", methods=["POST"])
@blp.response(200, CalendarSchema)
@blp.doc(security=KEY_REQUIRED)
def new_calendar() -> dict[str, str]:
    """A new calendar link: the old one stops working (a calendar subscribed to it shows
    nothing more); subscribe to the new one."""
    no_store()
    url = accounts.new_calendar_link(current_player())
    return {"url": url}


@blp.route("/me/push-subscriptions", methods=["GET"])
@blp.response(200, PushSubscriptionListSchema)
@blp.doc(security=KEY_REQUIRED)
def list_push_subscriptions() -> dict[str, list[push.Subscribed]]:
    """The browsers you asked to be notified on: each one's push service (its host alone)."""
    return {"subscriptions": push.subscriptions_of(current_player())}


#: From a subscription stored to removing it (a link clients and schemathesis follow).
REMOVE_PUSH_SUBSCRIPTION = {
    "operationRef": "#/paths/~1api~1players~1me~1push-subscriptions~1{subscription_id}/delete",
    "parameters": {"subscription_id": "$response.body#/id"},
}


@blp.route("/me/push-subscriptions", methods=["POST"])
@blp.arguments(PushSubscriptionInSchema)
@blp.response(201, PushSubscriptionSchema)
@blp.doc(security=KEY_REQUIRED, responses={201: {"links": {"Remove": REMOVE_PUSH_SUBSCRIPTION}}})
def add_push_subscription(data: PushSubscriptionIn) -> push.Subscribed:
    """Notify a browser (its `PushSubscription.toJSON()`): your decisions, words to your
    tables and your games' ends, as your `push` preferences say, with nothing your seat
    hides. At most 10 browsers; the same endpoint again replaces its keys."""
    keys = data["keys"]
    kept = push.subscribe(current_player(), data["endpoint"], keys["p256dh"], keys["auth"])
    # Shown as subscribed, before the commit: once committed, someone subscribing the same
    # browser at once may hold it by the time a list is read.
    answer = push.shown(kept)
    return answer


@blp.route("/me/push-subscriptions/<int:subscription_id>", methods=["DELETE"])
@blp.response(200, PushSubscriptionListSchema)
@blp.doc(security=KEY_REQUIRED)
def remove_push_subscription(subscription_id: int) -> dict[str, list[push.Subscribed]]:
    """Stop notifying a browser; the subscriptions left."""
    player = current_player()
    push.unsubscribe(player, subscription_id)
    return {"subscriptions": push.subscriptions_of(player)}


@blp.route("/me", methods=["GET"])
@blp.response(200, PlayerSchema)
@blp.doc(security=KEY_REQUIRED)
def me() -> ratings.PlayerRecord:
    """You as anyone sees you (your `id` among them): name, rating and reliability."""
    return ratings.player_record(current_player().id)


@blp.route("/<int:player_id>", methods=["GET"])
@blp.response(200, PlayerSchema)
def show(player_id: int) -> ratings.PlayerRecord:
    """A player's name, rating (the conservative ordinal, provisional before 5 rated games)
    and reliability; no key needed, and nothing private (no address)."""
    return ratings.player_record(player_id)


@blp.route("/<int:player_id>/games", methods=["GET"])
@blp.arguments(PageQuerySchema(), location="query")
@blp.response(200, PlayerGamesSchema)
def games(query: PageQuery, player_id: int) -> ratings.PlayerGames:
    """A player's finished games (a page, the last ended first) with their place, score and
    rating change, and the games they are in now."""
    return ratings.player_games(player_id, query["page"], query["per_page"])


@standings_blp.route("", methods=["GET"])
@standings_blp.arguments(StandingsQuerySchema(), location="query")
@standings_blp.response(200, StandingsSchema)
def standings(query: StandingsQuery) -> Response:
    """The people with at least 5 rated games (of `players` players, if given), the best
    rating first: a page of them."""
    players, page, per_page = query.get("players"), query["page"], query["per_page"]
    kept = app_drawn(
        "pbem_api_standings",
        ratings.STANDINGS_KEPT,
        in_language=False,  # numbers and names: the same answer in every language
    )
    key = (players, page, per_page, ratings.standings_version())
    # The answer's body as sent, kept whole: making it again (the read, the schema's dump of
    # fifty players, the JSON) costs several times what reading the version does.
    body: str = kept.get(
        key,
        lambda: current_app.json.dumps(
            StandingsSchema().dump(ratings.standings(players, page, per_page))
        ),
    )
    return Response(f"{body}\n", mimetype="application/json")


@standings_blp.route("/house-bots", methods=["GET"])
@standings_blp.response(200, HouseBotsSchema)
def house_bots() -> dict[str, list[ratings.HouseBotRating]]:
    """Each house bot level's rating, from its rated games against people: apart from the
    standings, which list people alone. People are rated as if no bot had been there; a
    seat a bot finished for a person is the person's."""
    return {"house_bots": ratings.house_bot_ratings()}


@blp.route("/me/blocks", methods=["GET"])
@blp.response(200, BlocksSchema)
@blp.doc(security=KEY_REQUIRED)
def list_blocks() -> dict[str, list[apart.Blocked]]:
    """The players you block, the latest first."""
    return {"blocks": apart.blocks_of(current_player().id)}


@blp.route("/me/blocks/<int:player_id>", methods=["PUT"])
@blp.response(200, BlockedSchema)
@blp.alt_response(404, response="NOT_FOUND", description="No such player")
@blp.doc(security=KEY_REQUIRED)
def block(player_id: int) -> apart.Blocked:
    """Block a player: from now on neither of you joins, is invited to or is given a seat at
    a game the other holds, and you read none of their words to the table (games under way
    go on). They are not told; a refusal tells them only that you two are not seated
    together. A repeat changes nothing."""
    blocked = apart.block(current_player(), player_id)
    return blocked


@blp.route("/me/blocks/<int:player_id>", methods=["DELETE"])
@blp.response(204)
@blp.doc(security=KEY_REQUIRED)
def unblock(player_id: int) -> None:
    """Stop blocking a player (nothing to undo is no error)."""
    apart.unblock(current_player(), player_id)
