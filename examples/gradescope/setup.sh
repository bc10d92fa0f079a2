#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (docs/grading.md).
# The autograder zip holds: setup.sh, run_autograder, graded.yaml (the teacher's arena file: bands, test,
# budget, suites) and lastcard's wheel (pip wheel /path/to/lastcard -w .), all at the zip's top level.
set -euo pipefail
SOURCE="${AUTOGRADER:-/autograder}/source"
apt-get update
# Python for lastcard; bubblewrap for the bots' walls; add the languages your class writes in
# (nodejs, default-jdk-headless, gcc...), as `lastcard validate` lists them.
apt-get install -y --no-install-recommends python3 python3-venv bubblewrap gcc
python3 -m venv /opt/lastcard
/opt/lastcard/bin/pip install "$SOURCE"/lastcard-*.whl
/opt/lastcard/bin/lastcard --version
