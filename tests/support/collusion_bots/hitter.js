// An honest bot of the colluders' style, written apart (JavaScript): the cards that hurt first, else the most cards.
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
const HURT = (c) => c === "wild4" || c.endsWith(":draw2") || c.endsWith(":skip");
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") console.log(JSON.stringify({ type: "ready", name: "hitter" }));
  else if (msg.type === "turn") {
    const plays = msg.legal.filter((a) => a.type === "play");
    const hurting = plays.filter((a) => a.cards.some(HURT));
    const pool = hurting.length ? hurting : plays;
    if (!pool.length) { console.log(JSON.stringify(msg.legal.find((a) => a.type !== "play") || msg.legal[0])); return; }
    pool.sort((a, b) => b.cards.length - a.cards.length);
    console.log(JSON.stringify(pool[0]));
  } else if (msg.type === "quit") process.exit(0);
});
