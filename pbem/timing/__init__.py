"""When decisions are due: a game's timing policy, one deadline row per pending decision
(written in the transaction of the change that made it pending), and players' absences,
which push those deadlines. No clock of its own: every function takes or reads
`pbem.clock.now`."""
