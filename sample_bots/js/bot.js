#!/usr/bin/env node
// A medium-strength Last Card bot for Node.js (v20, no npm packages).
//
// It speaks the JSON-lines protocol of protocol/PROTOCOL.md on stdin/stdout:
//   hello -> answer "ready" once
//   turn  -> answer with one element of `legal`, written back unchanged
//   quit  -> exit at once (so does end of input)
//   start / event / round_end / game_end / error -> information, never answered
//
// Strategy: play rather than draw; prefer plays without a wild; among those,
// shed the most cards; when a colour is named, name the one we hold most of;
// in arcade take the variant carrying "call": true. Ties go to the earliest
// element of `legal`, so the bot is deterministic.
//
// Run:  node sample_bots/js/bot.js
// Only protocol lines may go to stdout: debug with console.error (stderr).
"use strict";

const readline = require("readline");

// Write one JSON object as one line. (Writes to a pipe are synchronous on
// Linux; on quit we still wait for anything buffered before exiting.)
function send(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function exitNow() {
  if (process.stdout.writableLength === 0) process.exit(0);
  process.stdout.once("drain", () => process.exit(0));
}

const isWild = (card) => !card.includes(":"); // "wild", "wild4"
const colourOf = (card) => (isWild(card) ? null : card.split(":")[0]);

// How many cards of `colour` are in `hand`, not counting `played`.
function held(hand, colour, played = []) {
  let count = 0;
  const skip = [...played];
  for (const card of hand) {
    const i = skip.indexOf(card);
    if (i >= 0) { skip.splice(i, 1); continue; } // this copy is being played
    if (colourOf(card) === colour) count++;
  }
  return count;
}

// Higher is better. Draw / pass score 0 so any play beats them.
function score(answer, hand) {
  switch (answer.type) {
    case "colour": // naming the colour of an opening Wild
      return held(hand, answer.colour);
    case "play": {
      const cards = answer.cards || [];
      if (cards.length === hand.length) return 1e6; // going out
      let s = 1000;
      if (cards.some(isWild)) s -= 500; // keep wilds for when nothing else plays
      s += 50 * cards.length; // most cards first
      if (answer.colour) s += held(hand, answer.colour, cards); // best colour
      if (answer.call) s += 1; // arcade: never forget the last-card call
      return s;
    }
    default: // draw, pass
      return 0;
  }
}

function choose(turn) {
  const hand = turn.hand || [];
  let best = turn.legal[0];
  let bestScore = -Infinity;
  for (const answer of turn.legal) {
    const s = score(answer, hand);
    if (s > bestScore) { best = answer; bestScore = s; } // ties: first wins
  }
  return best;
}

let you = 0; // our seat (from hello, then from each start); kept for students

const rl = readline.createInterface({ input: process.stdin, terminal: false });

rl.on("line", (raw) => {
  const line = raw.trim(); // also drops a trailing "\r"
  if (!line) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    console.error("ignoring a line that is not JSON:", line.slice(0, 80));
    return;
  }
  if (!msg || typeof msg !== "object") return;
  switch (msg.type) {
    case "hello":
      if (Number.isInteger(msg.seat)) you = msg.seat;
      send({ type: "ready", name: "js-sample", author: "lastcard", version: "1" });
      break;
    case "start":
      if (Number.isInteger(msg.you)) you = msg.you;
      break;
    case "turn":
      if (!Array.isArray(msg.legal) || msg.legal.length === 0) {
        console.error(`turn ${msg.id} came with no legal answers`);
        break;
      }
      send(choose(msg));
      break;
    case "quit":
      rl.close();
      exitNow();
      break;
    default: // event, round_end, game_end, error: never answered
      break;
  }
});

rl.on("close", exitNow); // end of input: exit 0
