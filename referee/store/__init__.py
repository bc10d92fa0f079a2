"""A results folder and what is in it: game lines, result records, the record file, the run's store, reading a
stored game back."""
