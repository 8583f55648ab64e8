"""A player's mail preferences: which mails they want from which game, and how often."""

from __future__ import annotations

from typing import Any

from flask import current_app

from pbem.errors import Invalid
from pbem.languages import N_
from pbem.notify import webhooks
from pbem.store.models import Player

#: What a player's preferences are when they never set any (see `wants`).
DEFAULT_PREFERENCES: dict[str, Any] = {
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


def preferences_of(player: Player) -> dict[str, Any]:
    stored = player.preferences or {}
    merged = {**DEFAULT_PREFERENCES, **stored}
    merged["mail"] = {**DEFAULT_PREFERENCES["mail"], **(stored.get("mail") or {})}
    return merged


def set_preferences(player: Player, changes: dict[str, Any]) -> dict[str, Any]:
    """Merge `changes` (already validated in form) into the player's preferences; a webhook
    for a game the player is not in, or to where this server will not post, is refused."""
    for hook in changes.get("webhooks") or []:
        _check_webhook(player, hook)
    preferences = preferences_of(player)
    if "mail" in changes:
        preferences["mail"] = {**preferences["mail"], **changes["mail"]}
    for name in ("digest_hours", "webhooks", "muted_games", "language"):
        if name in changes:
            preferences[name] = changes[name]
    player.preferences = preferences
    return preferences


def _check_webhook(player: Player, hook: dict[str, Any]) -> None:
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


def wants(preferences: dict[str, Any], game_id: int, kind: str) -> bool:
    """Whether a player's preferences ask for mails of `kind` from game `game_id`."""
    if game_id in (preferences.get("muted_games") or []):
        return False
    defaults = DEFAULT_PREFERENCES["mail"]
    return bool((preferences.get("mail") or {}).get(kind, defaults.get(kind, False)))


def mute(player: Player, game_id: int) -> None:
    """No more mail from game `game_id` for `player` (the unsubscribe link, `stop` by mail)."""
    muted = set(preferences_of(player)["muted_games"]) | {game_id}
    set_preferences(player, {"muted_games": sorted(muted)})
