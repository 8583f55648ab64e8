"""The scheduler: the sweep (reminders, timeouts, bots, idle games) and the process that
runs it and the mail sender's passes. The deadlines it acts on are `pbem.timing`'s."""
