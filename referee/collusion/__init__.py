"""``lastcard collusion``: which bot gains when which other bot sits at its table (Mazrooei et al., AAAI 2013)."""
