"""Playing a run's games on a Dask cluster: the executor on the referee's side, the plugin on each worker, and the
``executor:`` options (needs the ``distributed`` extra; docs/distributed.md)."""
