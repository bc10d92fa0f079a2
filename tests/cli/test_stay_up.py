"""A page that stays up after its run closes on a Ctrl-C the kernel hands to any thread of the process.

A process-directed signal goes to any thread that does not block it: the page's server thread, say. Python runs
the handler in the main thread, at its next instruction; the wait used to be ``signal.pause()``, which only a
signal to the main thread itself ends, so the page stayed up (a CI run waited 120 s). Here a helper thread takes
the Ctrl-C: the wait must end within its wake-up time. A guard sends a second one to the main thread, so a
failure fails rather than hangs.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Callable

import pytest

from referee.cli import live_option, play_browser


class _State:
    def stay(self) -> None:
        pass


def _ctrl_c_to_a_helper_thread(wait: Callable[[], None]) -> float:
    main = threading.get_ident()
    done = threading.Event()

    def helper() -> None:
        time.sleep(0.3)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # this thread takes it, not the main one

    def guard() -> None:
        if not done.wait(10):
            signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=helper, daemon=True).start()
    threading.Thread(target=guard, daemon=True).start()
    t0 = time.monotonic()
    try:
        wait()
    finally:
        done.set()
    return time.monotonic() - t0


@pytest.mark.skipif(signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
                    reason="needs Python's own Ctrl-C handler in this process")
@pytest.mark.parametrize("wait", [lambda: live_option._stay_up(_State(), "http://127.0.0.1:1/"),  # type: ignore[arg-type]
                                  lambda: play_browser._stay_up("http://127.0.0.1:1/")],
                         ids=["live page", "play --browser"])
def test_a_ctrl_c_taken_by_another_thread_closes_the_page(wait: Callable[[], None]) -> None:
    assert _ctrl_c_to_a_helper_thread(wait) < 0.3 + 5 * live_option.WAKE_S + 2
