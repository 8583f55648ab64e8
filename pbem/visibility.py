"""What each viewer may see of a game's move log.

Two kinds of move carry secrets the engine's views hide, and the log must hide them too:

* **Secret picks** (`castillo_pick`, `secret_pick`, `eviction_pick`, ...: every move type
  ending in `_pick`). The rulings say a pick stays hidden from everyone else until the last
  pick of its phase is in, and may be changed until then. The rule used here, chosen to be
  simple and safe rather than exact:

      a pick by seat X is shown to other viewers only once the log holds a later move that
      is not a pick, or the game is finished.

  Why that is safe: while a pick phase is open, the only decisions pending are picks (the
  engine collects every secret input before anything else goes on, veto windows included),
  so no non-pick move can be appended until the phase has been resolved and its picks
  revealed by the engine. Why it may over-hide: the last pick of a phase resolves it at once,
  but the picks stay hidden in the log until the next move is played; and two pick phases in
  a row (nothing between them) reveal the first only when the second is followed by a move.
  Both only delay what a viewer learns; neither leaks. The hidden form keeps the move's
  `type` (who has picked is public: the view's `pending` shows who has not).

* **`power_card_return`**: which power card was taken back is known to its player only,
  forever (the card is in their hand again, and hands are private). Others see the move
  without its `card`.

The mover always sees their own moves whole; a person holding two colours (the two-colour
variant) is the mover of both, so sees both colours' moves whole.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

#: Move types whose `card` only the mover may see.
PRIVATE_CARD_MOVES = frozenset({"power_card_return", "return_power_card"})


def is_secret_pick(move_type: str) -> bool:
    return move_type.endswith("_pick")


def visible_log(entries: Iterable[dict], viewers: Collection[str], *, finished: bool) -> list[dict]:
    """The log entries as the person holding the colours `viewers` may see them (an empty
    collection for a spectator or a player without a seat).

    `entries` are dicts with at least `seq`, `player` (the colour) and `move`, in seq order.
    """
    if isinstance(viewers, str):
        # A bare colour would be read as its letters ("red" holds "e"): refuse, not guess.
        raise TypeError("visible_log takes a collection of colours, not one colour string")
    viewers = frozenset(viewers)
    entries = list(entries)
    # Walk from the end: picks after the last non-pick move are the ones still hidden.
    revealed_from_here = finished
    hide = [False] * len(entries)
    for index in range(len(entries) - 1, -1, -1):
        move_type = str(entries[index]["move"].get("type", ""))
        if is_secret_pick(move_type):
            hide[index] = not revealed_from_here
        else:
            revealed_from_here = True
    shown = []
    for entry, hidden_pick in zip(entries, hide, strict=True):
        move = entry["move"]
        if entry["player"] not in viewers:
            move_type = move.get("type", "")
            if hidden_pick:
                entry = {**entry, "move": {"type": move_type}, "hidden": True}
            elif move_type in PRIVATE_CARD_MOVES and "card" in move:
                entry = {
                    **entry,
                    "move": {k: v for k, v in move.items() if k != "card"},
                    "hidden": True,
                }
        shown.append(entry)
    return shown
