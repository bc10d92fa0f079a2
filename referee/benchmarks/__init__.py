"""Grading against benchmarks: each student's sequential tests against house bots, on twin games (docs/grading.md)."""
