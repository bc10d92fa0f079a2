"""A stored game brought back: as text, re-asked of a bot (``replay --ask``), played on from a turn, checked
against today's engine, and what each seat was sent."""
