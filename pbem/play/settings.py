"""A player's settings changed: which mails, how often, webhooks, muted games, the
language. The caller commits."""

from __future__ import annotations

from typing import Any, cast

from flask import current_app

from pbem.errors import Invalid
from pbem.languages import N_
from pbem.notify import webhooks
from pbem.notify.preferences import Preferences, StoredPreferences, Webhook, preferences_of
from pbem.store.models import Player


def set_preferences(player: Player, changes: StoredPreferences) -> Preferences:
    """Merge `changes` (already validated in form) into the player's preferences; a webhook
    for a game the player is not in, or to where this server will not post, is refused."""
    for hook in changes.get("webhooks") or []:
        _check_webhook(player, hook)
    preferences: dict[str, Any] = {**preferences_of(player)}
    for kinds in ("mail", "push"):
        if kinds in changes:
            preferences[kinds] = {**preferences[kinds], **changes[kinds]}
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


def mute(player: Player, game_id: int) -> None:
    """No more mail from game `game_id` for `player` (the unsubscribe link, `stop` by mail)."""
    muted = set(preferences_of(player)["muted_games"]) | {game_id}
    set_preferences(player, {"muted_games": sorted(muted)})
