"""Grades for a gradebook: the ``grading:`` rule of an arena or ladder file and grades.csv made from a run."""
