"""The game's things by name, in the reader's language: colours, places, action cards and
what each does, the game's terms, a game's status, ranks, a seat as the story calls it, and a
move another may not see yet. Written once for mails and pages alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import names as board_names
from engine.data import KING_CARD, PLACE_NAMES
from pbem.languages import N_, _, current_language, lazy_, ngettext

#: Each action card's special action, in a line (the stack number says how many caballeros
#: it lets its player place; the King card places 5).
CARD_TEXTS: dict[str, str] = {
    "intrigue_own_region": N_(
        "take all your caballeros out of one region and spread them "
        "over other regions and/or the Castillo"
    ),
    "intrigue_court_two": N_(
        "place 2 more caballeros from your court in any regions and/or the Castillo"
    ),
    "intrigue_court_two_or_own_region": N_(
        "your choice: 2 more caballeros from your court "
        "anywhere, or empty one region of yours and spread them"
    ),
    "intrigue_five_from_region": N_(
        "move up to 5 caballeros (any colours) out of one region "
        "to other regions and/or the Castillo"
    ),
    "intrigue_three_foreign": N_(
        "move up to 3 opponents' caballeros to other regions and/or the Castillo"
    ),
    "intrigue_three_any": N_(
        "move up to 3 caballeros of any colours to other regions and/or the Castillo"
    ),
    "intrigue_two_own_two_foreign": N_(
        "move 2 of your caballeros and 2 of opponents' to other regions and/or the Castillo"
    ),
    "intrigue_four_own": N_("move up to 4 of your caballeros to other regions and/or the Castillo"),
    "intrigue_four_any": N_(
        "move up to 4 caballeros of any colours to other regions and/or the Castillo"
    ),
    "veto": N_("keep it to stop one special action (or the rest of one), this round or the next"),
    "decay_all_court": N_("every opponent sends all the caballeros of their court to the province"),
    "decay_three_court": N_("every opponent sends 3 caballeros from court to province"),
    "king_rages": N_(
        "every opponent returns 3 of their caballeros from regions and/or court to the province"
    ),
    "one_from_each_opponent": N_(
        "send 1 caballero of each opponent from a region you choose to the province"
    ),
    "secret_two_from_region": N_(
        "every opponent secretly picks a region of theirs and returns 2 "
        "caballeros from it to the province"
    ),
    "secret_all_from_region": N_(
        "every opponent secretly picks a region of theirs and returns "
        "all their caballeros there to the province"
    ),
    "score_chosen_region": N_("score one region of your choice (the king's or the Castillo too)"),
    "score_four_regions": N_("score every region whose first value is now 4"),
    "score_five_regions": N_("score every region whose first value is now 5"),
    "score_six_seven_regions": N_("score every region whose first value is now 6 or 7"),
    "score_castillo": N_("score the Castillo (its caballeros stay inside)"),
    "score_first_places": N_("in every region, a sole first place scores its first value"),
    "score_most_caballeros": N_("score the region(s) with the most caballeros in all"),
    "score_fewest_caballeros": N_(
        "score the region(s) with the fewest caballeros (empty ones not counted)"
    ),
    "mobile_scoreboard": N_(
        "lay a mobile scoreboard (8/4/0 or 4/0/0) on a region or the "
        "Castillo, or move one that is out"
    ),
    "royal_adviser": N_("move the king to a region bordering his"),
    "eviction": N_(
        "name a region: every opponent moves all their caballeros there to a region "
        "they pick in secret"
    ),
    "grande": N_("move your grande to another region (your home bonus moves with it)"),
    "power_card_return": N_("take back into your hand a power card you have played"),
    "court_two": N_("bring 2 caballeros from your province to your court"),
    "secret_scoring": N_(
        "every player secretly picks a region; a region picked by one player only is scored"
    ),
    "king": N_("move the king to any region"),
}


#: Each action card's special action in a few words, for a list of a round's five cards
#: where its whole line (`CARD_TEXTS`) would not fit: the power card mail's.
CARD_SHORT_TEXTS: dict[str, str] = {
    "intrigue_own_region": N_("spread all yours out of one region"),
    "intrigue_court_two": N_("2 more from your court, anywhere"),
    "intrigue_court_two_or_own_region": N_("2 more from your court, or spread a region of yours"),
    "intrigue_five_from_region": N_("move up to 5 of any colours out of one region"),
    "intrigue_three_foreign": N_("move up to 3 opponents' caballeros"),
    "intrigue_three_any": N_("move up to 3 caballeros of any colours"),
    "intrigue_two_own_two_foreign": N_("move 2 of yours and 2 opponents'"),
    "intrigue_four_own": N_("move up to 4 of your caballeros"),
    "intrigue_four_any": N_("move up to 4 caballeros of any colours"),
    "veto": N_("keep it to stop a special action"),
    "decay_all_court": N_("opponents send their whole court to the province"),
    "decay_three_court": N_("opponents send 3 from court to the province"),
    "king_rages": N_("opponents return 3 caballeros to the province"),
    "one_from_each_opponent": N_("1 of each opponent's from a region to the province"),
    "secret_two_from_region": N_("opponents return 2 from a region they pick in secret"),
    "secret_all_from_region": N_("opponents empty a region they pick in secret"),
    "score_chosen_region": N_("score a region of your choice"),
    "score_four_regions": N_("score the regions whose first value is 4"),
    "score_five_regions": N_("score the regions whose first value is 5"),
    "score_six_seven_regions": N_("score the regions whose first value is 6 or 7"),
    "score_castillo": N_("score the Castillo"),
    "score_first_places": N_("every sole first place scores"),
    "score_most_caballeros": N_("score the region with the most caballeros"),
    "score_fewest_caballeros": N_("score the region with the fewest caballeros"),
    "mobile_scoreboard": N_("lay or move a mobile scoreboard"),
    "royal_adviser": N_("move the king to a neighbouring region"),
    "eviction": N_("opponents leave a region you name, for one they pick in secret"),
    "grande": N_("move your grande"),
    "power_card_return": N_("a power card you played back to your hand"),
    "court_two": N_("2 from your province to your court"),
    "secret_scoring": N_("secret picks: a region picked once is scored"),
    "king": N_("move the king to any region"),
}


#: The colours as prose names them (the notation keeps them English).
COLOUR_NAMES: dict[str, str] = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "brown": N_("brown"),
}


def colour_name(colour: str) -> str:
    """A colour in prose, in the current language (`red`; `rot` in German)."""
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def colour_later(colour: str) -> Any:
    """A colour's prose name, translated when it is made a string: for a notice composed
    once and mailed to many, each in their own language."""
    return lazy_(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def card_text(card: str) -> str:
    """An action card's special action in a line, in the current language ("" if none)."""
    text = CARD_TEXTS.get(card, "")
    return _(text) if text else ""


def card_short_text(card: str) -> str:
    """An action card's special action in a few words (`CARD_SHORT_TEXTS`), in the current
    language; its whole line where it has none."""
    text = CARD_SHORT_TEXTS.get(card)
    return _(text) if text else card_text(card)


def place_name(place: str) -> str:
    if place in board_names.PLACE_NAMES:
        return board_names.place_name(place, current_language())
    return PLACE_NAMES.get(place, place.replace("_", " ").title())


def card_title(card: str) -> str:
    """An action card's name in the current language (English: its id as words,
    `intrigue_four_own` -> `Intrigue four own`)."""
    if card in board_names.CARD_NAMES:
        return board_names.card_name(card, current_language())
    return "King" if card == KING_CARD else card.replace("_", " ").capitalize()


def caballeros(count: int) -> str:
    return ngettext("%(num)d caballero", "%(num)d caballeros", count)


def ordinal(rank: int) -> str:
    if rank == 1:
        return _("1st")
    if rank == 2:
        return _("2nd")
    if rank == 3:
        return _("3rd")
    return _("%(rank)sth", rank=rank)


def who(colour: str, names: Mapping[str, str], reader: str | None) -> str:
    """A colour as the story names it: "you" to its own reader, else "Ann (red)"."""
    if colour == reader:
        return _("you")
    name = names.get(colour)
    return (
        _("%(name)s (%(colour)s)", name=name, colour=colour_name(colour))
        if name
        else colour_name(colour)
    )


def spot(where: str) -> str:
    """A location as a sentence names it: "the Castillo", "the court", "Aragon"."""
    if where == "province":
        return _("the province")
    if where == "court":
        return _("the court")
    return _("the Castillo") if where == "castillo" else place_name(where)


#: A move shown without its fields (another's pick not yet revealed, a card taken back),
#: by its kind.
SECRET_MOVES = {
    "castillo_pick": N_("Castillo disk (secret)"),
    "secret_pick": N_("secret disk (secret)"),
    "return_power_card": N_("take back a power card (secret)"),
}


def secret_move(kind: str) -> str:
    """A move shown without its fields, in words ("secret disk (secret)")."""
    if kind in SECRET_MOVES:
        return _(SECRET_MOVES[kind])
    return _("%(move)s (secret)", move=kind.replace("_", " "))


def capitalised(text: str) -> str:
    """`text` begun with a capital, as a sentence begins."""
    return text[:1].upper() + text[1:]


def term(key: str) -> str:
    """A game term of `engine.names.TERM_NAMES` (court, province, king), in the language
    being rendered."""
    return board_names.term(key, current_language())


#: A game's status as a sentence says it ("Game 12 is over").
STATUS_WORDS: dict[str, str] = {
    "forming": N_("forming"),
    "active": N_("active"),
    "finished": N_("finished"),
    "aborted": N_("aborted"),
    "abandoned": N_("abandoned"),
    "cancelled": N_("cancelled"),
}


def status_word(status: str) -> str:
    """A game's status in the current language (English: the status itself)."""
    return _(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def bank_text(seconds: int) -> str:
    """A time bank as a person reads it, in whole days and hours ("3 d 4 h"), or hours and
    minutes under a day: a bank runs in hours, and a minute is all that matters at its end."""
    minutes = max(0, seconds) // 60
    days, hours = divmod(minutes // 60, 24)
    if days:
        return _("%(days)s d %(hours)s h", days=days, hours=hours)
    return _("%(hours)s h %(minutes)s min", hours=hours, minutes=minutes % 60)
