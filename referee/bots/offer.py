"""Why this machine gives bots less than the ``full`` level, in words, and the one command that would raise it.

The sandbox (``sandbox.machine``) probes what works; this module names what it found missing for the person
running the contest, per platform (docs/security.md has a row for each): a remedy is a command line to paste,
where ``{command}`` stands for the command being run (``systemd-run --user --scope -p Delegate=yes {command}``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass

#: Ubuntu 23.10 and later: AppArmor lets only profiled programs create user namespaces (bubblewrap has none).
APPARMOR_USERNS = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
#: Debian's switch for unprivileged user namespaces (on by default since Debian 11).
DEBIAN_USERNS = "/proc/sys/kernel/unprivileged_userns_clone"
MAX_USERNS = "/proc/sys/user/max_user_namespaces"


@dataclass(frozen=True)
class Shortfall:
    """One thing missing: what it is and costs (``problem``), and the command that would fix it (``""``: none)."""

    problem: str
    remedy: str = ""


def _read(path: str) -> str | None:
    try:
        with open(path) as fh:
            return fh.read().strip()
    except OSError:
        return None


def no_bwrap() -> Shortfall:
    """bubblewrap is not installed (or, on macOS, does not exist)."""
    if sys.platform == "darwin":
        return Shortfall("macOS has no bubblewrap, no namespaces and no cgroups: bots run without walls; "
                         "for walls, run the contest in a Linux virtual machine (docs/security.md, macOS)")
    return Shortfall("bubblewrap (bwrap) is not installed: apt-get install bubblewrap",
                     "sudo apt-get install bubblewrap")


def bwrap_fails(said: str) -> Shortfall:
    """bubblewrap is installed but cannot make its namespaces; ``said`` is its own message."""
    if _read(APPARMOR_USERNS) == "1":
        return Shortfall(f"bubblewrap cannot create namespaces here ({said}): AppArmor restricts unprivileged "
                         "user namespaces (Ubuntu 23.10 and later); allow them for bwrap with an AppArmor "
                         "profile (docs/security.md, Ubuntu 24.04) or for all programs with the sysctl",
                         "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0")
    if _read(DEBIAN_USERNS) == "0":
        return Shortfall(f"bubblewrap cannot create namespaces here ({said}): unprivileged user namespaces are "
                         "switched off", "sudo sysctl -w kernel.unprivileged_userns_clone=1")
    if _read(MAX_USERNS) == "0":
        return Shortfall(f"bubblewrap cannot create namespaces here ({said}): user.max_user_namespaces is 0",
                         "sudo sysctl -w user.max_user_namespaces=15000")
    return Shortfall(f"bubblewrap cannot create namespaces here ({said}): enable unprivileged user namespaces "
                     "(sysctl kernel.unprivileged_userns_clone=1) or run as root", "sudo {command}")


def systemd() -> bool:
    """Whether systemd runs this machine and ``systemd-run`` is there (it can make a scope with delegation)."""
    return os.path.isdir("/run/systemd/system") and shutil.which("systemd-run") is not None


def systemd_user_manager() -> bool:
    """Whether this user's systemd instance answers (a login session on a systemd machine starts it; ``su`` does
    not), so ``systemd-run --user`` can make a scope."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    return systemd() and bool(runtime) and os.path.exists(os.path.join(runtime, "systemd", "private"))


def no_cgroups(root: bool, unified: bool) -> Shortfall:
    """No control group this process may write (``unified``: the machine runs cgroup v2 alone).

    Under systemd with cgroup v2 (Debian 12, Ubuntu 24.04) a login session's group is systemd's, root's included:
    a scope started with ``Delegate=yes`` is one the referee may arrange (``cgroups.claim``). Without systemd (a
    container, a VM like this project's CI machine, cgroup v1), root makes groups under its own.
    """
    problem = ("no writable cgroups: memory, process and CPU limits fall back to rlimits "
               "(the process limit only holds for a non-root user)")
    if unified and systemd():
        if root:
            return Shortfall(problem + "; systemd can delegate a cgroup",
                             "systemd-run --scope -p Delegate=yes {command}")
        if systemd_user_manager():
            return Shortfall(problem + "; systemd can delegate a cgroup to this user",
                             "systemd-run --user --scope -p Delegate=yes {command}")
        return Shortfall(problem + "; systemd delegates a cgroup to a user from a login session (ssh or a desktop, "
                         "not su), as systemd-run --user --scope -p Delegate=yes {command}",
                         "sudo systemd-run --scope -p Delegate=yes {command}")
    if root:
        return Shortfall(problem)  # a container that gave root no cgroup: nothing here can raise it
    return Shortfall(problem + "; as root, the referee makes cgroups itself and runs each bot as nobody",
                     "sudo {command}")


def fill(remedy: str, argv: list[str]) -> str:
    """``remedy`` with ``{command}`` replaced by the command line being run (``lastcard ...`` if it is not known)."""
    command = shlex.join(argv) if argv and os.path.basename(argv[0]) == "lastcard" else "lastcard ..."
    return remedy.replace("{command}", command)
