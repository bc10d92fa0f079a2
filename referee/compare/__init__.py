"""``lastcard compare``'s parts that play nothing: the sequential test, its display, and twin-game planning."""
