"""A class with a planted colluding pair, for the collusion tests and bench/collusion_bench.py.

``pal_a`` and ``pal_b`` (``collusion_bots/pal.py``): each spares the other the cards that hurt the seat after it
(Draw Two, Wild Draw Four, Skip) when it reads the friend's name in ``start.seats``, and throws them at everyone
else. Honest: ``aggro`` (the same program with no friend: the same style, so a look-alike of the pair), ``heavy``
and ``hoarder`` (tests/support/similar_class.py's small bots of their own); the built-in ``medium`` and ``hard``
fill the tables. The names are shown (``seat_names: shown``): hidden, the friends could not find each other.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from tests.support.similar_class import HEAVY, HOARDER, SAMPLES

PAL = Path(__file__).resolve().parent / "collusion_bots" / "pal.py"


def make_class(folder: Path, *, pal: bool = True) -> dict[str, str]:
    """The bots' folders under ``folder``; their names and commands (``pal``: with the colluding pair)."""
    commands = {}
    for name, text in (("heavy", HEAVY), ("hoarder", HOARDER)):
        (folder / name).mkdir(parents=True)
        (folder / name / "bot.py").write_text(text)
        shutil.copy(SAMPLES / "python" / "botkit.py", folder / name / "botkit.py")
        commands[name] = f"{sys.executable} {folder / name / 'bot.py'}"
    commands["aggro"] = f"{sys.executable} {PAL}"
    if pal:
        commands["pal_a"] = f"{sys.executable} {PAL} pal_b"
        commands["pal_b"] = f"{sys.executable} {PAL} pal_a"
    else:  # the same programs, honest: each friend of a name nobody has
        commands["aggro2"] = f"{sys.executable} {PAL} nobody"
    return commands


def arena_yaml(folder: Path, commands: dict[str, str], *, seed: int = 3, games: int = 24, extra: str = "") -> Path:
    """The class's arena file: a sampled league of 4-seat family tables, one round a game, names shown."""
    bots = "\n".join(f"  - {{name: {name}, command: '{cmd}'}}" for name, cmd in commands.items())
    path = folder / "class.yaml"
    path.write_text(f"name: class\nseed: {seed}\nruleset: family\noptions: {{target: round}}\nseats: 4\n"
                    f"seat_names: shown\nbootstrap: 0\nformat: sampled\ngames: {games}\n{extra}"
                    f"bots:\n{bots}\n  - builtin:medium\n  - builtin:hard\n")
    return path
