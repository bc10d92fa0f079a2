#!/usr/bin/env bash
# bot.bash - a Last Card starter bot in Bash, with jq (the usual JSON reader of the shell).
#
# Run: bash bot.bash      Check: lastcard check "bash bot.bash"
#
# The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
#   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
# exits on quit or at the end of input, and treats every other message as information.
# echo writes straight to the pipe (bash does not buffer it), so every line is flushed.
set -u

# The strategy: your code goes here. It gets the turn on stdin and prints one element of .legal,
# on one line (jq -c). Plays come first in the list, draw or pass last, so the first element plays
# whenever a card can be played. .hand, .top, .colour, .hands and the rest are described in
# protocol/PROTOCOL.md, "turn"; e.g. the first play without a wild:
#   jq -c '[.legal[] | select(.type == "play" and (.cards | all(startswith("wild") | not)))] + .legal | .[0]'
choose() {
  jq -c '.legal[0]'
}

while IFS= read -r line || [ -n "$line" ]; do # a line of any length
  type=$(jq -r '.type' <<<"$line")
  case "$type" in
    quit) break ;;
    hello) echo '{"type":"ready","name":"bash-kit"}' ;;
    turn) choose <<<"$line" ;;
    error) echo "bash-kit: the referee reports a fault: $(jq -r '.message' <<<"$line")" >&2 ;;
    *) ;; # start, event, round_end, game_end: information, never answered
  esac
done
