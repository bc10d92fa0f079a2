"""Files a person hands in (arena files, manifests, position suites, parameter files, rosters, record files, a
ladder's database), read once through one guarded reader: each kind's size cap (``kinds``), UTF-8 checked
(``files``), YAML with bounded nesting and aliases and each key's line (``reader``), JSON lines plain or gzip with
bounded values, nesting and inflation (``jsonlines``, ``gzipped``), CSV (``csvfile``), a SQLite path (``database``);
every refusal an ``InputFileError`` naming the file, the problem and the fix (``problems``)."""
