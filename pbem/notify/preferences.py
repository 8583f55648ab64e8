"""A player's mail preferences: which mails they want from which game, and how often."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from flask import current_app

from pbem.errors import Invalid
from pbem.languages import N_
from pbem.notify import webhooks
from pbem.store.models import Player


class MailKinds(TypedDict):
    """Which kinds of mail a player wants."""

    decision: bool
    every_move: bool
    scoring: bool
    game_over: bool
    table_talk: bool


class Webhook(TypedDict):
    game_id: int
    url: str


class Preferences(TypedDict):
    """A player's preferences, whole (`preferences_of` fills in what they never set)."""

    mail: MailKinds
    digest_hours: int  # 0: each mail as it comes
    webhooks: list[Webhook]
    muted_games: list[int]
    language: str | None  # None: the game's language, else English


#: Preferences as a player's row stores them: only what they ever set.
StoredPreferences = Mapping[str, Any]

#: What a player's preferences are when they never set any (see `wants`).
DEFAULT_PREFERENCES: Preferences = {
    "mail": {
        "decision": True,
        "every_move": False,
        "scoring": True,
        "game_over": True,
        "table_talk": True,
    },
    "digest_hours": 0,
    "webhooks": [],
    "muted_games": [],
    # None: the game's language, else English (`languages.language_of`).
    "language": None,
}


def preferences_of(player: Player) -> Preferences:
    stored = player.preferences or {}
    merged: dict[str, Any] = {**DEFAULT_PREFERENCES, **stored}
    merged["mail"] = {**DEFAULT_PREFERENCES["mail"], **(stored.get("mail") or {})}
    return cast(Preferences, merged)  # what is stored was checked as it was set


def set_preferences(player: Player, changes: StoredPreferences) -> Preferences:
    """Merge `changes` (already validated in form) into the player's preferences; a webhook
    for a game the player is not in, or to where this server will not post, is refused."""
    for hook in changes.get("webhooks") or []:
        _check_webhook(player, hook)
    preferences: dict[str, Any] = {**preferences_of(player)}
    if "mail" in changes:
        preferences["mail"] = {**preferences["mail"], **changes["mail"]}
    for name in ("digest_hours", "webhooks", "muted_games", "language"):
        if name in changes:
            preferences[name] = changes[name]
    player.preferences = preferences
    return cast(Preferences, preferences)


def _check_webhook(player: Player, hook: Webhook) -> None:
    game_id = hook["game_id"]
    if not any(seat.game_id == game_id for seat in player.seats):
        raise Invalid(
            N_(
                "You have no seat in game %(game_id)s; a webhook can only follow a game you "
                "play in."
            ),
            code="not-seated-for-webhook",
            game_id=game_id,
        )
    refused = webhooks.refusal(hook["url"], current_app.config)
    if refused is not None:
        raise Invalid(refused, code="webhook-refused")


def wants(preferences: StoredPreferences, game_id: int, kind: str) -> bool:
    """Whether a player's preferences ask for mails of `kind` from game `game_id`."""
    if game_id in (preferences.get("muted_games") or []):
        return False
    defaults: Mapping[str, object] = DEFAULT_PREFERENCES["mail"]
    return bool((preferences.get("mail") or {}).get(kind, defaults.get(kind, False)))


def mute(player: Player, game_id: int) -> None:
    """No more mail from game `game_id` for `player` (the unsubscribe link, `stop` by mail)."""
    muted = set(preferences_of(player)["muted_games"]) | {game_id}
    set_preferences(player, {"muted_games": sorted(muted)})
