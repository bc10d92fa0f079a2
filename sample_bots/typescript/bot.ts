// bot.ts - a Last Card starter bot in TypeScript for Node.js, no npm packages (JSON is built in).
//
// Build: tsc --strict --skipLibCheck --target es2020 --outDir build bot.ts      Run: node build/bot.js
// Check: lastcard check "node build/bot.js"
//
// The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
//   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
// exits on quit or at the end of input, and treats every other message as information.

// Node's own names, declared here so that tsc needs no @types/node package.
declare const require: (name: string) => any;
declare const process: any;
const readline = require("readline");

/** One legal answer: written back unchanged, it is a correct answer. */
interface Answer {
  type: "play" | "draw" | "pass" | "colour";
  id: number;
  cards?: string[];
  colour?: string | null;
  call?: boolean;
}

/** The fields of a turn (protocol/PROTOCOL.md, "turn"); the others are there too. */
interface Turn {
  type: "turn";
  id: number;
  hand: string[];
  top: string;
  colour: string | null;
  hands: number[];
  legal: Answer[];
}

/** The strategy: your code goes here. Return one element of turn.legal. Plays come first in the
 * list, draw or pass last, so the first element plays whenever a card can be played. */
function choose(turn: Turn): Answer {
  return turn.legal[0];
}

// process.stdout.write to a pipe is synchronous on Linux: each line leaves at once.
function send(message: object): void {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line: string) => { // a line of any length
  const msg = JSON.parse(line);
  switch (msg.type) {
    case "hello": send({ type: "ready", name: "typescript-kit" }); break;
    case "turn": send(choose(msg as Turn)); break;
    case "error": console.error(`typescript-kit: the referee reports a fault: ${msg.message}`); break; // stderr
    case "quit": process.exit(0);
    default: break; // start, event, round_end, game_end: information, never answered
  }
});
input.on("close", () => process.exit(0)); // end of input: the referee has gone
