"""Paths as a handout shows them: report.html, ``bots/NAME.md`` and a student's page go to people who do not have
the teacher's machine, so they name no path of it.

A file of the results folder is named relative to it (``logs/ada.build.log``), and the commands they print
run in it (``lastcard replay . g000012``); a bot's folder is named by the bot (``ada/bot.py`` for the
traceback of a file in ada's folder, or in the copy its build ran in); any other absolute path is shortened
to its last part (``/usr/bin/python3`` is ``python3``).
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Iterable, Mapping

#: An absolute path of two parts or more, not inside a word or a URL (``http://a/b`` keeps its slashes).
_ABSOLUTE = re.compile(r"(?<![\w.:/~-])(/(?:[^\s/'\"`()<>,;:|]+/)+)([^\s/'\"`()<>,;:|]*)")

#: How the results folder is named in a command a handout prints: it runs there.
HERE = "."


def in_folder(path: str, out_dir: str) -> str:
    """``path`` relative to the results folder ``out_dir`` when it is inside it; else its last part."""
    full, root = os.path.abspath(path), os.path.abspath(out_dir)
    if full == root:
        return HERE
    if full.startswith(root.rstrip(os.sep) + os.sep):
        return os.path.relpath(full, root)
    return os.path.basename(full.rstrip(os.sep)) or full


class Handout:
    """Rewrites what a handout quotes (a command, a build log, a bot's stderr) so that it names no path of this
    machine: the folders it knows by the names given (a bot's folders by the bot's name, the results folder by
    ``.``), every other absolute path by its last part."""

    def __init__(self, out_dir: str, folders: Mapping[str, str] | None = None) -> None:
        named = {os.path.abspath(out_dir): HERE}
        for folder, name in (folders or {}).items():
            if folder and os.path.isabs(folder) and folder.rstrip(os.sep):
                named.setdefault(os.path.normpath(folder), name)
        # The longest first: a bot's folder inside the results folder is named as the bot's.
        self._folders = sorted(named.items(), key=lambda item: -len(item[0]))

    @classmethod
    def of_bots(cls, out_dir: str, bots: Iterable[tuple[str, Iterable[str | None]]]) -> Handout:
        """For the bots ``(name, its folders)``: each folder named by the bot."""
        return cls(out_dir, {folder: name for name, folders in bots for folder in folders if folder})

    def text(self, text: str) -> str:
        """``text`` with every folder it knows named as given, and any other absolute path by its last part."""
        for folder, name in self._folders:
            if folder in text:
                text = re.sub(re.escape(folder) + r"(?=$|[/\s'\"`():,;|])", name.replace("\\", "\\\\"), text)
        return _ABSOLUTE.sub(lambda m: m.group(2) or os.path.basename(m.group(1).rstrip("/")), text)

    def command(self, command: str, cwd: str | None = None) -> str:
        """A bot's command as a handout shows it: paths in its own folder (``cwd``) relative to it, programs by
        their name (``/usr/bin/python3 bot.py`` is ``python3 bot.py``)."""
        try:
            words = shlex.split(command)
        except ValueError:
            return self.text(command)
        shown = []
        for word in words:
            if cwd and os.path.isabs(word) and os.path.abspath(word).startswith(os.path.abspath(cwd) + os.sep):
                shown.append("./" + os.path.relpath(word, cwd))
            elif os.path.isabs(word):
                shown.append(os.path.basename(word.rstrip("/")) or word)
            else:
                shown.append(self.text(word))
        return shlex.join(shown)
