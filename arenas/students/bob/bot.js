// Bob's bot: always the last legal move (a draw when there is one, so it is weak on purpose).
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") console.log(JSON.stringify({ type: "ready", name: "bob" }));
  else if (msg.type === "turn") console.log(JSON.stringify(msg.legal[msg.legal.length - 1]));
  else if (msg.type === "quit") process.exit(0);
});
