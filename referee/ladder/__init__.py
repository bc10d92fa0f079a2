"""The ladder: a SQLite file that keeps every game, plays only the games new or changed submissions need, and
chooses the next tables where the order is least certain (``lastcard ladder``)."""
