"""The Debian and Ubuntu packages that bring the programs bots and builds need: a bot left out for a missing one
names the line that installs it. Plain data, imported at start-up (the languages table's reader imports YAML)."""

from __future__ import annotations

#: The Debian and Ubuntu package of each program the languages table, the sample arena and the kits require (their
#: READMEs and .ci/run install the same), so a bot left out for one names the line that brings it.
DEBIAN_PACKAGES = {
    "cc": "gcc", "gcc": "gcc", "c++": "g++", "g++": "g++", "make": "make", "javac": "default-jdk-headless",
    "java": "default-jre-headless", "node": "nodejs", "tsc": "node-typescript", "ruby": "ruby", "php": "php-cli",
    "lua": "lua5.4", "perl": "perl", "bash": "bash", "jq": "jq", "rustc": "rustc", "go": "golang-go",
    "fpc": "fp-compiler", "gfortran": "gfortran", "gnatmake": "gnat", "ocamlopt": "ocaml-nox", "sbcl": "sbcl",
    "erlc": "erlang-base", "erl": "erlang-base", "elixir": "elixir", "Rscript": "r-base-core", "raco": "racket",
    "racket": "racket", "mcs": "mono-mcs", "mono": "mono-runtime", "python3": "python3",
}


def install_hint(programs: list[str]) -> str:
    """`` (on Debian or Ubuntu: sudo apt-get install PACKAGES)`` for the programs known here, or ``""``."""
    packages = list(dict.fromkeys(DEBIAN_PACKAGES[p] for p in programs if p in DEBIAN_PACKAGES))
    return f" (on Debian or Ubuntu: sudo apt-get install {' '.join(packages)})" if packages else ""
