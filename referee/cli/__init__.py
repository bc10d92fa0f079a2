"""The ``lastcard`` command line: one click module per command."""
