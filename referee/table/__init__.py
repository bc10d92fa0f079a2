"""One game between seats: the referee's per-move loop (``table``), the fault policy, a person in a seat.
Compiled with mypyc."""
