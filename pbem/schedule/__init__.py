"""Deadlines: the timing policy, deadline rows, the sweep that reminds and acts for late
seats, and the scheduler process that runs it."""
