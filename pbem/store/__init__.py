"""Storage: the tables (`models`), the Core statements of the move path and the pages
(`queries`), run on the driver's cursor as `prepared` statements, and the connection a page
reads with (`reads`)."""
