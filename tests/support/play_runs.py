"""``lastcard play --browser`` in a child process, its page's address, and a whole game played on the page by
clicks or by keys (Selenium), as a person would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.live_runs import until


def start_play(*args: str, cwd: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start ``lastcard play --browser --pace 0 ARGS...``; the process and the page's address (read from stdout)."""
    command = [sys.executable, "-m", "referee.cli.entry", "play", "--browser", "--pace", "0", *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"})
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("play in your browser: "):
            return proc, line.split()[4]
    proc.wait()
    raise AssertionError(f"no address printed (exit status {proc.returncode}):\n{''.join(seen)}")


def stop(proc: subprocess.Popen[str], timeout: float = 60) -> tuple[int, str]:
    """Ctrl-C (the page stays up until then); the exit status and what the command printed from there on."""
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=timeout)
    return proc.returncode, out


@dataclass
class Moves:
    """What the person did: turns played, Wild colours named, last-card calls made and declined, cards clicked."""

    turns: int = 0
    colours: int = 0
    calls: int = 0
    declined: int = 0
    cards: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


def state(browser: Any) -> dict[str, Any]:
    value: dict[str, Any] = browser.execute_script("return window.lastcardPlay.state() || {version: -1}")
    return value


def _next(browser: Any, after: int) -> dict[str, Any] | None:
    """A state newer than ``after`` that asks the person for a move, or says the game is over (or left)."""
    now = state(browser)
    if now.get("version", -1) <= after:
        return None
    if now.get("phase") in ("over", "left") or (now.get("phase") == "your_turn" and now.get("question")):
        return now
    return None


def _pick(options: list[dict[str, Any]], keys: bool) -> int:
    """A Wild first (its colour is then named), else a play that needs the call, else the first move listed."""
    reach = len(options) if not keys else min(9, len(options))
    for wanted in ("colours", "call"):
        found = next((i for i in range(reach) if options[i][wanted]), None)
        if found is not None:
            return found
    return 0


def play_out(browser: Any, *, keys: bool = False, decline: int = 0,
             limit_s: float = 300) -> tuple[Moves, dict[str, Any]]:
    """Play the person's every turn on the open page until the game is over; what was done, and the last state.

    By clicks: the move's button, or (every other turn, when the move is one card alone) that card of the hand; the
    colour's button; "Last card!". By keys: the move's number (``d`` for a draw), the colour's first letter, ``l``
    for the call. The first ``decline`` calls are declined (``n``, or the button).
    """
    from selenium.webdriver.common.action_chains import ActionChains

    moves = Moves()
    version = -1

    def press(key: str) -> None:
        ActionChains(browser).send_keys(key).perform()

    while True:
        seen = version
        now = until(lambda seen=seen: _next(browser, seen), "the person's turn or the game's end", limit_s=limit_s)
        if now["phase"] != "your_turn":
            return moves, now
        version = now["version"]
        options = now["question"]["options"]
        index = _pick(options, keys)
        option = options[index]
        moves.kinds[option["kind"]] = moves.kinds.get(option["kind"], 0) + 1
        if keys:
            press("d" if option["kind"] == "draw" else str(index + 1))
        elif moves.turns % 2 and option["kind"] == "play" and len(option["cards"]) == 1:
            browser.find_element("css selector", f"#hand button.playable[data-code='{option['cards'][0]}']").click()
            moves.cards += 1
        else:
            browser.find_element("css selector", f"#moves button[data-index='{index}']").click()
        if option["colours"]:
            until(lambda: browser.find_element("id", "colour-choice").is_displayed(), "the colour chooser")
            colour = option["colours"][moves.colours % len(option["colours"])]
            if keys:
                press(colour[0])
            else:
                browser.find_element("css selector", f"#colour-buttons button[data-colour='{colour}']").click()
            moves.colours += 1
        if option["call"]:
            until(lambda: browser.find_element("id", "call-choice").is_displayed(), "the last-card question")
            call = moves.declined >= decline
            if keys:
                press("l" if call else "n")
            else:
                browser.find_element("id", "call-yes" if call else "call-no").click()
            moves.calls += call
            moves.declined += not call
        moves.turns += 1
