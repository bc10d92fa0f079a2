"""The one standings model: tallies and rows, ratings (Plackett-Luce), placements, and their rendering on
every surface."""
