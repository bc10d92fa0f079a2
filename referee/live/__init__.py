"""The live page of a running arena, ladder, compare or match (``--live [HOST:]PORT``): a snapshot the run
updates as games end, a small read-only HTTP server that renders it on request, and the page itself."""
