"""Files a person hands in (arena and ladder files, position suites, parameter files, rosters, record files), read
once through one guarded reader, and their mistakes located by key path and line."""
