"""What happened, in words: each event of a stretch of the log (the story since a player's
last move), each scoring's breakdown, and where each player's points came from round by
round. It words what the reader may see (`engine.visible_log`) and never looks further."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import engine
from engine.types import (
    CaballerosMovedEvent,
    CastilloRevealedEvent,
    ScoreEvent,
    SecretPicksRevealedEvent,
    SpecialActionEvent,
)
from pbem.languages import N_, _, ngettext
from pbem.words.card_moves import cards_of, hidden_under
from pbem.words.moves import describe_move
from pbem.words.names import capitalised, card_title, ordinal, place_name, secret_move, spot, who

#: Where points come from, as the final standings sum them.
SOURCES = (N_("general scorings"), N_("action cards"), N_("king's bonuses"), N_("home bonuses"))


def scoring_lines(
    scores: Sequence[ScoreEvent], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """Score events as a breakdown, a line per place scored: ranks (ties named as the rule
    scores them), points, and a sole first place's king's and home bonuses."""
    lines = []
    for place, awards in _by_place(scores):
        ranked = [a for a in awards if a.get("reason", "rank") == "rank"]
        bonuses: dict[str, list[str]] = {}
        for award in awards:
            if award.get("reason") in ("king_bonus", "home_bonus"):
                label = (
                    _("+%(points)s king's bonus", points=award["points"])
                    if award["reason"] == "king_bonus"
                    else _("+%(points)s home bonus", points=award["points"])
                )
                bonuses.setdefault(award["player"], []).append(label)
        parts = []
        position = 1
        for points in sorted({a["points"] for a in ranked}, reverse=True):
            group = [a["player"] for a in ranked if a["points"] == points]
            # A tie is named for the place it is for; the points (the next place's, by
            # the rule) say the rest.
            for colour in group:
                said = {
                    "who": who(colour, names, reader),
                    "points": points,
                    "rank": ordinal(position),
                }
                part = (
                    _("%(who)s %(points)s (tied for %(rank)s)", **said)
                    if len(group) > 1
                    else _("%(who)s %(points)s (%(rank)s)", **said)
                )
                parts.append(" ".join([part, *bonuses.get(colour, [])]))
            position += len(group)
        lines.append(
            _("%(place)s scored: %(parts)s.", place=place_name(place), parts="; ".join(parts))
        )
    return lines


def _by_place(scores: Sequence[ScoreEvent]) -> list[tuple[str, list[ScoreEvent]]]:
    """Score events grouped by place, in the order the places were scored."""
    groups: list[tuple[str, list[ScoreEvent]]] = []
    for award in scores:
        if not groups or groups[-1][0] != award["place"]:
            groups.append((award["place"], []))
        groups[-1][1].append(award)
    return groups


def _moved(event: CaballerosMovedEvent, names: Mapping[str, str], reader: str | None) -> str:
    route = {"origin": spot(event["from"]), "target": spot(event["to"])}
    if event["player"] == reader:
        return ngettext(
            "%(num)d of your caballeros went from %(origin)s to %(target)s.",
            "%(num)d of your caballeros went from %(origin)s to %(target)s.",
            event["count"],
            **route,
        )
    return ngettext(
        "%(num)d of %(name)s's caballeros went from %(origin)s to %(target)s.",
        "%(num)d of %(name)s's caballeros went from %(origin)s to %(target)s.",
        event["count"],
        name=who(event["player"], names, reader),
        **route,
    )


def event_lines(
    events: Sequence[engine.Event], names: Mapping[str, str], reader: str | None
) -> list[str]:
    """What a move's events did beyond the move itself, in words: caballeros moved or sent
    away (the reader's first), the king, grandes, scoreboards, picks revealed, vetoes and
    every scoring with its breakdown. The Castillo's caballeros are told where they went in
    their place, after the Castillo scored and before the regions do."""
    moved = [e for e in events if e["type"] == "caballeros_moved" and e["from"] != "castillo"]
    moved.sort(key=lambda e: e["player"] != reader)
    lines = [_moved(e, names, reader) for e in moved]
    scores: list[ScoreEvent] = []
    out_of_castillo: list[CaballerosMovedEvent] = []
    for event in events:
        if event["type"] == "score":
            scores.append(event)
            continue
        if event["type"] == "caballeros_moved":
            if event["from"] == "castillo":
                out_of_castillo.append(event)
            continue
        if scores or out_of_castillo:
            lines += _scored_and_gone_out(scores, out_of_castillo, names, reader)
            scores, out_of_castillo = [], []
        line = _event_line(event, names, reader)
        if line:
            lines.append(line)
    return lines + _scored_and_gone_out(scores, out_of_castillo, names, reader)


def _scored_and_gone_out(
    scores: Sequence[ScoreEvent],
    out_of_castillo: list[CaballerosMovedEvent],
    names: Mapping[str, str],
    reader: str | None,
) -> list[str]:
    """A run of scorings, with the Castillo's caballeros gone out among them: the Castillo's
    scoring comes first, then where they went (the reader's first), then the regions'."""
    out_of_castillo.sort(key=lambda e: e["player"] != reader)
    gone = [_moved(e, names, reader) for e in out_of_castillo]
    castillo = [s for s in scores if s["place"] == "castillo"]
    regions = [s for s in scores if s["place"] != "castillo"]
    if not gone:
        return scoring_lines(scores, names, reader)
    return [
        *scoring_lines(castillo, names, reader),
        *gone,
        *scoring_lines(regions, names, reader),
    ]


def _picks(
    event: SecretPicksRevealedEvent | CastilloRevealedEvent,
    names: Mapping[str, str],
    reader: str | None,
) -> str:
    return ", ".join(
        _("%(who)s: %(place)s", who=who(c, names, reader), place=place_name(r))
        for c, r in event["picks"].items()
    )


def _carried_out(event: SpecialActionEvent, name: str) -> str | None:
    """Only a vetoed action needs saying: otherwise its moves and effects tell it."""
    vetoed = event.get("vetoed_from")
    if not vetoed:
        return None
    said = {"card": card_title(event["card"]), "last": vetoed - 1, "step": vetoed}
    if not name:  # the reader's own
        return _(
            "%(card)s of you was carried out up to step %(last)s (vetoed from step %(step)s).",
            **said,
        )
    return _(
        "%(card)s of %(name)s was carried out up to step %(last)s (vetoed from step %(step)s).",
        name=name,
        **said,
    )


def _card_of(event: Mapping[str, Any]) -> dict[str, str]:
    return {"card": card_title(event["card"])}


#: A sentence (or none) from an event, its player's name and a function saying its picks.
#: Each reads its own kind's keys: the table below is keyed by the kind, so the event comes
#: as `Any` rather than narrowed a kind at a time.
Sentence = Callable[[Any, str, Callable[[Any], str]], str | None]


#: One sentence per kind of event, from the event, its player's name ("" for the reader's
#: own: the sentence then says "you") and the picks said.
_SENTENCES: dict[str, Sentence] = {
    "king_moved": lambda e, n, p: _("The king moved to %(place)s.", place=place_name(e["to"])),
    "grande_moved": lambda e, n, p: (
        _("%(name)s's grande moved to %(place)s.", name=capitalised(n), place=place_name(e["to"]))
        if n
        else _("Your grande moved to %(place)s.", place=place_name(e["to"]))
    ),
    "scoreboard_moved": lambda e, n, p: _(
        "The %(scoreboard)s scoreboard now lies on %(target)s.",
        scoreboard=e["scoreboard"],
        target=spot(e["to"]),
    ),
    "secret_picks_revealed": lambda e, n, p: _(
        "The secret picks for %(card)s were revealed: %(picks)s.", picks=p(e), **_card_of(e)
    ),
    "castillo_revealed": lambda e, n, p: (
        _("The Castillo's caballeros went out to the regions picked: %(picks)s.", picks=p(e))
        if e["picks"]
        else None
    ),
    "veto_window_opened": lambda e, n, p: (
        _("%(card)s of %(name)s waits for the Veto's holders.", name=n, **_card_of(e))
        if n
        else _("%(card)s of you waits for the Veto's holders.", **_card_of(e))
    ),
    "veto_played": lambda e, n, p: (
        _(
            "%(name)s vetoed %(card)s from step %(step)s.",
            name=capitalised(n),
            step=e["from_step"],
            **_card_of(e),
        )
        if n
        else _("You vetoed %(card)s from step %(step)s.", step=e["from_step"], **_card_of(e))
    ),
    "special_action": lambda e, n, p: _carried_out(e, n),
    "veto_kept": lambda e, n, p: (
        _("%(name)s kept the Veto card.", name=capitalised(n))
        if n
        else _("You kept the Veto card.")
    ),
    "veto_expired": lambda e, n, p: (
        _("%(name)s's unused Veto was laid aside.", name=capitalised(n))
        if n
        else _("Your unused Veto was laid aside.")
    ),
    "power_card_returned": lambda e, n, p: (
        _("%(name)s took a played power card back into the hand.", name=capitalised(n))
        if n
        else _("You took a played power card back into the hand.")
    ),
    "special_skipped": lambda e, n, p: (
        _("%(name)s skipped the special action of %(card)s.", name=capitalised(n), **_card_of(e))
        if n
        else _("You skipped the special action of %(card)s.", **_card_of(e))
    ),
    "general_scoring": lambda e, n, p: _("General scoring:"),
    "round_started": lambda e, n, p: _(
        "Round %(round)s began; the action cards face up: %(cards)s.",
        # The game's own count (a 6-round game's 1-6), the chart round for an older event.
        round=e.get("round_number", e["round"]),
        cards=", ".join(card_title(c) for c in e["action_cards"]),
    ),
    "game_over": lambda e, n, p: _("The game is over."),
}


def _event_line(event: engine.Event, names: Mapping[str, str], reader: str | None) -> str | None:
    sentence = _SENTENCES.get(event["type"])
    if sentence is None:
        return None  # said by the move itself (a card chosen, a caballero placed)
    player = event.get("player")
    name = who(player, names, reader) if isinstance(player, str) and player != reader else ""
    return sentence(event, name, lambda e: _picks(e, names, reader))


def story(
    entries: Sequence[engine.ShownLogEntry],
    names: Mapping[str, str],
    reader: str | None,
    *,
    before: str | None = None,
    after: str | None = None,
) -> list[str]:
    """A stretch of the log as its reader may see it, in order: each player's moves in
    words, as what each did under the card that asked it (a run of one player's moves on one
    line), then what they made happen. `before`, `after`: the action card in play before the
    stretch and after it (`card_moves.card_in_play`), where the caller knows them."""
    lines: list[str] = []
    run_player: str | None = None
    run: list[str] = []
    effects: list[str] = []

    def close() -> None:
        if run_player is not None:
            lines.append(f"{capitalised(who(run_player, names, reader))}: {'; '.join(run)}")
            lines.extend(f"  {effect}" for effect in effects)

    for entry, card in zip(entries, cards_of(entries, before=before, after=after), strict=True):
        said = event_lines(_told(entry), names, reader)
        if entry["player"] != run_player or effects:
            close()
            run_player, run, effects = entry["player"], [], []
        run.append(entry_words(entry, card, entry["player"] == reader))
        effects = said
    close()
    return lines


def played(
    entries: Sequence[engine.ShownLogEntry],
    names: Mapping[str, str],
    reader: str | None,
    *,
    before: str | None = None,
) -> list[tuple[str, list[str]]]:
    """The reader's own moves just played, for the answer to them: each in words, with what
    it did: points per place scored, caballeros sent back or moved and where, picks
    revealed, the Castillo's outcome. `before`: the card in play before them."""
    return [
        played_entry(entry, card, names, reader)
        for entry, card in zip(entries, cards_of(entries, before=before), strict=True)
    ]


def played_entry(
    entry: engine.ShownLogEntry, card: str | None, names: Mapping[str, str], reader: str | None
) -> tuple[str, list[str]]:
    """One move of `played`, under `card` (`cards_of`): its words, and what it did."""
    return entry_words(entry, card, entry["player"] == reader), event_lines(
        _told(entry), names, reader
    )


def played_lines(
    entries: Sequence[engine.ShownLogEntry],
    names: Mapping[str, str],
    reader: str | None,
    *,
    before: str | None = None,
) -> list[str]:
    """`played` as a mail's lines: each move, and under it (indented) what it did."""
    lines: list[str] = []
    for move, effects in played(entries, names, reader, before=before):
        lines += [move, *(f"  {effect}" for effect in effects)]
    return lines


def entry_words(entry: engine.ShownLogEntry, card: str | None, own: bool) -> str:
    """A log entry's move in words, as what it did under `card` (`own`: said to its
    mover); a move its reader may not see, by its kind alone."""
    move = entry["move"]
    if "hidden" in entry:
        return hidden_under(move["type"], card) or secret_move(move["type"])
    return describe_move(move, own=own, card=card)


def _told(entry: engine.ShownLogEntry) -> list[engine.Event]:
    """The events of an entry its words have not said already (a special action skipped
    by its own move)."""
    events = entry.get("events") or []
    if entry["move"].get("type") == "skip_special":
        return [e for e in events if e["type"] != "special_skipped"]
    return list(events)


def points_by_source(entries: Iterable[engine.ShownLogEntry]) -> dict[str, dict[str, int]]:
    """Each colour's points over a whole log, by source (`SOURCES`): general scorings and
    action cards (ranks only), and king's and home bonuses from either."""
    totals: dict[str, dict[str, int]] = {}
    for entry in entries:
        general = False
        for event in entry["events"]:
            if event["type"] in ("general_scoring", "castillo_revealed"):
                general = True
            if event["type"] != "score":
                continue
            reason = event.get("reason", "rank")
            source = {"king_bonus": "king's bonuses", "home_bonus": "home bonuses"}.get(
                reason, "general scorings" if general else "action cards"
            )
            own = totals.setdefault(event["player"], dict.fromkeys(SOURCES, 0))
            own[source] += event["points"]
    return totals


def scores_by_round(
    entries: Iterable[engine.ShownLogEntry], colours: Sequence[str]
) -> list[dict[str, int]]:
    """Each colour's score at the start and at the end of every round (the last: now), from
    a log from the start with its events: the points of a score chart."""
    score = dict.fromkeys(colours, 0)
    rounds = [dict(score)]
    for entry in entries:
        for event in entry["events"]:
            if event["type"] == "score":
                score[event["player"]] = score.get(event["player"], 0) + event["points"]
            elif event["type"] == "round_started" and event["round"] > 1:
                rounds.append(dict(score))
    if rounds[-1] != score or len(rounds) == 1:
        rounds.append(dict(score))
    return rounds
