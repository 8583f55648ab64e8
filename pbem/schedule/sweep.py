"""The scheduler's sweep (`pbem.play.sweeping`): what is due now, acted on, each in a unit
of work of its own."""

from __future__ import annotations

from pbem.play.sweeping import sweep

__all__ = ["sweep"]
