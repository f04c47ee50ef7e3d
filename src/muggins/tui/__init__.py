"""The terminal game: a table drawn with rich, a prompt line for moves, bots in the other seats."""
