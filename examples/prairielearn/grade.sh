#!/usr/bin/env bash
# PrairieLearn's external grader runs this as the question's entrypoint (docs/grading.md): the student's files
# are in /grade/student, this folder (serverFilesCourse/lastcard/) in /grade/serverFilesCourse/lastcard, and
# /grade/results/results.json is what PrairieLearn reads back. GRADE and LASTCARD may point elsewhere to try it.
set -uo pipefail
GRADE="${GRADE:-/grade}"
LASTCARD="${LASTCARD:-lastcard}"
mkdir -p "$GRADE/results"
rm -f "$GRADE/results/results.json"
"$LASTCARD" grade "$GRADE/student" --arena "$GRADE/serverFilesCourse/lastcard/graded.yaml" --format prairielearn \
    --output "$GRADE/results/results.json" --quiet
status=$?
if [ ! -s "$GRADE/results/results.json" ]; then
    printf '{"gradable": false, "format_errors": ["the grader could not run (lastcard exit status %s)"]}\n' "$status" \
        > "$GRADE/results/results.json"
fi
exit 0
