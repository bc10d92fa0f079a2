"""A running bot's pipes: the process and its pipes (``transport``), reading and judging its lines (``lines``),
the conversation with it (``client``). Compiled with mypyc."""
