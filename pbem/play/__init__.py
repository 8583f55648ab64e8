"""Every change to a game, written with the mail and deadlines it causes, in one transaction:
moves (`submit`, the one play function every door goes through), a game's lifecycle
(`lifecycle`), import (`transfer`) and a key sent by mail (`accounts`).

Above `notify` and `timing`, whose rows it writes; below the doors (`api`, `web`, `mailin`,
`schedule`), which call it.
"""

from pbem.play.batch import HUMAN_SOURCES, AlsoWrite, Outcome, Plan, submit

__all__ = ["HUMAN_SOURCES", "AlsoWrite", "Outcome", "Plan", "submit"]
