// The report's games list and replay viewer. No rules here: a game's tape (see tape.py) says what
// happened, and the viewer only moves cards between hands and piles. Nothing is fetched from anywhere.
(function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('lc-data').textContent);
  const PAGE = 50;
  const COLOURS = {t: 'teal', c: 'coral', a: 'amber', v: 'violet', r: 'red', y: 'yellow', g: 'green', b: 'blue'};
  const RANKS = {s: 'skip', r: 'reverse', d: 'draw2'};
  const RANK_NAMES = {skip: 'Skip', reverse: 'Reverse', draw2: '+2', wild: 'Wild', wild4: 'Wild +4'};
  const REASONS = {t: 'on their turn', p: 'as a penalty', f: 'for the missed call'};
  const $ = (id) => document.getElementById(id);
  let tapes = null;  // split on first use: the text stays one string until a game is opened

  function tapeOf(index) {
    if (tapes === null) tapes = $('lc-tapes').textContent.split('#');
    return tapes[index];
  }

  // The bots' notes (stderr, log messages) by game: a line per game with any, 'INDEX<tab>JSON', the JSON
  // [notes, cuts, budget] (or 0: left out of the page). Each stays text until its game is opened.
  let notesAt = null;

  function notesText() {
    if (notesAt === null) {
      notesAt = new Map();
      addNotes($('lc-notes').textContent, 0);
    }
    return notesAt;
  }

  function addNotes(text, at) {
    for (const line of (text || '').split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) notesAt.set(at + Number(line.slice(0, tab)), line.slice(tab + 1));
    }
  }

  function notesOf(index) {
    const text = notesText().get(index);
    return text === undefined ? null : JSON.parse(text);
  }

  // ------------------------------------------------------------------ shards: the games past the page's sample
  // A long run's page carries its first games; the rest are scripts beside it (DATA.shards: src, games, first
  // and last id), added with <script src> when the reader pages past the games loaded or opens a game not
  // loaded yet (a file:// page may load a script next to it; Chromium refuses it a fetch). Paging loads them
  // in order; an address loads only the shard its game's id falls in (page.py writes the games in id order),
  // which waits at its place in DATA.games until paging reaches it.
  const SAMPLE = DATA.games.length;
  const OFFSETS = (() => {  // each shard's first place in DATA.games
    const first = [];
    let at = SAMPLE;
    for (const [, games] of DATA.shards) {
      first.push(at);
      at += games;
    }
    return first;
  })();
  const shards = {next: 0, have: [], pending: -1, waiting: []};

  function moreToLoad() { return shards.next < DATA.shards.length; }

  // The games the list shows: the sample and the shards loaded before the first one missing.
  function loaded() { return moreToLoad() ? OFFSETS[shards.next] : DATA.games.length; }

  // Loads shard ``k`` (by default the next in order), one at a time; ``then`` runs once it is in.
  function loadShard(then, k) {
    if (then) shards.waiting.push(then);
    if (shards.pending >= 0) return;  // the waiting run when the one on its way is in, and ask again
    const want = k === undefined ? shards.next : k;
    if (want >= DATA.shards.length || shards.have[want]) { runWaiting(); return; }
    shards.pending = want;
    const file = DATA.shards[want][0];  // a relative path: the folder beside the page, never the network
    const script = document.createElement('script');
    script.setAttribute('src', file);
    script.onerror = () => {
      shards.pending = -1;
      shards.waiting = [];
      note('The games in ' + file + ' could not be loaded: keep the folder beside the page.');
    };
    document.head.append(script);
  }

  function runWaiting() {
    const waiting = shards.waiting;
    shards.waiting = [];
    for (const then of waiting) then();
  }

  window.lastcardShard = function (rows, text, notes) {
    tapeOf(0);
    const k = shards.pending;
    const at = OFFSETS[k];
    const texts = text.split('#');
    rows.forEach((row, i) => { DATA.games[at + i] = row; tapes[at + i] = texts[i] || ''; });
    notesText();
    addNotes(notes, at);
    shards.have[k] = true;
    shards.pending = -1;
    const from = loaded();
    while (shards.have[shards.next]) shards.next += 1;
    if (loaded() > from) {
      keep(from);  // only the new rows: a jump across hundreds of shards must not filter every game at each
      drawList();
    }
    runWaiting();
  };

  // page.py's order of game ids (in_id_order): runs of digits compare as numbers, the rest as text.
  function idKey(id) {
    return String(id).split(/(\d+)/).map((part) => /^\d+$/.test(part) ? [0, part.replace(/^0+(?=\d)/, '')] : [1, part]);
  }

  function compareKeys(a, b) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const [kindA, textA] = a[i];
      const [kindB, textB] = b[i];
      if (kindA !== kindB) return kindA - kindB;
      if (kindA === 0 && textA.length !== textB.length) return textA.length - textB.length;
      if (textA !== textB) return textA < textB ? -1 : 1;
    }
    return a.length - b.length;
  }

  // Printable ASCII ids compare here as in Python; others may not, and are looked for shard by shard.
  const PLAIN = /^[\x20-\x7e]*$/;
  const ORDERED = DATA.shards.every((s) => PLAIN.test(String(s[2])) && PLAIN.test(String(s[3])));

  // The shard whose range of ids holds ``id``; -1 if none does (a game of the sample, or of no one);
  // undefined when the order cannot tell.
  function shardOf(id) {
    if (!DATA.shards.length) return -1;
    if (!ORDERED || !PLAIN.test(id)) return undefined;
    const key = idKey(id);
    let lo = 0;
    let hi = DATA.shards.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys(idKey(DATA.shards[mid][3]), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < DATA.shards.length && compareKeys(idKey(DATA.shards[lo][2]), key) <= 0 ? lo : -1;
  }

  function findLoaded(id, lo, hi) {
    for (let i = lo; i < hi; i++) {
      const row = DATA.games[i];
      if (row && row[0] === id) return i;
    }
    return -1;
  }

  // Where game ``id`` is: its index in DATA.games if loaded (else -1), and the shard to load for it (null:
  // none; the page has no such game). ``from``: the games before it were looked through already.
  function locate(id, from) {
    const k = shardOf(id);
    if (k === undefined) {
      const index = findLoaded(id, from || 0, DATA.games.length);
      return {index, load: index < 0 && moreToLoad() ? shards.next : null};
    }
    const index = k < 0 ? findLoaded(id, 0, SAMPLE) : findLoaded(id, OFFSETS[k], OFFSETS[k] + DATA.shards[k][1]);
    return {index, load: index < 0 && k >= 0 && !shards.have[k] ? k : null};
  }

  // ------------------------------------------------------------------ cards and actions
  function cardCode(token) {
    if (token === 'w') return 'wild';
    if (token === 'w4') return 'wild4';
    const colour = COLOURS[token[0]];
    const rank = token.slice(1);
    if (!colour || !rank) throw new Error('bad card code ' + JSON.stringify(token));
    return colour + ':' + (RANKS[rank] || rank);
  }

  function parseAction(token) {
    const standIn = token.endsWith('!');
    let text = standIn ? token.slice(0, -1) : token;
    if (text === 'd') return {kind: 'draw', standIn};
    if (text === 'p') return {kind: 'pass', standIn};
    if (text[0] === '@') return {kind: 'colour', colour: COLOURS[text[1]], standIn};
    const call = text.endsWith('+');
    if (call) text = text.slice(0, -1);
    let colour = null;
    const eq = text.indexOf('=');
    if (eq >= 0) { colour = COLOURS[text[eq + 1]]; text = text.slice(0, eq); }
    const parts = text.split('.');
    const last = parts[parts.length - 1];
    if (last[0] === 'w' && last !== 'w' && last !== 'w4') {
      colour = COLOURS[last[last.length - 1]];
      parts[parts.length - 1] = last.slice(0, -1);
    }
    return {kind: 'play', cards: parts.map(cardCode), colour, call, standIn};
  }

  function colourOf(code) { return code.startsWith('wild') ? null : code.split(':')[0]; }

  function cardEl(code, hidden) {
    const el = document.createElement('span');
    if (hidden) { el.className = 'card back'; el.textContent = '?'; return el; }
    const colour = colourOf(code);
    const rank = colour ? code.split(':')[1] : code;
    el.className = 'card' + (colour ? '' : ' wild');
    el.dataset.code = code;
    if (colour) el.style.background = DATA.colours[colour];
    const name = RANK_NAMES[rank] || rank;
    el.title = (colour ? colour + ' ' : '') + name;
    const r = document.createElement('b');
    r.textContent = {skip: '⊘', reverse: '⇄', draw2: '+2', wild: 'W', wild4: '+4'}[rank] || rank;
    const m = document.createElement('i');
    m.textContent = colour ? DATA.marks[colour] : DATA.wild;
    el.append(r, m);
    return el;
  }

  function cardText(code) {
    const colour = colourOf(code);
    if (!colour) return DATA.wild + ' ' + RANK_NAMES[code];
    const rank = code.split(':')[1];
    return DATA.marks[colour] + ' ' + colour + ' ' + (RANK_NAMES[rank] || rank);
  }

  function colourText(colour) { return colour ? DATA.marks[colour] + ' ' + colour : 'none'; }

  function actionText(a) {
    if (a.kind === 'play') {
      let text = 'plays ' + a.cards.map(cardText).join(', ');
      if (a.colour && a.cards[a.cards.length - 1].startsWith('wild')) text += ' → ' + colourText(a.colour);
      return text + (a.call ? ' and calls last card' : '');
    }
    if (a.kind === 'colour') return 'names the colour ' + colourText(a.colour);
    return a.kind === 'draw' ? 'draws' : 'passes';
  }

  // ------------------------------------------------------------------ a game's frames
  function nums(text) { return text === '' ? [] : text.split(':').map((v) => (v === '' ? null : Number(v))); }

  function parseEvent(ev) {
    const k = ev[0];
    const rest = ev.slice(1);
    switch (k) {
      case 'D': {
        const [head, ...hands] = rest.split('|');
        const [round, dealer, first, top, pile] = head.split(',');
        return {kind: 'deal', round: +round, dealer: +dealer, first: +first, top: cardCode(top), pile: +pile,
                hands: hands.map((h) => (h ? h.split('.').map(cardCode) : []))};
      }
      case 'W': return {kind: 'draw', seat: +rest[0], reason: rest[1],
                        cards: rest.length > 2 ? rest.slice(2).split('.').map(cardCode) : []};
      case 'S': return {kind: 'skip', seat: +rest};
      case 'R': return {kind: 'reverse', direction: rest === '+' ? 1 : -1};
      case 'Y': { const [seat, count, card, pending] = rest.split(',');
        return {kind: 'penalty', seat: +seat, count: +count, card: cardCode(card), pending: pending === '1'}; }
      case 'L': return {kind: 'call', seat: +rest};
      case 'F': return {kind: 'forfeit', seat: +rest};
      case 'A': return {kind: 'pass', seat: +rest[0], kept: rest[1] === '1'};
      case 'H': return {kind: 'reshuffle', count: +rest};
      case 'P': return {kind: 'pile', count: +rest};
      case 'B': return {kind: 'bury', card: cardCode(rest)};
      case 'E': { const [round, winner, reason, points, gained, scores] = rest.split(',');
        return {kind: 'round_end', round: +round, winner: winner === '' ? null : +winner, reason,
                points: nums(points), gained: nums(gained), scores: nums(scores)}; }
      case 'G': { const [reason, winner, places, scores] = rest.split(',');
        return {kind: 'game_end', reason, winner: winner === '' ? null : +winner, places: nums(places),
                scores: nums(scores)}; }
      default: throw new Error('unknown tape event ' + JSON.stringify(ev));
    }
  }

  function applyEvent(st, e) {
    switch (e.kind) {
      case 'deal':
        st.hands = e.hands.map((h) => h.slice()); st.top = e.top; st.colour = colourOf(e.top);
        st.direction = 1; st.pile = e.pile; st.pending = 0; st.round = e.round; break;
      case 'draw':
        st.hands[e.seat].push(...e.cards); st.pile -= e.cards.length;
        if (e.reason === 'p') st.pending = 0; break;
      case 'reverse': st.direction = e.direction; break;
      case 'penalty': st.pending = e.pending ? e.count : 0; break;
      case 'reshuffle': case 'pile': st.pile = e.count; break;
      case 'round_end': st.scores = e.scores; st.pending = 0; break;
      case 'game_end': st.scores = e.scores; break;
    }
  }

  function applyAction(st, seat, a) {
    if (a.kind === 'play') {
      const hand = st.hands[seat];
      for (const code of a.cards) {
        const at = hand.indexOf(code);
        if (at < 0) throw new Error('seat ' + seat + ' has no ' + code + ' to play');
        hand.splice(at, 1);
      }
      st.top = a.cards[a.cards.length - 1];
      st.colour = colourOf(st.top) || a.colour;
    } else if (a.kind === 'colour') {
      st.colour = a.colour;
    }
  }

  // Every frame of a game: the table before each action (and after the last), with the events that led there.
  function framesOf(index) {
    const row = DATA.games[index];
    const n = row[4].length;
    const st = {hands: Array.from({length: n}, () => []), top: null, colour: null, direction: 1, pile: 0,
                pending: 0, scores: new Array(n).fill(0), round: 0};
    const frames = [];
    const steps = tapeOf(index).split('\n');
    for (let turn = 0; turn < steps.length; turn++) {
      const [head, ...evs] = steps[turn].split('~');
      const events = evs.map(parseEvent);
      for (const e of events) applyEvent(st, e);
      const waiting = head[0] === '?';  // a game still being played: seat N is to act (the live page's view)
      const seat = head === '-' ? null : waiting ? +head.slice(1) : +head[0];
      const action = head === '-' || waiting ? null : parseAction(head.slice(1));
      const token = action ? head.slice(1).replace(/!$/, '') : null;  // the compact code replay --accept takes
      frames.push({turn, seat, action, token, waiting, events, hands: st.hands.map((h) => h.slice()), top: st.top,
                   colour: st.colour, direction: st.direction, pile: st.pile, pending: st.pending,
                   scores: st.scores.slice(), round: st.round});
      if (action) applyAction(st, seat, action);
    }
    return frames;
  }

  // ------------------------------------------------------------------ the games list
  const list = {page: 0, rows: DATA.games.map((_, i) => i)};

  function seatNames(row) { return row[4].map((b) => DATA.bots[b]); }

  // The stage (or round) of a game, and its ruleset where that is not the stage's name.
  function stageText(row) { return row[1] + (row[1] !== row[2] ? ' · ' + row[2] : ''); }

  // The stage filter's value: '' (every game), a stage's name, or 'stage|round'.
  function inStage(row, value) {
    if (!value) return true;
    const bar = value.lastIndexOf('|');
    if (bar < 0) return row[10] === value;
    return row[10] === value.slice(0, bar) && String(row[11]) === value.slice(bar + 1);
  }

  function fillStages() {
    if (!DATA.stages.length) return;
    const select = $('g-stage');
    for (const [name, count, rounds] of DATA.stages) {
      select.append(new Option(name + ' (' + count + ' games)', name));
      for (const [number, label, games] of rounds) {
        select.append(new Option('\u00a0\u00a0' + label + ' (' + games + ' games)', name + '|' + number));
      }
    }
    $('g-stage-box').hidden = false;
  }

  function filterGames() {
    refilter();
    list.page = 0;
    drawList();
  }

  // The rows the filters keep among the games loaded (the page stays where it is).
  function refilter() {
    list.rows = [];
    keep(0);
    drawList();
  }

  // Adds to the list the games loaded from ``from`` on that the filters keep.
  function keep(from) {
    const text = $('g-filter').value.trim().toLowerCase();
    const faultsOnly = $('g-faults').checked;
    const stage = $('g-stage').value;
    for (let i = from; i < loaded(); i++) {
      const row = DATA.games[i];
      if (faultsOnly && !row[6]) continue;
      if (!inStage(row, stage)) continue;
      if (text && !seatNames(row).some((n) => n.toLowerCase().includes(text))) continue;
      list.rows.push(i);
    }
  }

  function drawList() {
    const pages = Math.max(1, Math.ceil(list.rows.length / PAGE));
    list.page = Math.min(list.page, pages - 1);
    const body = $('g-rows');
    body.replaceChildren();
    for (const i of list.rows.slice(list.page * PAGE, (list.page + 1) * PAGE)) {
      const row = DATA.games[i];
      const tr = document.createElement('tr');
      tr.dataset.game = row[0];
      if (row[6]) tr.className = 'faulty';
      const seats = seatNames(row).map((n, s) => n + ' (' + (row[5] ? row[5][s] : '?') + ')').join(', ');
      for (const text of [row[0], stageText(row), seats, row[7], row[6] || '']) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      const td = document.createElement('td');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'replay';
      button.className = 'open';
      button.addEventListener('click', () => openGame(row[0], 0, 'push'));
      td.append(button);
      tr.append(td);
      body.append(tr);
    }
    $('g-page').textContent = 'page ' + (list.page + 1) + ' of ' + pages + ' (' + list.rows.length + ' games' +
      (moreToLoad() ? '; ' + loaded() + ' of ' + DATA.total + ' loaded, next loads more' : '') + ')';
    const none = DATA.games.length === 0;
    $('g-empty').hidden = !none;
    document.querySelector('table.games').hidden = none;
    document.querySelector('#games .filters').hidden = none;
    $('g-prev').disabled = list.page === 0;
    $('g-next').disabled = list.page >= pages - 1 && !moreToLoad();
  }

  // The next page; past the games loaded, the next shard first (more than one when the filters keep few).
  function nextPage() {
    if ((list.page + 1) * PAGE < list.rows.length || !moreToLoad()) {
      list.page += 1;
      drawList();
      return;
    }
    loadShard(() => nextPage());
  }

  // ------------------------------------------------------------------ the viewer
  const view = {index: -1, frames: [], turn: 0, seat: -1, notes: null, firstTurn: [], following: false};

  // ------------------------------------------------------------------ the address: #game=ID&turn=N[&seat=S]
  function hashFor(id, turn, seat) {
    return '#game=' + encodeURIComponent(id) + '&turn=' + turn + (seat >= 0 ? '&seat=' + seat : '');
  }

  // A short note for the reader: over the games list ('g-note') or over the replay ('v-note').
  function note(text, where) {
    for (const id of ['g-note', 'v-note']) {
      const el = $(id);
      el.textContent = id === (where || 'g-note') ? text : '';
      el.hidden = !el.textContent;
    }
  }

  // Opening a game is a new history entry (back returns to where the reader was); stepping through it only
  // rewrites the address, a moment after the last step (browsers throttle a flood of address changes).
  function setAddress(how) {
    if (view.following) return;  // the now-playing page: its game is not one of a report
    const hash = hashFor(DATA.games[view.index][0], view.turn, view.seat);
    if (location.hash === hash) return;
    if (how === 'push') history.pushState(null, '', hash);
    else history.replaceState(null, '', hash);
  }

  function closeViewer() {
    $('viewer').hidden = true;
    view.index = -1;
    view.frames = [];
  }

  function unplayable(index, why, how) {
    const row = DATA.games[index];
    $('viewer').hidden = false;
    $('v-title').textContent = row[0];
    $('v-meta').textContent = 'This game cannot be replayed here: ' + why + '.';
    for (const id of ['v-table', 'v-faults', 'v-events']) $(id).replaceChildren();
    $('v-action').textContent = '';
    $('v-news').hidden = true;
    document.querySelector('#viewer .controls').hidden = true;
    view.index = -1;
    view.frames = [];
    if (how === 'push' && location.hash !== hashFor(row[0], 0)) history.pushState(null, '', hashFor(row[0], 0));
  }

  // how: 'push' (a reader's click: a new history entry) or 'none' (the address already names it).
  // from: the games before it were looked through already (a shard at a time, not every game again).
  function openGame(gameId, turn, how, from) {
    const id = String(gameId);
    const {index, load} = locate(id, from);
    if (load !== null) {  // in a shard not loaded yet
      note('Loading the games ' + (load === shards.next ? 'up to ' : 'around ') + id + '…');
      const seen = loaded();
      loadShard(() => openGame(id, turn, how, seen), load);
      return false;
    }
    if (index < 0) return false;
    note('');
    return openAt(index, turn, how);
  }

  // Opens the game at ``index`` of DATA.games (its tape in hand) at ``turn``.
  function openAt(index, turn, how) {
    if (!tapeOf(index)) {
      unplayable(index, DATA.games[index][9] || (DATA.untaped && DATA.untaped + ' ' + DATA.games[index][0]) ||
        'it was stored without its actions', how);
      return false;
    }
    let frames;
    try {
      frames = framesOf(index);
    } catch (err) {  // a damaged tape costs its own game only
      unplayable(index, String(err.message || err), how);
      return false;
    }
    const row = DATA.games[index];
    view.index = index;
    view.frames = frames;
    view.seat = -1;
    view.notes = notesOf(index);
    firstTurns();
    document.querySelector('#viewer .controls').hidden = false;
    const names = seatNames(row);
    $('v-title').textContent = row[0];
    $('v-meta').textContent = stageText(row) + ' · seed ' + row[3] + ' · ' + names.map((n, s) => s + ' ' + n).join(', ') +
      ' · in a terminal, in the results folder: ' + DATA.replay + ' ' + row[0];
    const select = $('v-view');
    select.replaceChildren();
    const all = new Option('all-seeing: every hand', '-1');
    select.append(all, ...names.map((n, s) => new Option('seat ' + s + ' (' + n + '): what it saw', String(s))));
    select.value = '-1';
    lengthShown();
    const faults = $('v-faults');
    faults.replaceChildren();
    for (const [fturn, fseat, message] of row[8]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'fault-turn';
      b.dataset.turn = fturn;
      b.textContent = '⚠ turn ' + fturn + ', seat ' + fseat + ': ' + message;
      b.addEventListener('click', () => show(fturn));
      faults.append(b);
    }
    $('viewer').hidden = false;
    show(turn || 0, 'none');
    if (how === 'push') setAddress('push');
    if (!view.following) $('viewer').scrollIntoView();
    return true;
  }

  function firstTurns() {  // each seat's first turn: its notes from before its first request show there
    view.firstTurn = [];
    for (const f of view.frames) if (f.seat !== null && view.firstTurn[f.seat] === undefined) view.firstTurn[f.seat] = f.turn;
  }

  function lengthShown() {
    $('v-slider').max = String(view.frames.length - 1);
    $('v-turn').max = String(view.frames.length - 1);
    $('v-count').textContent = String(view.frames.length - 1);
  }

  // The live page's now-playing view: the game being played (its row, the names of its seats and its tape so
  // far) becomes the page's one game, shown at ``turn``; a later call with more of it keeps the seat's view.
  function follow(row, bots, text, turn) {
    tapeOf(0);
    notesText();
    view.following = true;
    const same = view.index === 0 && DATA.games[0] && DATA.games[0][0] === row[0];
    DATA.bots = bots;
    DATA.games[0] = row;
    tapes[0] = text;
    if (!same) return openAt(0, turn, 'none');
    try {
      view.frames = framesOf(0);
    } catch (err) {
      unplayable(0, String(err.message || err), 'none');
      return false;
    }
    firstTurns();
    lengthShown();
    show(turn, 'none');
    return true;
  }

  function faultAt(turn) {
    const row = DATA.games[view.index];
    return row[8].find((f) => f[0] === turn);
  }

  function show(turn, address) {
    if (view.index < 0) return;
    turn = Math.max(0, Math.min(view.frames.length - 1, Number(turn) || 0));
    view.turn = turn;
    clearTimeout(view.timer);
    if (address !== 'none') view.timer = setTimeout(() => { if (view.index >= 0) setAddress('replace'); }, 150);
    const f = view.frames[turn];
    const row = DATA.games[view.index];
    const names = seatNames(row);
    const me = view.seat;
    $('v-slider').value = String(turn);
    $('v-turn').value = String(turn);
    const table = $('v-table');
    table.replaceChildren();
    const pile = document.createElement('div');
    pile.className = 'pile';
    const top = document.createElement('span');
    top.append('top ', cardEl(f.top));
    top.id = 'v-top';
    const info = document.createElement('span');
    info.textContent = 'colour ' + colourText(f.colour) + ' · draw pile ' + f.pile + ' · ' +
      (f.direction === 1 ? 'clockwise' : 'anticlockwise') + ' · round ' + f.round +
      (f.pending ? ' · pending penalty ' + f.pending : '') + ' · scores ' + f.scores.join(' / ');
    pile.append(top, info);
    table.append(pile);
    f.hands.forEach((hand, s) => {
      const div = document.createElement('div');
      div.className = 'seat' + (s === f.seat ? ' to-act' : '');
      div.dataset.seat = s;
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = (s === f.seat ? '▶ ' : '') + 'seat ' + s + ' ' + names[s];
      const small = document.createElement('small');
      small.textContent = hand.length + ' card' + (hand.length === 1 ? '' : 's');
      who.append(small);
      const cards = document.createElement('span');
      cards.className = 'hand';
      const hidden = me >= 0 && s !== me;
      for (const code of hand) cards.append(cardEl(code, hidden));
      div.append(who, cards);
      table.append(div);
    });
    const act = $('v-action');
    const fault = faultAt(turn);
    if (f.action) {
      act.textContent = 'turn ' + turn + ': seat ' + f.seat + ' (' + names[f.seat] + ') ' + actionText(f.action) +
        (fault ? '  ⚠ FAULT: ' + fault[2] + ' (the referee played this for the bot)' :
          f.action.standIn ? ' (played for a forfeited seat)' : '');
    } else {
      act.textContent = f.waiting ? 'turn ' + turn + ': seat ' + f.seat + ' (' + names[f.seat] + ') is to play…' :
        'the game is over';
    }
    act.className = fault ? 'fault' : '';
    drawCommands(f, row);
    drawNotes(turn, names);
    const log = $('v-events');
    log.replaceChildren();
    for (const e of f.events) {
      const li = document.createElement('li');
      li.textContent = eventText(e, names, me);
      log.append(li);
    }
    $('v-news').hidden = f.events.length === 0;  // no heading over nothing
  }

  // The frame on screen in a terminal: the ``replay --ask`` command that puts a bot of today in the seat to act,
  // and the ``--save-position`` command that adds the position to a suite (the answer given rejected; a stand-in's
  // move was not the bot's, so the reader names what passes).
  function drawCommands(f, row) {
    const box = $('v-cmds');
    box.hidden = !f.action;
    if (!f.action) return;
    const here = DATA.replay + ' ' + row[0] + ' --seat ' + f.seat + ' --turn ' + f.turn;
    $('v-ask').textContent = here + ' --ask "YOUR BOT COMMAND"';
    $('v-save').textContent = here + ' --save-position positions.yaml ' +
      (f.action.standIn ? '--accept ACTION' : '--reject ' + f.token);
  }

  // The notes at ``turn`` (in a seat's view, only that seat's): each as text in its own block, never as markup.
  function notesAtTurn(turn) {
    const all = view.notes;
    if (!all) return {notes: [], cuts: []};
    const [notes, cuts] = all;
    const here = ([seat, at]) => (view.seat < 0 || seat === view.seat) &&
      (at === null ? view.firstTurn[seat] === turn : at === turn);
    return {notes: notes.filter(here), cuts: cuts.filter(here)};
  }

  function drawNotes(turn, names) {
    const list = $('v-notes-list');
    list.replaceChildren();
    const all = view.notes;
    const who = (s) => 'seat ' + s + ' (' + names[s] + ')';
    if (all === 0) {
      const p = document.createElement('p');
      p.textContent = "This game's notes (what its bots wrote on stderr and in log messages) are not in the page, " +
        'which carries a few megabytes of them; in a terminal, in the results folder: ' + DATA.replay + ' ' +
        DATA.games[view.index][0];
      list.append(p);
    }
    const {notes, cuts} = notesAtTurn(turn);
    for (const [seat, at, source, text] of notes) {
      const div = document.createElement('div');
      div.className = 'bot-note';
      div.dataset.seat = seat;
      const b = document.createElement('b');
      b.textContent = who(seat) + (source === 'l' ? ' log' : ' stderr') + (at === null ? ' (before its first turn)' : '');
      const pre = document.createElement('pre');
      pre.textContent = text;
      div.append(b, pre);
      list.append(div);
    }
    for (const [seat, , dropped] of cuts) {
      const div = document.createElement('div');
      div.className = 'bot-note cut';
      div.textContent = who(seat) + ': [lastcard: the notes reached their budget of ' + all[2].toLocaleString('en') +
        ' bytes for this game here; ' + dropped.toLocaleString('en') + ' more bytes of stderr and log were dropped]';
      list.append(div);
    }
    $('v-notes-head').textContent = view.seat >= 0 ? 'What seat ' + view.seat + ' (' + names[view.seat] +
      ') wrote at this turn' : 'What the bots wrote at this turn (stderr, log messages)';
    $('v-notes').hidden = list.childElementCount === 0;
    const any = Boolean(all);
    $('v-note-prev').hidden = $('v-note-next').hidden = !any;
  }

  // The nearest turn before (step -1) or after (+1) ``from`` with notes in the view; -1 if none.
  function noteTurn(from, step) {
    for (let t = from + step; t >= 0 && t < view.frames.length; t += step) {
      const {notes, cuts} = notesAtTurn(t);
      if (notes.length || cuts.length) return t;
    }
    return -1;
  }

  function toNote(step) {
    const t = noteTurn(view.turn, step);
    if (t >= 0) show(t);
  }

  function eventText(e, names, me) {
    const who = (s) => 'seat ' + s + ' (' + names[s] + ')';
    switch (e.kind) {
      case 'deal': return 'round ' + e.round + ': ' + who(e.dealer) + ' deals; the top card is ' + cardText(e.top) +
        '; ' + who(e.first) + ' plays first';
      case 'draw': {
        const seen = me < 0 || me === e.seat;
        return who(e.seat) + ' draws ' + e.cards.length + ' ' + REASONS[e.reason] +
          (seen && e.cards.length ? ': ' + e.cards.map(cardText).join(', ') : '');
      }
      case 'skip': return who(e.seat) + ' is skipped';
      case 'reverse': return 'play reverses: now ' + (e.direction === 1 ? 'clockwise' : 'anticlockwise');
      case 'penalty': return cardText(e.card) + ': ' + who(e.seat) +
        (e.pending ? ' faces a stacked penalty of ' + e.count : ' must draw ' + e.count);
      case 'call': return who(e.seat) + ' has one card left: last card!';
      case 'forfeit': return who(e.seat) + ' did not call last card and draws 1';
      case 'pass': return who(e.seat) + ' passes' + (e.kept ? ' and keeps the drawn card' : ': nothing to play or draw');
      case 'reshuffle': return 'the discard pile is shuffled into a new draw pile of ' + e.count;
      case 'pile': return 'the draw pile holds ' + e.count;
      case 'bury': return 'a turned-up ' + cardText(e.card) + ' is buried in the draw pile';
      case 'round_end': return 'round ' + e.round + ' ends (' + e.reason + '); winner ' +
        (e.winner === null ? 'nobody' : who(e.winner)) + '; points left ' + e.points.join(' / ') +
        '; scores ' + e.scores.join(' / ');
      case 'game_end': return 'game over (' + e.reason + '): places ' + e.places.join(' / ') + ', scores ' +
        e.scores.join(' / ');
    }
    return e.kind;
  }

  // ------------------------------------------------------------------ wiring
  // The address opens its game at its turn; one that names no game of this page shows the list and says so.
  function openFromHash() {
    const hash = location.hash;
    if (hash === '' || hash === '#') { closeViewer(); note(''); return; }
    if (!hash.startsWith('#game=')) return;  // a link to a section of the page
    const params = new URLSearchParams(hash.slice(1));
    const id = params.get('game') || '';
    const turnText = params.get('turn');
    const {index, load} = locate(id);
    if (id && load !== null) {
      loadShard(openFromHash, load);
      return;
    }
    if (index < 0) {
      closeViewer();
      note((id ? 'This report has no game ' + JSON.stringify(id) : 'The address names no game') +
           ' (the address ends ' + JSON.stringify(hash) + '): choose one below.');
      $('games').scrollIntoView();
      return;
    }
    const turn = turnText === null ? 0 : /^\d+$/.test(turnText) ? Number(turnText) : NaN;
    const seatText = params.get('seat');
    const seat = seatText !== null && /^\d+$/.test(seatText) && +seatText < DATA.games[index][4].length ? +seatText : -1;
    if (view.index === index && view.turn === turn && view.seat === seat) return;  // the address this page just wrote
    openGame(id, Number.isNaN(turn) ? 0 : turn, 'none');
    if (view.index !== index) return;
    if (seat >= 0) {  // the seat's own view: what its bot saw and wrote
      view.seat = seat;
      $('v-view').value = String(seat);
      show(view.turn, 'none');
    }
    if (Number.isNaN(turn)) note('Turn ' + JSON.stringify(turnText) + ' is not a number: the game opens at turn 0.', 'v-note');
    else if (turn !== view.turn) note('This game has turns 0 to ' + view.turn + ': it opens at the last.', 'v-note');
    if (turn !== view.turn) setAddress('replace');
  }

  $('g-filter').addEventListener('input', filterGames);
  $('g-faults').addEventListener('change', filterGames);
  $('g-stage').addEventListener('change', filterGames);
  document.querySelectorAll('a.stage-filter').forEach((a) => a.addEventListener('click', () => {
    $('g-stage').value = a.dataset.filter;
    filterGames();
  }));
  $('g-prev').addEventListener('click', () => { list.page -= 1; drawList(); });
  $('g-next').addEventListener('click', nextPage);
  $('v-first').addEventListener('click', () => show(0));
  $('v-prev').addEventListener('click', () => show(view.turn - 1));
  $('v-next').addEventListener('click', () => show(view.turn + 1));
  $('v-last').addEventListener('click', () => show(view.frames.length - 1));
  $('v-slider').addEventListener('input', (ev) => show(ev.target.value));
  $('v-go').addEventListener('click', () => show($('v-turn').value));
  $('v-turn').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') show(ev.target.value); });
  $('v-view').addEventListener('change', (ev) => { view.seat = Number(ev.target.value); show(view.turn); });
  $('v-note-prev').addEventListener('click', () => toNote(-1));
  $('v-note-next').addEventListener('click', () => toNote(1));
  document.addEventListener('keydown', (ev) => {
    if ($('viewer').hidden || ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
    if (ev.key === 'ArrowRight') show(view.turn + 1);
    else if (ev.key === 'ArrowLeft') show(view.turn - 1);
    else if (ev.key === 'Home') show(0);
    else if (ev.key === 'End') show(view.frames.length - 1);
    else if (ev.key === 'n') toNote(1);
    else if (ev.key === 'p') toNote(-1);
  });
  document.querySelectorAll('a.open-game').forEach((a) => a.addEventListener('click', (ev) => {
    ev.preventDefault();
    openGame(a.dataset.game, Number(a.dataset.turn), 'push');
  }));
  // Back and forward between pushed addresses fire popstate; a typed or pasted address fires hashchange too
  // (openFromHash does nothing when the viewer already shows what the address names).
  window.addEventListener('popstate', openFromHash);
  window.addEventListener('hashchange', openFromHash);
  if (DATA.problems.length) {
    $('g-problems').hidden = false;
    $('g-problems').textContent = DATA.problems.length + ' game(s) cannot be replayed: ' + DATA.problems.join('; ');
  }
  fillStages();
  refilter();
  openFromHash();
  // For tests and the curious: the frames of any game, and the viewer's state.
  window.lastcard = {openGame, show, follow, framesOf: (id) => framesOf(DATA.games.findIndex((r) => r && r[0] === id)),
                     state: () => ({game: view.index >= 0 ? DATA.games[view.index][0] : null, turn: view.turn,
                                    seat: view.seat})};
}());
