"""Playing games as jobs: a job, the local executor and its workers, the run loop every command shares, bots
started side by side."""
