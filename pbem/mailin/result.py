"""What the door did with a mail (`Result`), and where it ends a mail's transaction: the
mail's record committed, or the same message found handled already (`duplicate`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.mailin.reading import Inbound
from pbem.play.inbound import commit_or_duplicate, earlier

#: sysexits.h: the address names no one here, so the MTA bounces the mail.
EX_NOUSER = 67


@dataclass
class Result:
    """What the door did with a mail."""

    # played, answered, refused, help, ignored, duplicate, no_seat, quarantined (kept aside:
    # no reader can read it)
    outcome: str
    reason: str = ""
    game_id: int | None = None
    colour: str | None = None
    seq: int | None = None
    answered: bool = False
    played: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """For `pbem mail receive`: 0 when handled, EX_NOUSER to have the MTA bounce it."""
        return EX_NOUSER if self.outcome == "no_seat" else 0


def duplicate(inbound: Inbound) -> Result:
    if earlier(inbound.message_id) == "quarantined":
        # Sent again: refused again (SMTP's 5xx), still kept aside.
        return Result("quarantined", f"{inbound.message_id} was kept aside already")
    return Result("duplicate", f"{inbound.message_id} was handled already")


def committed(inbound: Inbound, result: Result) -> Result:
    """The door's edge: commit the mail's record (and whatever was done with it), and say
    `result`; or, the same message delivered twice at once, that the other delivery
    handled it."""
    return result if commit_or_duplicate() else duplicate(inbound)
