"""The lessons of a game that teaches (`learn`): each kind of decision explained the first
time a seat meets it, and the game's first general scoring walked through afterwards.

Which lessons are due is decided here from the seat's own moves so far (`lessons_due`); the
page and the decision mail show the same texts. A lesson says what a decision is for and
what to weigh; how to answer it is the guide's (`words.guide`), shown with every decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import engine
from pbem.languages import N_, _, ngettext
from pbem.words.names import who
from pbem.words.story import scoring_lines


class Lesson(TypedDict):
    kind: str
    title: str
    paragraphs: list[str]
    scores: list[str]  # the scoring lesson's breakdown of what the first scoring gave, else []


#: Each lesson's title and paragraphs (msgids), in the order they are shown when several are
#: due at once. A first turn has four: the court, the action card, placing, the special action.
LESSONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "scoring": (
        N_("How the first scoring went"),
        (
            N_(
                "The first general scoring has just been played. The Castillo scored first, "
                "like a region; then its caballeros left for the regions their players had "
                "picked in secret, and every region was scored in turn."
            ),
            N_(
                "In each region the most caballeros earn the first value on its scoreboard, "
                "the second most the second value, and so on; players tied for a place get "
                "the next place's points. Whoever alone is first in the King's region earns "
                "2 more, and so does whoever alone is first where their own Grande stands."
            ),
            N_(
                "Two more general scorings follow, the last at the end of the game: the most "
                "points then wins."
            ),
        ),
    ),
    "power_card": (
        N_("Power cards: your place in the round"),
        (
            N_(
                "Each round begins with every player playing one power card, one after "
                "another; a number someone has already played this round cannot be played "
                "again."
            ),
            N_(
                "The highest card takes the first turn of the round and the first choice of "
                "its action cards; the lowest goes last. The small figure on a card is how "
                "many caballeros it lets you bring from your province into your court."
            ),
            N_(
                "So a high card buys an early turn and brings few caballeros; a low one brings "
                "many and comes late. Each card is played once a game: keep some high ones "
                "for the rounds whose action cards you want most."
            ),
        ),
    ),
    "court": (
        N_("Your court and your province"),
        (
            N_(
                "Your caballeros stand in three places: the province (your reserve beside the "
                "board), your court (those ready to go onto the board), and the regions. Only "
                "caballeros in your court can be placed."
            ),
            N_(
                "A turn begins by bringing caballeros from your province into your court, up "
                "to your power card's figure. Taking all you may is usually right: a court that "
                "runs dry leaves you nothing to place."
            ),
        ),
    ),
    "action_card": (
        N_("Action cards"),
        (
            N_(
                "Then you take one of the action cards face up this round. It does two things: "
                "its number is how many caballeros you may place from your court, and its text "
                "is a special action you may carry out."
            ),
            N_(
                "A card you take is gone for the players after you: sometimes the best card "
                "is the one you keep from someone else."
            ),
        ),
    ),
    "placing": (
        N_("Placing caballeros and the King's region"),
        (
            N_(
                "Caballeros go only into the regions next to the King's region, or into the "
                "Castillo, which is always open. The King's region itself is closed: nothing "
                "enters or leaves it while the King stands there."
            ),
            N_(
                "What counts at a scoring is who has more caballeros where: aim for regions in "
                "which a few more change who comes first."
            ),
        ),
    ),
    "special_action": (
        N_("The special action"),
        (
            N_(
                "You may carry out your card's special action before or after placing, as "
                "suits you, or not at all. Some move caballeros, some score regions at once, "
                "some change what a region is worth; the order often matters."
            ),
        ),
    ),
    "king": (
        N_("The King"),
        (
            N_(
                "The King card moves the King to a region of your choice, and with him where "
                "everyone may place next. It is turned up every round and never runs out."
            ),
            N_(
                "Whenever the King's region is scored, whoever alone has the most caballeros "
                "there earns 2 extra points. Bring him beside the regions you are building; "
                "take him away from a rival's to stop their reinforcements."
            ),
        ),
    ),
    "castillo": (
        N_("The Castillo"),
        (
            N_(
                "At each general scoring the Castillo scores first, like a region. Then it "
                "empties: all of each player's caballeros in it go to one region, which each "
                "player chooses now, in secret. The King's region cannot be chosen."
            ),
            N_(
                "The picks are shown together once everyone has chosen: choose where your "
                "caballeros will change who comes first, and think where the others will send "
                "theirs."
            ),
        ),
    ),
    "secret_disk": (
        N_("A secret pick"),
        (
            N_(
                "This special action asks the players it concerns to choose a region in secret, "
                "with their secret disks. No one sees a choice until all are made; then they "
                "are shown together, and the action is carried out."
            ),
        ),
    ),
    "veto": (
        N_("The Veto"),
        (
            N_(
                "A player holding a Veto card may stop a special action, or the part of it not "
                "yet done. The card is then spent, and one not used by the end of the next "
                "round is lost."
            ),
            N_(
                "Allowing costs nothing; veto when this action would hurt you more than the "
                "card could help you later."
            ),
        ),
    ),
}

#: The lessons of a seat's first turn, shown together (a mail answers a turn whole).
FIRST_TURN = ("court", "action_card", "placing", "special_action")
#: The move types that show a seat has met each once-only lesson.
_MET_BY: dict[str, frozenset[str]] = {
    "power_card": frozenset({"play_power_card"}),
    "castillo": frozenset({"castillo_pick"}),
    "secret_disk": frozenset({"secret_pick"}),
    "veto": frozenset({"allow", "veto"}),
}
_DECISION_LESSON = {
    "power_card": "power_card",
    "castillo_pick": "castillo",
    "secret_pick": "secret_disk",
    "veto_window": "veto",
}


def lessons_due(log: Sequence[engine.LogEntry], colour: str, decision_kind: str) -> list[str]:
    """The lessons due to `colour` at its decision of `decision_kind` after the moves in
    `log` (the game's, from its start): the scoring walk-through first, at the seat's first
    decision after the first general scoring is over; then the decision's own, if the seat
    never answered one of its kind. A turn teaches as it begins: its four parts the first
    time, the King the second."""
    own = [entry["move"]["type"] for entry in log if entry["player"] == colour]
    due = []
    scoring = _first_scoring(log)
    if scoring is not None and not _moved_after(log, colour, scoring[0]):
        due.append("scoring")
    if decision_kind == "turn":
        started = [e["seq"] for e in log for ev in e["events"] if _turn_of(ev, colour)]
        if started and not _moved_after(log, colour, started[-1]):
            due += list(FIRST_TURN) if len(started) == 1 else ["king"] if len(started) == 2 else []
    elif decision_kind in _DECISION_LESSON:
        kind = _DECISION_LESSON[decision_kind]
        if not _MET_BY[kind] & set(own):
            due.append(kind)
    return due


def _turn_of(event: engine.Event, colour: str) -> bool:
    return event["type"] == "turn_started" and event["player"] == colour


def _moved_after(log: Sequence[engine.LogEntry], colour: str, seq: int) -> bool:
    return any(e["player"] == colour and e["seq"] > seq for e in log)


def _first_scoring(log: Sequence[engine.LogEntry]) -> tuple[int, list[Any]] | None:
    """The first general scoring, once over: the seq of the move that ended it (the next
    round began, or the game ended), and its events from `general_scoring` on."""
    events: list[Any] = []
    for entry in log:
        for event in entry["events"]:
            if events and event["type"] in ("round_started", "game_over"):
                return entry["seq"], events
            if events or event["type"] == "general_scoring":
                events.append(event)
    return None


def lessons_at(
    log: Sequence[engine.LogEntry], colour: str, decision_kind: str, names: Mapping[str, str]
) -> list[Lesson]:
    """The lessons due to `colour` at its decision of `decision_kind` after `log`, in words."""
    return lessons(lessons_due(log, colour, decision_kind), log, colour, names)


def lessons(
    kinds: Sequence[str],
    log: Sequence[engine.LogEntry],
    colour: str,
    names: Mapping[str, str],
) -> list[Lesson]:
    """The lessons `kinds` in words; the scoring one with the first scoring's breakdown, as
    `colour` may see it."""
    shown = []
    for kind in kinds:
        title, paragraphs = LESSONS[kind]
        shown.append(
            Lesson(
                kind=kind,
                title=_(title),
                paragraphs=[_(p) for p in paragraphs],
                scores=_scoring_walk(log, colour, names) if kind == "scoring" else [],
            )
        )
    return shown


def _scoring_walk(
    log: Sequence[engine.LogEntry], colour: str, names: Mapping[str, str]
) -> list[str]:
    """The first general scoring as the seat made it: the places it scored in, each as the
    place's whole breakdown, and what it gave the seat and each other seat in all (the
    story beside it lists every place). Score events are public: every seat sees them all."""
    scoring = _first_scoring(log)
    if scoring is None:
        return []
    scores = [event for event in scoring[1] if event["type"] == "score"]
    places = {event["place"] for event in scores if event["player"] == colour}
    totals: dict[str, int] = {}
    for event in scores:
        totals[event["player"]] = totals.get(event["player"], 0) + event["points"]
    others = ", ".join(
        _("%(who)s %(points)s", who=who(other, names, colour), points=points)
        for other, points in sorted(totals.items(), key=lambda item: -item[1])
        if other != colour
    )
    mine = totals.get(colour, 0)
    total = ngettext(
        "In all, it gave you %(num)d point; the others: %(others)s.",
        "In all, it gave you %(num)d points; the others: %(others)s.",
        mine,
        others=others or "-",
    )
    where = [event for event in scores if event["place"] in places]
    return [*scoring_lines(where, names, colour), total]
