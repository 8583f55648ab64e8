"""Games as the service knows them: players, seating, states, views, and the one play
function (`play.submit`) that every door into a game goes through."""
