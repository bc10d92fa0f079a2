"""``lastcard tune``: SPSA over a bot's numbers, measured on twin games (params, spsa, run, outputs)."""
