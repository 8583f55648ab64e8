"""A player's mail preferences, as read: which mails (and pushes) they want from which
game, and how often (changed by `pbem.play.settings`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from pbem.store.models import Player


class MailKinds(TypedDict):
    """Which kinds of mail a player wants."""

    decision: bool
    every_move: bool
    scoring: bool
    game_over: bool
    table_talk: bool


class PushKinds(TypedDict):
    """Which news a player wants pushed to the browsers they subscribed (`notify.push`)."""

    decision: bool
    table_talk: bool
    game_over: bool


class Webhook(TypedDict):
    game_id: int
    url: str


class Preferences(TypedDict):
    """A player's preferences, whole (`preferences_of` fills in what they never set)."""

    mail: MailKinds
    push: PushKinds
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
    # Pushes go only to browsers a player subscribed: on for each kind once they did.
    "push": {"decision": True, "table_talk": True, "game_over": True},
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
    merged["push"] = {**DEFAULT_PREFERENCES["push"], **(stored.get("push") or {})}
    return cast(Preferences, merged)  # what is stored was checked as it was set


def wants(preferences: StoredPreferences, game_id: int, kind: str) -> bool:
    """Whether a player's preferences ask for mails of `kind` from game `game_id`."""
    if game_id in (preferences.get("muted_games") or []):
        return False
    defaults: Mapping[str, object] = DEFAULT_PREFERENCES["mail"]
    return bool((preferences.get("mail") or {}).get(kind, defaults.get(kind, False)))


def wants_push(preferences: StoredPreferences, game_id: int, kind: str) -> bool:
    """Whether a player's preferences ask for pushes of `kind` from game `game_id` (to the
    browsers they subscribed); a game muted sends none."""
    if game_id in (preferences.get("muted_games") or []):
        return False
    defaults: Mapping[str, object] = DEFAULT_PREFERENCES["push"]
    return bool((preferences.get("push") or {}).get(kind, defaults.get(kind, False)))
