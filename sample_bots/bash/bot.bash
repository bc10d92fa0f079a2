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

# The strategy: your code goes here, in jq. It gets the turn and returns one element of .legal.
# Plays come first in the list, draw or pass last, so the first element plays whenever a card can
# be played. .hand, .top, .colour, .hands and the rest are described in protocol/PROTOCOL.md,
# "turn". For example, the first play without a wild, else the first element:
#   def choose: ([.legal[] | select(.type == "play" and all(.cards[]; startswith("wild") | not))] + .legal)[0];
CHOOSE='def choose: .legal[0];'

# One jq, started once, reads every message and writes one line "TYPE<tab>TEXT": a turn's answer,
# an error's message, nothing for the rest (starting a jq per message would cost 20 ms each).
exec 3< <(jq --unbuffered -r "$CHOOSE"'
  .type + "\t" + (if .type == "turn" then choose | tojson elif .type == "error" then (.message | gsub("[\t\n]"; " ")) else "" end)')
jq_pid=$!

while IFS=$'\t' read -r -u 3 type text; do
  case "$type" in
    quit) break ;;
    hello) echo '{"type":"ready","name":"bash-kit"}' ;;
    turn) echo "$text" ;;
    error) echo "bash-kit: the referee reports a fault: $text" >&2 ;;
    *) ;; # start, event, round_end, game_end: information, never answered
  esac
done
kill "$jq_pid" 2>/dev/null # on quit jq is still reading: stop it too
