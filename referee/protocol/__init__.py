"""The line protocol as the referee speaks it (protocol/PROTOCOL.md): the wire codec, the messages, what each
seat is told (``Relay``), the JSON Schemas, and the faults a bot can commit. Compiled with mypyc."""
