"""The game itself, with no I/O: cards, actions, the one ``Ruleset``, the engine's state and events, how a game
ended, the compact notation that replays it, and how it all reads to people. Compiled with mypyc."""
