// The now-playing view: asks the server for the game being played (/now.json) and hands it to the report's
// viewer (window.lastcard.follow) a turn at a time, so that a room can follow it; once it has ended and its
// end has been shown for a moment, the game being played then. Text only: names come in as text.
"use strict";
(function () {
  var STEP_MS = 500, POLL_MS = 500, PAUSE_MS = 4000;
  var latest = null;    // the server's last answer
  var shown = null;     // {game, turn, steps, over, endedAt}
  var asking = false;

  function status(text) { document.getElementById("now-status").textContent = text; }

  function poll() {
    if (asking) return;
    asking = true;
    var req = new XMLHttpRequest();
    req.open("GET", "/now.json");
    req.onload = function () {
      asking = false;
      if (req.status === 200) latest = JSON.parse(req.responseText);
    };
    req.onerror = function () { asking = false; status("lost contact with the run (it may have ended)"); };
    req.send();
  }

  // The game as a row of the report's games list (report.js reads it), its seats named by DATA.bots.
  function row(g, steps) {
    return [g.game, g.ruleset, g.ruleset, g.seed, g.seating.map(function (_, i) { return i; }), g.placements, 0,
            steps - 1, [], "", null, null];
  }

  function tick() {
    var now = latest && latest.now;
    if (!now || !latest.tape) {
      if (!shown) status(now ? "game " + now.game + " is about to start (waiting for a table)…" :
                         "waiting for a game to start…");
      return;
    }
    var moveOn = !shown || (shown.game !== now.game && shown.over && shown.turn >= shown.steps - 1 &&
                            Date.now() - shown.endedAt > PAUSE_MS);
    if (shown && shown.game !== now.game && !moveOn) {  // finish showing the game on screen first
      step(null);
      return;
    }
    var steps = latest.tape.split("\n").length;
    if (moveOn) {
      shown = {game: now.game, turn: 0, steps: steps, over: now.over, endedAt: 0, names: now.seating};
      window.lastcard.follow(row(now, steps), now.seating, latest.tape, 0);
    } else {
      shown.steps = steps;
      shown.over = now.over;
      step(now);
    }
    describe();
  }

  // One turn further (the latest game data when it is the one shown).
  function step(now) {
    var turn = Math.min(shown.turn + 1, shown.steps - 1);
    if (now) window.lastcard.follow(row(now, shown.steps), now.seating, latest.tape, turn);
    else if (turn !== shown.turn) window.lastcard.show(turn);
    shown.turn = turn;
    if (shown.over && turn >= shown.steps - 1 && !shown.endedAt) shown.endedAt = Date.now();
    describe();
  }

  function describe() {
    var text = "game " + shown.game + " · turn " + shown.turn + " of " + (shown.steps - 1) +
      (shown.over ? "" : " so far");
    if (shown.over && shown.turn >= shown.steps - 1) text += " · the game is over; the next game follows";
    else if (!shown.over && shown.turn >= shown.steps - 1) text += " · being played now";
    status(text);
    document.body.setAttribute("data-now", shown.game + " " + shown.turn);
  }

  poll();
  setInterval(poll, POLL_MS);
  setInterval(tick, STEP_MS);
})();
