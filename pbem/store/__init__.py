"""Storage: the tables (`models`) and the Core statements of the move path (`queries`)."""
