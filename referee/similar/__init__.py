"""``lastcard similar``: bots compared by what they do (the same decision points asked of each), not by their text."""
