"""Bot processes: launching, limits, the protocol conversation and faults."""
