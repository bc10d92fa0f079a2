"""Mistake: a UTF-8 byte order mark before the first line (what .NET and some Windows tools write by default)."""
import sys

from loop import line, run


def with_bom(obj):
    sys.stdout.buffer.write(b"\xef\xbb\xbf")
    sys.stdout.flush()
    line(obj)


run(ready=with_bom)
