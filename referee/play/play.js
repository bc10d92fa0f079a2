// The table's page: shows what the person's seat sees (from /state.json, held by the server until it changes) and
// sends the move they choose among those the referee listed (POST /move, by its number). No rules here: the page
// never decides what is legal. Every name and sentence is drawn with textContent, never as HTML.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const RANK_NAMES = {skip: 'Skip', reverse: 'Reverse', draw2: '+2', wild: 'Wild', wild4: 'Wild +4'};
  const SYMBOLS = {skip: '⊘', reverse: '⇄', draw2: '+2', wild: 'W', wild4: '+4'};
  let state = null;     // the server's last state
  let version = -1;
  let chosen = null;    // {option, colour}: a move being completed (its colour, its call)
  let sent = false;     // a move is on its way: no second one for the same turn
  let logSeen = 0;      // the log's length at the person's last move: newer lines are marked

  // ------------------------------------------------------------------ cards
  function colourOf(code) { return code.startsWith('wild') ? null : code.split(':')[0]; }
  function rankOf(code) { return colourOf(code) ? code.split(':')[1] : code; }

  function cardText(code) {
    const colour = colourOf(code);
    const rank = rankOf(code);
    const faces = state.faces;
    return colour ? faces.marks[colour] + ' ' + colour + ' ' + (RANK_NAMES[rank] || rank)
      : faces.wild + ' ' + RANK_NAMES[rank];
  }

  function cardEl(code, tag) {
    const el = document.createElement(tag || 'span');
    const colour = colourOf(code);
    const rank = rankOf(code);
    el.className = 'card' + (colour ? '' : ' wild');
    el.dataset.code = code;
    if (colour) el.style.background = state.faces.colours[colour];
    el.title = cardText(code);
    el.setAttribute('aria-label', cardText(code));
    const r = document.createElement('b');
    r.textContent = SYMBOLS[rank] || rank;
    const m = document.createElement('i');
    m.textContent = colour ? state.faces.marks[colour] : state.faces.wild;
    el.append(r, m);
    return el;
  }

  function colourText(colour) { return colour ? state.faces.marks[colour] + ' ' + colour : 'none yet'; }

  // ------------------------------------------------------------------ drawing the state
  function draw() {
    document.body.dataset.phase = state.phase;
    document.body.dataset.turn = String(state.turn === undefined ? '' : state.turn);
    document.title = (state.phase === 'your_turn' ? '▶ your turn · ' : '') + 'lastcard: ' + (state.title || 'play');
    $('title').textContent = 'Last Card · ' + (state.title || '');
    $('goal').textContent = state.goal || '';
    $('status').textContent = statusText();
    if (state.seats) drawTable();
    drawHand();
    drawMoves();
    drawLog();
    drawEnd();
  }

  function statusText() {
    const phase = state.phase;
    if (phase === 'left') return 'You left the game; the bots were stopped. Nothing was stored.';
    if (phase === 'over') return 'The game is over and stored: replay it below.';
    if (phase === 'ended') return 'The game is over; storing it…';
    if (phase === 'your_turn') return sent ? 'Your move is on its way…' : 'Your turn: choose a move.';
    if (!state.seats) return 'The game is starting…';
    const seat = state.seats[state.to_act];
    return seat ? 'Waiting for ' + seat.name + ' (seat ' + seat.seat + ')…' : 'Waiting…';
  }

  function drawTable() {
    const list = $('seats');
    list.replaceChildren();
    for (const seat of state.seats) {
      const li = document.createElement('li');
      li.dataset.seat = String(seat.seat);
      if (seat.seat === state.to_act) li.classList.add('to-act');
      if (seat.seat === state.you) li.classList.add('you');
      const name = document.createElement('div');
      name.className = 'name';
      name.textContent = seat.name;
      if (seat.seat === state.you) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = 'your seat';
        name.append(tag);
      }
      const meta = document.createElement('div');
      meta.className = 'meta';
      meta.textContent = 'seat ' + seat.seat + ' · ' + seat.cards + ' card' + (seat.cards === 1 ? '' : 's') +
        (state.ruleset !== 'arcade' ? ' · ' + seat.score + ' points' : '');
      li.append(name, meta);
      if (seat.cards === 1) {
        const last = document.createElement('div');
        last.className = 'last';
        last.textContent = 'last card!';
        li.append(last);
      }
      const backs = document.createElement('div');
      for (let i = 0; i < Math.min(seat.cards, 20); i++) {
        const b = document.createElement('span');
        b.className = 'card back';
        backs.append(b);
      }
      li.append(backs);
      list.append(li);
    }
    $('top').replaceChildren(cardEl(state.top));
    $('colour').textContent = colourText(state.colour);
    $('draw-pile').textContent = String(state.draw_pile);
    $('direction').textContent = state.direction === 1 ? '↻ seat numbers up' : '↺ seat numbers down';
    $('pending-box').hidden = !state.pending;
    $('pending').textContent = state.pending ? '+' + state.pending : '';
  }

  // The options (by number) a card of the hand plays alone: clicking the card chooses it.
  function singlePlays(code) {
    const q = myQuestion();
    if (!q) return [];
    const out = [];
    q.options.forEach((o, i) => { if (o.kind === 'play' && o.cards.length === 1 && o.cards[0] === code) out.push(i); });
    return out;
  }

  function drawHand() {
    const hand = $('hand');
    hand.replaceChildren();
    const cards = state.hand || [];
    $('hand-count').textContent = cards.length ? '(' + cards.length + ' card' + (cards.length === 1 ? '' : 's') + ')' : '';
    const q = myQuestion();
    for (const code of cards) {
      const el = cardEl(code, 'button');
      el.type = 'button';
      const plays = singlePlays(code);
      if (plays.length) {
        el.classList.add('playable');
        el.addEventListener('click', () => choose(plays[0]));
      } else {
        el.disabled = true;
        if (q) el.classList.add('dim');
      }
      hand.append(el);
    }
    $('reason').hidden = !(q && state.reason);
    $('reason').textContent = q && state.reason ? state.reason : '';
  }

  function myQuestion() {
    return state.phase === 'your_turn' && state.question && !sent ? state.question : null;
  }

  function drawMoves() {
    const moves = $('moves');
    moves.replaceChildren();
    const q = myQuestion();
    if (!q) {
      chosen = null;
      $('colour-choice').hidden = true;
      $('call-choice').hidden = true;
      return;
    }
    q.options.forEach((option, i) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.dataset.index = String(i);
      button.dataset.kind = option.kind;
      if (i < 9) {
        const key = document.createElement('kbd');
        key.textContent = String(i + 1);
        button.append(key);
      }
      button.append(document.createTextNode(option.text));
      button.addEventListener('click', () => choose(i));
      moves.append(button);
    });
    if (chosen) showChoice();
  }

  function drawLog() {
    const list = $('log');
    const lines = state.log || [];
    list.replaceChildren();
    const from = Math.max(0, lines.length - 200);
    for (let i = from; i < lines.length; i++) {
      const li = document.createElement('li');
      li.value = i + 1;
      li.textContent = lines[i];
      if (i >= logSeen) li.className = 'new';
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  function drawEnd() {
    const over = state.over;
    $('end').hidden = !over;
    $('leave').hidden = state.phase === 'over' || state.phase === 'ended' || state.phase === 'left';
    if (!over) return;
    const places = $('places');
    places.replaceChildren();
    for (const p of over.places) {
      const li = document.createElement('li');
      li.textContent = 'place ' + p.place + ': ' + p.name + ' (seat ' + p.seat + ')' + (p.you ? ' — you' : '') +
        ' · ' + p.points + ' points left in hand';
      if (p.you) li.className = 'you';
      places.append(li);
    }
    $('end-why').textContent = 'How it ended: ' + over.reason + ', after ' + over.turns + ' turns.';
    const link = $('replay-link');
    link.hidden = !over.replay;
    if (over.replay) link.setAttribute('href', over.replay);
    $('saved').textContent = 'Stored in ' + over.folder + '\nIn a terminal: ' + over.command;
  }

  // ------------------------------------------------------------------ choosing a move
  function choose(index) {
    const q = myQuestion();
    if (!q || index < 0 || index >= q.options.length) return;
    chosen = {index, colour: null};
    step();
  }

  // The next thing the chosen move needs: its colour, then its call; then it is sent.
  function step() {
    const option = myQuestion() && myQuestion().options[chosen.index];
    if (!option) { chosen = null; return; }
    if (option.colours.length && chosen.colour === null) { showChoice(); return; }
    if (option.call && chosen.call === undefined) { showChoice(); return; }
    send(chosen.index, chosen.colour, chosen.call === undefined ? true : chosen.call);
  }

  function showChoice() {
    const option = myQuestion().options[chosen.index];
    const needColour = option.colours.length > 0 && chosen.colour === null;
    $('colour-choice').hidden = !needColour;
    $('call-choice').hidden = needColour || !option.call;
    if (needColour) {
      const box = $('colour-buttons');
      box.replaceChildren();
      option.colours.forEach((colour, i) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.colour = colour;
        button.style.background = state.faces.colours[colour];
        button.textContent = (i + 1) + ' ' + state.faces.marks[colour] + ' ' + colour;
        button.addEventListener('click', () => pickColour(colour));
        box.append(button);
      });
      box.firstChild.focus();
    } else if (option.call) {
      $('call-yes').focus();
    }
  }

  function pickColour(colour) {
    if (!chosen) return;
    chosen.colour = colour;
    $('colour-choice').hidden = true;
    step();
  }

  function pickCall(call) {
    if (!chosen) return;
    chosen.call = call;
    $('call-choice').hidden = true;
    step();
  }

  function back() {
    chosen = null;
    $('colour-choice').hidden = true;
    $('call-choice').hidden = true;
  }

  function send(index, colour, call) {
    const q = myQuestion();
    if (!q) return;
    sent = true;
    chosen = null;
    logSeen = (state.log || []).length;
    $('error').hidden = true;
    draw();
    post('/move', {turn: q.turn, choice: index, colour, call}, (status, reply) => {
      if (status === 200) return;  // the next state shows the move played
      sent = false;
      if (reply && reply.stale) { refresh(); return; }
      showError(reply && reply.error ? reply.error : 'the move was not taken (' + status + ')');
      draw();
    });
  }

  function showError(text) {
    $('error').textContent = text;
    $('error').hidden = false;
  }

  function post(path, body, done) {
    const req = new XMLHttpRequest();
    req.open('POST', path);
    req.setRequestHeader('Content-Type', 'application/json');
    req.setRequestHeader('X-Lastcard-Token', state.token);
    req.onload = () => {
      let reply = null;
      try { reply = JSON.parse(req.responseText); } catch (e) { reply = {error: req.responseText}; }
      done(req.status, reply);
    };
    req.onerror = () => done(0, {error: 'lost contact with the table (has lastcard play stopped?)'});
    req.send(JSON.stringify(body));
  }

  // ------------------------------------------------------------------ keys
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const q = myQuestion();
    if (!q) return;
    const key = ev.key.toLowerCase();
    if (chosen && !$('colour-choice').hidden) {
      const colours = q.options[chosen.index].colours;
      const byNumber = /^[1-9]$/.test(key) ? colours[Number(key) - 1] : undefined;
      const byLetter = colours.find((c) => c[0] === key);
      if (byNumber || byLetter) { ev.preventDefault(); pickColour(byNumber || byLetter); }
      else if (key === 'escape') back();
      return;
    }
    if (chosen && !$('call-choice').hidden) {
      if (key === 'l' || key === 'y') { ev.preventDefault(); pickCall(true); }
      else if (key === 'n') { ev.preventDefault(); pickCall(false); }
      else if (key === 'escape') back();
      return;
    }
    if (/^[1-9]$/.test(key) && Number(key) <= q.options.length) { ev.preventDefault(); choose(Number(key) - 1); }
    else if (key === 'd' || key === 'p') {
      const kind = key === 'd' ? 'draw' : 'pass';
      const at = q.options.findIndex((o) => o.kind === kind);
      if (at >= 0) { ev.preventDefault(); choose(at); }
    }
  });

  $('colour-back').addEventListener('click', back);
  $('call-yes').addEventListener('click', () => pickCall(true));
  $('call-no').addEventListener('click', () => pickCall(false));
  $('call-back').addEventListener('click', back);
  $('leave').addEventListener('click', () => {
    if (!state || !window.confirm('Leave the game? It stops, and nothing is stored.')) return;
    post('/leave', {}, () => {});
  });

  // ------------------------------------------------------------------ the state, as it changes
  function take(next) {
    if (next.version <= version) return;
    const newTurn = !state || next.question === null || !state.question || next.question.turn !== state.question.turn;
    if (newTurn) { sent = false; chosen = null; }
    state = next;
    version = next.version;
    draw();
  }

  function refresh() { version = -1; }

  function poll() {
    const req = new XMLHttpRequest();
    req.open('GET', '/state.json?since=' + version);
    req.onload = () => {
      if (req.status === 200) {
        take(JSON.parse(req.responseText));
        setTimeout(poll, 0);
      } else {
        setTimeout(poll, 1000);
      }
    };
    req.onerror = () => {
      if (state && state.phase !== 'over') {
        document.body.dataset.phase = 'lost';
        $('status').textContent = 'Lost contact with the table: lastcard play has stopped (its terminal says why).';
      }
      setTimeout(poll, 2000);
    };
    req.send();
  }

  // For tests and the curious: the state the page shows.
  window.lastcardPlay = {state: () => state, choose, pickColour, pickCall};
  poll();
}());
