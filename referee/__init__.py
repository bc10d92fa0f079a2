"""lastcard: a referee and bot arena for Last Card."""

from __future__ import annotations

import os

__version__ = "0.1.0"
PROTOCOL_VERSIONS = (1,)


def compiled() -> bool:
    """Whether the engine and the built-in players run compiled (the mypyc build, setup.py), not from ``.py``."""
    from referee.engine import game

    return not (game.__file__ or "").endswith(".py")


def build() -> str:
    """The build in use, in words: ``compiled with mypyc`` or ``pure Python``."""
    return "compiled with mypyc" if compiled() else "pure Python"


def _stale_compiled() -> str | None:
    """Why the modules compiled in place in this tree must not run, or None (a pure tree, or up to date).

    Python loads a ``.so`` before the ``.py`` beside it, so an edit after ``LASTCARD_COMPILE=1 pip install -e .``
    would silently not run. setup.py records each source's hash in ``_engine_sources.txt`` beside the compiled
    modules. An installed wheel is not checked (its sources are not edited in place).
    """
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.basename(os.path.dirname(here)) in ("site-packages", "dist-packages"):
        return None
    if not any(name.startswith("_engine__mypyc") for name in os.listdir(here)):
        return None  # the pure tree
    root = os.path.dirname(here)
    try:
        with open(os.path.join(here, "_engine_sources.txt")) as record:
            built = [line.split(maxsplit=1) for line in record.read().splitlines() if line.strip()]
    except OSError:
        return "referee/ holds compiled modules without referee/_engine_sources.txt, the record of their sources"
    import hashlib

    stale = []
    for digest, path in built:
        try:
            with open(os.path.join(root, path), "rb") as source:
                same = hashlib.sha256(source.read()).hexdigest() == digest
        except OSError:
            same = False
        if not same:
            stale.append(path)
    if stale:
        return (f"{', '.join(stale)} changed after it was compiled in place, "
                "and Python would run the old compiled module")
    return None


if _why := _stale_compiled():
    raise ImportError(
        f"lastcard: {_why}: rebuild (LASTCARD_COMPILE=1 pip install -e .) or go back to pure Python "
        f"(find {os.path.dirname(os.path.abspath(__file__))} -name '*.so' -delete)")
