"""What a move does under the card (or the step) that asks for it, in words, and which card
each move of a stretch of the log answers.

One move type serves many cards: a region named (`special_region`) is scored under Score
chosen region, emptied under the intrigues and evicted under Eviction; an opponent named
(`target`) is the next one a card hits, and what it does to them is that card's; a secret
pick sends caballeros back, takes the evicted ones in or names a region to score. So a move
is said with its card, in the verbs the rule books give that card's action (the German
ones: werten, umsetzen, zurückschicken, versetzen). The log keeps no card beside a move:
`cards_of` reads it from the log itself, from the card chosen before the move or the events
of the special action the move belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from pbem.languages import N_, _
from pbem.words.names import card_title, colour_name, place_name

#: The moves of a special action: its player's planning moves, the others' answers to it
#: (a secret pick, a King-rages return) and the Veto windows' answers. Only these answer a
#: card; the rest of a turn (taking, choosing, placing, ending) says the same under any.
SPECIAL_KINDS = frozenset(
    {
        "do_special",
        "special_option",
        "special_region",
        "special_place",
        "move_caballero",
        "target",
        "remove_caballero",
        "move_scoreboard",
        "move_king",
        "move_grande",
        "return_power_card",
        "end_special",
        "skip_special",
        "return_caballero",
        "secret_pick",
        "allow",
        "veto",
    }
)

#: Events that name the card of the special action under way (`card`), or that a secret
#: pick was made for (`for`).
_NAMING = frozenset(
    {"special_action", "veto_window_opened", "veto_played", "secret_picks_revealed"}
)
#: Events between turns: no special action goes on across one.
_BOUNDARIES = frozenset({"turn_started", "turn_ended", "round_started", "card_chosen"})


def card_in_play(view: engine.View) -> str | None:
    """The action card whose special action a move answers now, as `view` shows the game:
    the special action under way (its player's planning, the others' picks, returns and
    Veto answers), else the card the turn chose; None outside a turn's card."""
    special = view.get("special")
    if special:
        return str(special["card"])
    turn = view.get("turn")
    if turn and turn.get("card"):
        return str(turn["card"])
    return None


def cards_of(
    entries: Sequence[Mapping[str, Any]], *, before: str | None = None, after: str | None = None
) -> list[str | None]:
    """For each log entry, the card whose special action its move belongs to (None for a
    move of no special action, or where the stretch does not tell). `before`: the card in
    play before the first entry (`card_in_play`), if known; `after`: the card in play after
    the last. Read forwards from a card chosen, then backwards from the events that name the
    card a special action carried out, a window opened or picks were made for."""
    forwards = _forwards(entries, before)
    backwards = _backwards(entries, after)
    return [
        (ahead or behind) if entry["move"].get("type") in SPECIAL_KINDS else None
        for entry, ahead, behind in zip(entries, forwards, backwards, strict=True)
    ]


def _forwards(entries: Sequence[Mapping[str, Any]], card: str | None) -> list[str | None]:
    found: list[str | None] = []
    for entry in entries:
        move = entry["move"]
        if move.get("type") == "choose_card" and "card" in move:
            card = str(move["card"])
        found.append(card)
        for event in entry.get("events") or ():
            if event.get("type") == "card_chosen":
                card = str(event["card"])
            elif event.get("type") in ("turn_ended", "round_started"):
                card = None
    return found


def _backwards(entries: Sequence[Mapping[str, Any]], card: str | None) -> list[str | None]:
    found: list[str | None] = []
    for entry in reversed(entries):
        for event in reversed(entry.get("events") or ()):
            kind = event.get("type")
            if kind in _BOUNDARIES:
                card = None
            elif kind in _NAMING:
                card = str(event["card"])
            elif kind == "secret_pick_made" and event.get("for") != "castillo":
                card = str(event["for"])
        found.append(card)
    found.reverse()
    return found


# -- the words, card by card ----------------------------------------------------------------

#: A region named for a special action (`special_region`), by card: (the mover's words, the
#: log's of another).
_REGION: dict[str, tuple[str, str]] = {
    "score_chosen_region": (N_("score %(place)s"), N_("score %(place)s")),
    "eviction": (
        N_("make the opponents move all their caballeros out of %(place)s"),
        N_("make the opponents move all their caballeros out of %(place)s"),
    ),
    "intrigue_own_region": (
        N_("move all your caballeros out of %(place)s"),
        N_("move all their own caballeros out of %(place)s"),
    ),
    "intrigue_five_from_region": (
        N_("move up to 5 caballeros out of %(place)s"),
        N_("move up to 5 caballeros out of %(place)s"),
    ),
}
_REGION["intrigue_court_two_or_own_region"] = _REGION["intrigue_own_region"]

#: An opponent named next (`target`), by card: what the card then does to them. The cards
#: that hit every opponent at once name one only in the two-colour variant (which of the
#: other person's colours).
_TARGET = {
    "decay_all_court": N_("%(colour)s next, to send their whole court back to the province"),
    "decay_three_court": N_("%(colour)s next, to send 3 from their court back to the province"),
    "secret_two_from_region": N_(
        "%(colour)s next, to send 2 caballeros of a region picked in secret back to the province"
    ),
    "secret_all_from_region": N_(
        "%(colour)s next, to send all their caballeros of a region picked in secret back to "
        "the province"
    ),
    "eviction": N_(
        "%(colour)s next, to move all their caballeros out of the region, to one picked in secret"
    ),
    "king_rages": N_("%(colour)s, to send 3 of their caballeros back to the province"),
    "secret_scoring": N_("%(colour)s, to pick a region to score in secret too"),
}

#: A card's whole special action in one move (`do_special`), by card.
_DO = {
    "veto": N_("keep the Veto card, to stop a special action later"),
    "court_two": N_("bring 2 caballeros from the province to court"),
    "king_rages": N_("make every opponent send 3 of their caballeros back to the province"),
    "score_four_regions": N_("score the regions whose first value is 4"),
    "score_five_regions": N_("score the regions whose first value is 5"),
    "score_six_seven_regions": N_("score the regions whose first value is 6 or 7"),
    "score_castillo": N_("score the Castillo"),
    "score_first_places": N_("score every region's sole first place"),
    "score_most_caballeros": N_("score the region(s) with the most caballeros"),
    "score_fewest_caballeros": N_("score the region(s) with the fewest caballeros"),
    "secret_scoring": N_("make every player pick a region to score in secret"),
}

#: A region picked on the secret disk (`secret_pick`), by the card it is picked for: (the
#: picker's words, the log's of another).
_PICK: dict[str, tuple[str, str]] = {
    "secret_two_from_region": (
        N_("send 2 of your caballeros from %(place)s back to the province"),
        N_("send 2 of their caballeros from %(place)s back to the province"),
    ),
    "secret_all_from_region": (
        N_("send all your caballeros in %(place)s back to the province"),
        N_("send all their caballeros in %(place)s back to the province"),
    ),
    "eviction": (
        N_("move your evicted caballeros to %(place)s"),
        N_("move their evicted caballeros to %(place)s"),
    ),
    "secret_scoring": (
        N_("score %(place)s, if no one else picks it"),
        N_("score %(place)s, if no one else picks it"),
    ),
}

#: The King's move, by card: a step to a neighbour (Royal adviser), or anywhere (King).
_KING = {
    "royal_adviser": N_("move the king on to the neighbouring region %(place)s"),
    "king": N_("put the king in %(place)s"),
}


def under_card(move: Mapping[str, Any], card: str | None, own: bool) -> str | None:
    """`move` said as what it does under `card` (`own`: said to its mover), or None where
    the words of the move are its own whatever the card (or the card is not known)."""
    if card is None:
        return None
    kind = move.get("type")
    said: str | None = None
    if kind == "special_region" and card in _REGION:
        mine, theirs = _REGION[card]
        said = _(mine if own else theirs, place=place_name(str(move["region"])))
    elif kind == "target" and card in _TARGET:
        said = _(_TARGET[card], colour=colour_name(str(move["player"])))
    elif kind == "do_special" and card in _DO:
        said = _(_DO[card])
    elif kind == "secret_pick" and card in _PICK and "region" in move:
        mine, theirs = _PICK[card]
        said = _(mine if own else theirs, place=place_name(str(move["region"])))
    elif kind == "move_king" and card in _KING:
        said = _(_KING[card], place=place_name(str(move["to"])))
    elif kind == "allow":
        said = _("allow %(card)s", card=card_title(card))
    return said


def hidden_under(kind: str, card: str | None) -> str | None:
    """A move shown without its fields (another's pick not yet revealed) under `card`."""
    if kind == "secret_pick" and card is not None:
        return _("a region picked in secret for %(card)s", card=card_title(card))
    return None
