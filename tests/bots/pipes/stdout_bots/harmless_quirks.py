"""Harmless: Windows line ends (CRLF), trailing spaces and the answer's keys in another order."""
import json
import sys

from loop import run


def quirky(obj):
    reordered = dict(reversed(list(obj.items())))
    sys.stdout.buffer.write(json.dumps(reordered).encode() + b"   \r\n")
    sys.stdout.flush()


run(ready=quirky, answer=quirky)
