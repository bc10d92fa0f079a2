"""Mistake: asks for a protocol version the referee does not speak."""
from common import run

run(ready={"type": "ready", "name": "broken", "protocol": 2})
