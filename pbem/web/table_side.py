"""The table beside the board: its talk (the latest lines, each with who said it, a seat's
mute and a line's report) and the reader's notes, drawn per request, never kept."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.data import COLOURS
from pbem.game import table
from pbem.play.notes import LONGEST as LONGEST_NOTES
from pbem.play.talk import LONGEST as LONGEST_WORDS
from pbem.play.talk import OPEN_STATUSES
from pbem.web.board import (
    Chip,
    NamedChip,
    colour_chip,
    moment_shown,
)
from pbem.web.links import link
from pbem.web.pages import BoardPage

#: The words to the table a page shows: the latest (the API reads them all).
TALK_SHOWN = 100


class TalkShown(NamedChip):
    id: int
    text: str
    seq: int
    said: dict[str, str]  # when (`board.moment_shown`): a game lasts weeks
    report: str | None  # the page reporting it (None: the reader's own words)


class MutableSeat(Chip):
    muted: bool  # whether the reader muted its words


@dataclass(frozen=True)
class TableShown:
    """What a seat's page shows beside the log, read for this request alone (it changes
    without a move, and the notes are the reader's own): never part of a kept `BoardPage`."""

    messages: list[TalkShown]
    more: bool  # older words than these are at the table
    colours: list[Chip]  # the reader's colours (a select when they hold two)
    writes_as: str  # the colour the form writes as unless another is chosen
    open: bool  # whether the game's table takes words (see talk.OPEN_STATUSES)
    notes: str
    talk_url: str
    notes_url: str
    seats: list[MutableSeat] = field(default_factory=list)  # the others' seats
    mute_url: str = ""
    report_title: str = ""
    draft: str = ""  # a message refused, given back to be mended
    longest: int = LONGEST_WORDS
    notes_longest: int = LONGEST_NOTES


def table_shown(
    page: BoardPage, player_id: int | None, talk: str = "", notes: str | None = None
) -> TableShown | None:
    """The table's talk and the reader's notes, for a reader holding a seat (None else:
    the public and other readers see neither); `talk` and `notes`: what a refused form
    held, shown again in place of what is kept."""
    if player_id is None or not page.own:
        return None
    read = table.talk_and_notes(page.game_id, player_id, TALK_SHOWN + 1)
    found, kept = read.talk, read.notes
    here = link("web.game", game_id=page.game_id, colour=page.colour_field, _anchor="table-talk")
    messages: list[TalkShown] = [
        {
            **colour_chip(m.colour),
            "id": m.id,
            "name": m.name,
            "text": m.text,
            "seq": m.seq,
            "said": moment_shown(m.created_at),
            "report": None
            if m.colour in page.own
            else link("web.report", kind="talk", id=m.id, next=here),
        }
        for m in found[-TALK_SHOWN:]
    ]
    # In the order of the colours (the engine's), whichever seat each holds.
    others = [c for c in COLOURS if c in dict(page.holders) and c not in page.own]
    return TableShown(
        messages=messages,
        more=len(found) > TALK_SHOWN,
        colours=[colour_chip(c) for c in page.own],
        writes_as=page.colour_field or page.own[0],
        open=page.status in OPEN_STATUSES,
        notes=kept if notes is None else notes,
        talk_url=link("web.write_to_table", game_id=page.game_id),
        notes_url=link("web.keep_notes", game_id=page.game_id),
        draft=talk,
        seats=[{**colour_chip(c), "muted": c in read.muted} for c in others],
        mute_url=link("web.mute_seat", game_id=page.game_id),
        report_title=link("web.report", kind="title", id=page.game_id, next=here),
    )
