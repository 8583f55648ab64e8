"""Games as the service reads them: players, seating (who acts as which colour), games,
states (a per-worker cache, snapshots), views and history. Every change to a game goes
through `pbem.play`, the floor above."""
