"""Storage: the tables (`models`, each named once in `tables` for the Core statements
written on them), the Core statements of the move path and the pages (`queries`), run on
the driver's cursor as `prepared` statements, and the connection a page reads with
(`reads`)."""
