// tests/support/similar_class.py's heavy bot translated into JavaScript (a planted translated copy).
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
function worth(action) {
  if (action.type !== "play") return -1;
  let total = 0;
  for (const c of action.cards || []) {
    if (!c.includes(":")) total += 50;
    else { const rank = c.split(":")[1]; total += /^\d+$/.test(rank) ? parseInt(rank, 10) : 20; }
  }
  return total;
}
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") console.log(JSON.stringify({ type: "ready", name: "heavy-js" }));
  else if (msg.type === "turn") {
    let best = msg.legal[0];
    for (const a of msg.legal) if (worth(a) > worth(best)) best = a;
    console.log(JSON.stringify(best));
  } else if (msg.type === "quit") process.exit(0);
});
