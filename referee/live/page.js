// The live page: draws the state the server sends. Every text the run (or a bot) wrote goes in with
// textContent or as an attribute value set by the DOM, never as HTML.
"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var last = null;
  window.lcDelays = [];  // seconds from a change on the server to its drawing here (for the measurements)

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function duration(s) {
    if (s === null || s === undefined) return "?";
    s = Math.round(s);
    if (s < 60) return s + " s";
    var m = Math.floor(s / 60), r = s % 60;
    if (m < 60) return m + ":" + (r < 10 ? "0" : "") + r;
    var h = Math.floor(m / 60); m = m % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }

  function banner(st) {
    var b = $("banner");
    var words = {starting: "starting…", running: "running", finished: "the run has finished: final standings",
                 interrupted: "interrupted (Ctrl-C): standings so far", stopped: "stopped early"};
    b.textContent = (words[st.phase] || st.phase) + (st.message ? " — " + st.message : "") +
      (st.staying ? " — this page stays up, with the final standings and the replays, until Ctrl-C in the " +
       "terminal that runs it" : "");
    b.className = "banner " + st.phase;
    var r = $("resume");
    r.hidden = !st.resume;
    r.textContent = st.resume ? "resume with: " + st.resume : "";
    $("now-link").hidden = !st.following;
  }

  function progress(st) {
    var p = st.progress;
    $("bar-fill").style.width = (p.total ? Math.min(100, 100 * p.done / p.total) : 0) + "%";
    var parts = [p.total ? p.done + " / " + p.total + " games" :
      p.done + " games" + (st.kind === "compare" ? " (no cap: the test decides when to stop)" : "")];
    if (p.rate !== null) parts.push(p.rate.toFixed(1) + " games/s");
    if (st.phase === "running") parts.push("ETA " + duration(p.eta_s));
    parts.push("elapsed " + duration(p.elapsed_s));
    $("progress-text").textContent = parts.join("  ·  ");
  }

  function standings(st) {
    var s = st.standings, head = $("standings-head"), body = $("standings-body"), legend = $("legend");
    clear(head); clear(body); clear(legend);
    $("standings-note").textContent = s ? "after " + st.standings_games + " games" +
      (st.phase === "finished" ? " (final)" : "") : "";
    if (!s) { $("rule").textContent = "No standings yet: they appear as the first games end."; return; }
    $("rule").textContent = s.rule ? "Order: " + s.rule + "." : "";
    s.columns.forEach(function (c) { head.appendChild(el("th", c.header, c.left ? "txt" : "num")); });
    s.rows.forEach(function (r) {
      var tr = el("tr"); tr.setAttribute("data-bot", r.bot);
      r.cells.forEach(function (cell, i) {
        var c = s.columns[i];
        tr.appendChild(el("td", cell, c.header === "bot" ? "bot" : (c.left ? "txt" : "num")));
      });
      body.appendChild(tr);
    });
    s.left_out.forEach(function (x) {
      var tr = el("tr", null, "left-out"); tr.setAttribute("data-bot", x.bot);
      tr.appendChild(el("td", "-", "num")); tr.appendChild(el("td", x.bot, "bot"));
      var td = el("td", "left out: " + x.reason, "txt"); td.colSpan = Math.max(1, s.columns.length - 2);
      tr.appendChild(td); body.appendChild(tr);
    });
    s.notes.forEach(function (n) { legend.appendChild(el("li", n)); });
    var lo = $("left-out-list"); clear(lo);
    $("left-out").hidden = !s.left_out.length;
    s.left_out.forEach(function (x) {
      var li = el("li"); li.appendChild(el("b", x.bot)); li.appendChild(document.createTextNode(": " + x.reason));
      lo.appendChild(li);
    });
  }

  function gameLink(st, id) {
    if (!st.replay) return el("span", id);
    var a = el("a", id); a.href = "/report.html#game=" + encodeURIComponent(id) + "&turn=0"; a.target = "_blank";
    a.rel = "noopener"; a.className = "open-game";
    return a;
  }

  function games(st) {
    var body = $("games-body"); clear(body);
    $("games-note").textContent = st.replay ? "A game id opens it in the report's replay viewer." :
      "This run keeps no games file (no --out): no replays.";
    st.games.forEach(function (g) {
      var tr = el("tr"); var td = el("td"); td.appendChild(gameLink(st, g.game)); tr.appendChild(td);
      tr.appendChild(el("td", g.stage ? g.stage + (g.round ? " r" + g.round : "") : ""));
      var order = g.seating.map(function (n, i) { return [g.placements[i], n]; })
        .sort(function (a, b) { return a[0] - b[0]; });
      tr.appendChild(el("td", order.map(function (p) { return p[0] + ". " + p[1]; }).join("   ")));
      tr.appendChild(el("td", g.faults ? String(g.faults) : "", "num"));
      body.appendChild(tr);
    });
  }

  function faults(st) {
    var list = $("faults-list"); clear(list);
    $("fault-count").textContent = st.fault_count ? st.fault_count + " so far" + (st.fault_count > st.faults.length ?
      " (the latest " + st.faults.length + " below)" : "") : "none so far";
    st.faults.forEach(function (f) {
      var li = el("li"); li.appendChild(gameLink(st, f.game)); li.appendChild(document.createTextNode(" "));
      li.appendChild(el("b", f.bot)); li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", f.kind, "kind")); li.appendChild(document.createTextNode(": " + f.message));
      list.appendChild(li);
    });
  }

  function bracket(st) {
    var box = $("bracket-rounds"); clear(box);
    $("bracket").hidden = !st.rounds.length;
    st.rounds.forEach(function (r) {
      var col = el("div", null, "round"); col.appendChild(el("h3", r.stage + ": " + r.label));
      r.tables.forEach(function (t, i) {
        var box2 = el("div", null, "ktable");
        box2.appendChild(el("div", "table " + (i + 1) + ": " + t.played + " of " + t.planned + " games", "note"));
        t.players.forEach(function (n) {
          var avg = t.avg_place[n];
          var through = r.advanced && r.advanced.indexOf(n) >= 0;
          box2.appendChild(el("div", n + (avg !== undefined ? "  (avg place " + avg.toFixed(2) + ")" : "") +
            (through ? "  → through" : ""), through ? "through" : ""));
        });
        col.appendChild(box2);
      });
      box.appendChild(col);
    });
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function sprt(st) {
    var c = st.comparison;
    $("sprt").hidden = !c;
    if (!c) return;
    $("sprt-lines").textContent = c.lines.join("\n");
    var box = $("sprt-chart"); clear(box);
    if (c.upper === null) return;
    var W = 640, H = 220, P = 36, R = 72, tr = c.trace, n = Math.max(tr.length, 1);
    var lo = Math.min.apply(null, [c.lower].concat(tr)) * 1.1, hi = Math.max.apply(null, [c.upper].concat(tr)) * 1.1;
    function x(i) { return P + (W - P - R) * i / n; }
    function y(v) { return H - P + (v - lo) / (hi - lo) * (2 * P - H); }
    var s = svg("svg", {"class": "llr-trace", viewBox: "0 0 " + W + " " + H, width: W, height: H});
    [[c.upper, "#2a7d2a", "H1 " + c.upper.toFixed(2)], [c.lower, "#b03030", "H0 " + c.lower.toFixed(2)],
     [0, "#999", "0"]].forEach(function (b) {
      s.appendChild(svg("line", {x1: x(0), x2: x(n), y1: y(b[0]), y2: y(b[0]), stroke: b[1], "stroke-dasharray": "6 4"}));
      s.appendChild(svg("text", {x: x(n) + 4, y: y(b[0]) + 4, "font-size": 11, fill: b[1]}, b[2]));
    });
    var step = Math.max(1, Math.ceil(tr.length / 1000)), pts = [x(0) + "," + y(0)];
    for (var i = 0; i < tr.length; i += step) pts.push(x(i + 1) + "," + y(tr[i]));
    if (tr.length) pts.push(x(tr.length) + "," + y(tr[tr.length - 1]));
    s.appendChild(svg("polyline", {fill: "none", stroke: "#2456a6", "stroke-width": 1.5, points: pts.join(" ")}));
    s.appendChild(svg("text", {x: x(0), y: H - 8, "font-size": 11}, "pair 0"));
    s.appendChild(svg("text", {x: x(n) - 40, y: H - 8, "font-size": 11}, "pair " + tr.length));
    box.appendChild(s);
  }

  function draw(st) {
    if (last && st.version < last.version) return;
    if (!last || st.version > last.version) window.lcDelays.push(Date.now() / 1000 - st.changed_at);
    var before = last;
    last = st;
    window.lcLast = st;
    // Redraw only what changed (a projector may be this machine: its CPU is the games').
    function changed(key) { return !before || JSON.stringify(before[key]) !== JSON.stringify(st[key]); }
    document.title = st.title + " — lastcard live";
    $("title").textContent = st.title;
    banner(st); progress(st); games(st);
    if (changed("comparison")) sprt(st);
    if (changed("standings") || changed("standings_games") || changed("phase")) standings(st);
    if (changed("rounds")) bracket(st);
    if (changed("faults") || changed("fault_count")) faults(st);
    if (changed("notes")) $("notes-text").textContent = st.notes.join("\n");
    document.body.setAttribute("data-version", String(st.version));
    document.body.setAttribute("data-phase", st.phase);
  }

  function lost() {
    var b = $("banner");
    if (last && (last.phase === "finished" || last.phase === "interrupted" || last.phase === "stopped")) {
      b.textContent = "the run has ended and its process has exited: this page keeps the last state it received";
    } else {
      b.textContent = "lost contact with the run (it may have ended); retrying…";
    }
    b.className = "banner lost";
  }

  function poll() {
    var req = new XMLHttpRequest();
    req.open("GET", "/state.json");
    req.onload = function () { if (req.status === 200) draw(JSON.parse(req.responseText)); };
    req.onerror = lost;
    req.send();
  }

  if (window.EventSource) {
    var source = new EventSource("/events");
    source.onmessage = function (e) { draw(JSON.parse(e.data)); };
    source.onerror = function () {
      if (last && (last.phase === "finished" || last.phase === "interrupted" || last.phase === "stopped")) {
        source.close();
      }
      lost();
    };
  } else {
    poll(); setInterval(poll, 2000);
  }
})();
