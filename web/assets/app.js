// The stickdice page: play, replay and analysis. Every rule answer (states, legal
// actions, throws, descriptions, pieces) comes from the server; this file only draws and
// routes clicks.

import { drawBoard, drawSticks, offBoard } from './board.js';

const $ = (id) => document.getElementById(id);
const timings = [];
window.stickdice = { timings };

function message(text, isError = false) {
  const m = $('message');
  m.textContent = text;
  m.className = isError ? 'error' : 'info';
}

// Requests in flight; the page is idle (body[data-idle=yes]) when none is and no agent
// is playing, which the browser tests wait for.
let inflight = 0;
function markIdle() {
  document.body.dataset.idle = inflight === 0 && !play.busy ? 'yes' : 'no';
}

async function api(method, url, body, signal) {
  inflight++;
  markIdle();
  try {
    return await apiCall(method, url, body, signal);
  } finally {
    inflight--;
    setTimeout(markIdle, 0);
  }
}

async function apiCall(method, url, body, signal) {
  const init = { method, headers: {}, signal };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    if (signal?.aborted) return { ok: false, error: { code: 'stopped', message: 'stopped' } };
    return { ok: false, error: { code: 'network', message: `the server cannot be reached: ${e.message}` } };
  }
  try {
    return await res.json();
  } catch (e) {
    return { ok: false, error: { code: 'bad_response', message: `${url}: HTTP ${res.status}` } };
  }
}

let hello = null;

// ---------------------------------------------------------------- play

const play = {
  session: null,
  view: null,
  geometry: null,
  seats: [],
  selected: null,
  busy: false,
  starting: null,
  clickedAt: null,
  lastMarked: null,
};

function seatLabel(s) { return `P${s + 1}`; }

// The game the page opens on, ready to play: Issiren (the game with the most decisions),
// a human against a searcher.
const DEFAULT_GAME = 'issiren';
const DEFAULT_OPPONENT = 'expectimax:nodes=20000';

function gameInfo(name) { return hello.games.find((g) => g.name === name); }

function buildForm() {
  const sel = $('game');
  const asel = $('analysis-game');
  for (const g of hello.games) {
    sel.add(new Option(g.title, g.name));
    asel.add(new Option(g.title, g.name));
  }
  $('agent-names').textContent = hello.agents.map((a) => a.name).join(', ');
  if (hello.games.some((g) => g.name === DEFAULT_GAME)) sel.value = DEFAULT_GAME;
  sel.addEventListener('change', formForGame);
  $('players').addEventListener('change', seatInputs);
  formForGame();
  asel.addEventListener('change', analysisForGame);
  analysisForGame();
}

// The analysis form for its chosen game: the seat counts it takes, and its own rule options
// (with their defaults) as the example of the options field.
function analysisForGame() {
  const g = gameInfo($('analysis-game').value);
  const p = $('analysis-players');
  p.min = g.players.min; p.max = g.players.max;
  p.value = Math.min(Math.max(+p.value, g.players.min), g.players.max);
  const opts = $('analysis-options');
  const defaults = Object.entries(g.options).map(([k, v]) => `${k}=${v}`).join(' ');
  opts.placeholder = defaults || 'none: this game has no rule options';
  opts.title = defaults
    ? `key=value, separated by spaces; the options of ${g.title}, with their defaults: ${defaults}`
    : `${g.title} has no rule options`;
  opts.size = Math.max(30, opts.placeholder.length + 2);
}

// A game's rule options as fields in `opts` (replacing what was there), built from the
// game's table of options (`hello`'s `rule_options`): a `bool` option is a checkbox, an
// `int` option a typed field; each field's tooltip is the option's help and the values it
// takes, and each input carries its key and its default as the protocol writes it.
function optionFields(opts, table) {
  opts.replaceChildren();
  for (const o of table) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    const v = String(o.default);
    input.dataset.key = o.name; input.dataset.default = v;
    label.title = `${o.help} (${o.allowed})`;
    if (o.type === 'bool') {
      input.type = 'checkbox';
      input.checked = o.default === true;
      label.append(input, ` ${o.name}`);
    } else {
      input.value = v; input.size = 6; input.inputMode = 'numeric';
      label.append(`${o.name} `, input);
    }
    opts.appendChild(label);
  }
}

function formForGame() {
  const g = gameInfo($('game').value);
  const p = $('players');
  p.min = g.players.min; p.max = g.players.max;
  p.value = Math.min(Math.max(+p.value, g.players.min), g.players.max);
  optionFields($('options'), g.rule_options);
  for (const input of $('options').querySelectorAll('input')) input.id = `option-${input.dataset.key}`;
  $('marked').max = g.sticks;
  seatInputs();
}

function seatInputs() {
  const div = $('seats');
  const old = [...div.querySelectorAll('input')].map((i) => i.value);
  div.replaceChildren();
  const n = +$('players').value;
  for (let s = 0; s < n; s++) {
    const label = document.createElement('label');
    label.textContent = `${seatLabel(s)} `;
    const input = document.createElement('input');
    input.id = `seat-${s}`;
    input.value = old[s] ?? (s === 0 ? 'human' : DEFAULT_OPPONENT);
    // As wide as the spec it holds (an agent spec with its parameters runs long).
    const fit = () => { input.size = Math.max(14, input.value.length + 2); };
    fit();
    input.addEventListener('input', fit);
    label.appendChild(input);
    div.appendChild(label);
  }
}

// No game is open until the Play view first shows (the page may open on another view).
const NO_GAME = { ok: false, error: { code: 'no_game', message: 'No game is open: start one with New game.' } };

async function request(req) {
  if (!play.session) return NO_GAME;
  const r = await api('POST', `/api/session/${play.session}`, req);
  return r;
}

// Opens the ready game the Play view shows, once: when the page opens on Play, or when
// Play is first chosen after the page opened on another view.
function ensureGame() {
  if (!play.view && !play.starting) play.starting = newGame().finally(() => { play.starting = null; });
  return play.starting;
}

async function newGame(ev) {
  ev?.preventDefault();
  if (!play.session) {
    const r = await api('POST', '/api/session');
    if (!r.ok) return message(r.error.message, true);
    play.session = r.session;
  }
  const game = $('game').value;
  const players = +$('players').value;
  const options = {};
  for (const i of $('options').querySelectorAll('input')) {
    options[i.dataset.key] = i.type === 'checkbox' ? String(i.checked) : i.value;
  }
  const seed = +$('seed').value;
  play.seats = [...$('seats').querySelectorAll('input')].map((i) => i.value.trim() || 'human');
  const geo = await api('GET', `/api/geometry/${game}?players=${players}`);
  if (geo.ok === false) return message(geo.error.message, true);
  const r = await request({ cmd: 'new_game', game, players, options, seed });
  if (!r.ok) return message(r.error.message, true);
  play.geometry = geo;
  play.selected = null;
  play.lastMarked = null;
  $('play-log').replaceChildren();
  $('hint-text').textContent = '';
  $('throw-text').textContent = '';
  // The rule options set otherwise than by default, beside the seats.
  const defaults = gameInfo(game).options;
  const changed = Object.entries(options).filter(([k, v]) => defaults[k] !== v).map(([k, v]) => `${k}=${v}`);
  $('play-title').textContent = `${geo.title} — ${play.seats.map((s, i) => `${seatLabel(i)} ${s}`).join(', ')}; seed ${seed}${changed.length ? `; ${changed.join(', ')}` : ''}`;
  $('legend').textContent = geo.legend;
  message(`New game of ${geo.title}.`);
  show(r.result);
  drive();
}

function isHuman(seat) { return play.seats[seat] === 'human'; }

// Draws the board, or, for a game without a board drawing (`geometry.drawn` false), shows
// its text board from Rust and the server's note saying so. `prefix` is '' (play) or
// 'replay-'.
function boardOrText(prefix, geometry, pieces, text, opts) {
  const drawn = geometry.drawn !== false;
  $(`${prefix}board`).style.display = drawn ? '' : 'none';
  $(`${prefix}offboard`).hidden = !drawn;
  $(`${prefix}board-note`).hidden = drawn;
  $(`${prefix}board-plain`).hidden = drawn;
  if (drawn) {
    drawBoard($(`${prefix}board`), geometry, pieces, opts);
    offBoard($(`${prefix}offboard`), pieces, opts.tallies, geometry);
  } else {
    $(`${prefix}board-note`).textContent = geometry.note;
    $(`${prefix}board-plain`).textContent = text;
  }
}

function show(view) {
  play.view = view;
  const pic = view.picture;
  boardOrText('', play.geometry, pic.pieces, view.board, { moves: pic.moves, selected: play.selected, onSquare: squareClicked, tallies: pic.tallies });
  drawSticks($('sticks'), play.geometry.sticks, play.lastMarked);
  $('board-text').textContent = view.board;
  $('state-json').textContent = JSON.stringify(view.state);
  const node = view.node;
  let status;
  if (node.kind === 'end') status = `Game over: ${view.ranking.text}.`;
  else if (node.kind === 'throw') status = `${seatLabel(node.seat)} (${play.seats[node.seat]}) to throw.`;
  else status = `${seatLabel(node.seat)} (${play.seats[node.seat]}) to choose: ${view.legal_actions.join(', ')}.`;
  status += ` Throws made: ${view.throws_made}.`;
  $('status').textContent = status;
  $('status').dataset.node = node.kind;
  $('status').dataset.seat = node.seat ?? '';
  const decisions = $('decisions');
  decisions.replaceChildren();
  const help = $('decision-help');
  help.replaceChildren();
  help.hidden = true;
  if (node.kind === 'decide' && isHuman(node.seat)) {
    // Moves that name no square, and those that share their squares with another move
    // (a click could not tell them apart), as buttons.
    const same = (m, n) => m !== n && m.from === n.from && m.to === n.to;
    const buttons = pic.moves.filter((m) => m.from === null || pic.moves.some((n) => same(m, n)));
    for (const m of buttons) {
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = m.action; b.dataset.action = m.action;
      if (m.words) b.title = m.words;
      b.addEventListener('click', () => act(m.action));
      decisions.appendChild(b);
    }
    // The choice in the rules' words (from the server), beside the buttons.
    const said = buttons.filter((m) => m.words);
    if (said.length) {
      help.append(`${seatLabel(node.seat)} chooses: `);
      said.forEach((m, i) => {
        const c = document.createElement('code');
        c.textContent = m.action;
        help.append(...(i ? ['; '] : []), c, ` — ${m.words}`);
      });
      help.append('.');
      help.hidden = false;
    }
  }
  const humanThrow = node.kind === 'throw' && isHuman(node.seat);
  $('throw').disabled = !humanThrow || play.busy;
  $('enter-throw').disabled = !humanThrow || play.busy;
  $('cancel').disabled = !play.busy;
  $('save').disabled = node.kind !== 'end';
  $('hint').disabled = false;
  $('undo').disabled = false;
  if (play.clickedAt !== null) {
    const t0 = play.clickedAt;
    play.clickedAt = null;
    // Measured for the browser tests (window.stickdice.timings), not shown.
    requestAnimationFrame(() => timings.push(performance.now() - t0));
  }
}

// `note` (an auto-pass's) is added to the step's last line, which is marked `auto-pass`.
function logWords(words, seat, note) {
  const ol = $('play-log');
  const lines = [...words];
  if (note) lines.push(lines.length ? `${lines.pop()} ${note}` : note);
  // Newest step first; a step's own words in their order.
  lines.reverse().forEach((w, i) => {
    const li = document.createElement('li');
    li.textContent = w;
    if (seat !== undefined && seat !== null) li.className = `seat-text-${seat}`;
    if (note && i === 0) li.classList.add('auto-pass');
    ol.prepend(li);
  });
}

// Shows a step's answer and logs its words; `note` (an auto-pass's) follows them.
function after(r, note) {
  if (!r.ok) {
    message(r.error.message, true);
    return false;
  }
  if (r.result.thrown) play.lastMarked = r.result.thrown.marked;
  const pic = r.result.picture;
  if (pic) {
    const seat = r.result.thrown?.seat ?? r.result.played?.seat ?? r.result.move?.seat;
    const words = pic.words.length ? pic.words : [];
    if (r.result.thrown) {
      $('throw-text').textContent = `${seatLabel(r.result.thrown.seat)}: ${r.result.thrown.description}`;
    }
    logWords(words.map((w, i) => (i === 0 && r.result.thrown ? `${seatLabel(seat)}: ${w}` : w)), seat, note);
  }
  if (r.result.state) show(r.result);
  return true;
}

async function throwSticks(marked) {
  play.clickedAt = performance.now();
  const req = marked === undefined ? { cmd: 'throw' } : { cmd: 'throw', marked };
  const r = await request(req);
  if (after(r)) message('');
  drive();
}

async function act(action) {
  play.clickedAt = performance.now();
  const r = await request({ cmd: 'act', action });
  play.selected = null;
  if (after(r)) message('');
  else show(play.view);
  drive();
}

function squareClicked(i) {
  const v = play.view;
  if (!v) return;
  const sq = play.geometry.squares[i];
  const moves = v.picture.moves;
  const node = v.node;
  if (play.selected !== null) {
    const m = moves.find((m) => m.from === play.selected && m.to === i);
    if (m) return act(m.action);
    if (i === play.selected) {
      const mine = moves.find((m) => m.from === i);
      if (mine) return act(mine.action);
    }
  }
  // The mover's own piece on the square where there is one (pieces may share a square).
  const here = v.picture.pieces.filter((p) => p.square === i);
  const piece = here.find((p) => p.seat === node.seat) ?? here[0];
  if (node.kind === 'decide' && isHuman(node.seat) && moves.some((m) => m.from === i)) {
    play.selected = i;
    play.clickedAt = performance.now();
    const to = moves.find((m) => m.from === i).to;
    const where = to === null ? 'off the board' : to === i ? `nowhere (it stays on ${sq.label})` : `to ${play.geometry.squares[to].label}`;
    message(`The piece on ${sq.label} moves ${where}: click the highlighted square (or the piece again).`);
    show(v);
    return;
  }
  play.selected = null;
  if (node.kind === 'end') return message('The game is over: start a new one.', true);
  if (!isHuman(node.seat ?? 0)) return message(`It is ${seatLabel(node.seat)}'s turn, played by ${play.seats[node.seat]}: wait for its move.`, true);
  if (!piece) return message(`There is no piece on ${sq.label}.`, true);
  if (node.kind === 'throw') return message(`${seatLabel(node.seat)} must throw the sticks first (no piece moves before the throw).`, true);
  if (piece.seat !== node.seat) return message(`The piece on ${sq.label} is not ${seatLabel(node.seat)}'s: ${piece.text}.`, true);
  // What a decision names (the board's `chosen_by`): the square of a piece, the piece
  // itself, or nothing (the throws move the pieces).
  const by = play.geometry.chosen_by;
  if (by !== 'square' && by !== 'piece') return message(`Pieces move by the throws themselves here; ${seatLabel(node.seat)} chooses only: ${v.legal_actions.join(', ')}.`, true);
  const action = by === 'square' ? sq.label : piece.kind;
  const what = by === 'square' ? `The piece on ${sq.label}` : `${seatLabel(node.seat)}'s ${action}`;
  // Let the rules say why this piece cannot move.
  request({ cmd: 'act', action }).then((r) => {
    if (r.ok) { after(r); drive(); return; }
    message(`${what} cannot move: ${r.error.message}`, true);
  });
}

// A human's only legal action is `pass`, and auto-pass (on by default) plays it for them.
function forcedPass(v) {
  return $('auto-pass').checked && v.node.kind === 'decide' && isHuman(v.node.seat)
    && v.legal_actions.length === 1 && v.legal_actions[0] === 'pass';
}

// The page plays the next step itself: an agent's seat, or a human's forced pass.
function playedForThem(v) { return v.node.kind !== 'end' && (!isHuman(v.node.seat) || forcedPass(v)); }

// Lets the agents play their seats (their throws too), and passes for a human who can
// only pass, until a human must act.
async function drive() {
  if (play.busy) return;
  const v = play.view;
  if (!v || !playedForThem(v)) return;
  play.busy = true;
  $('cancel').disabled = false;
  try {
    while (playedForThem(play.view)) {
      const s = play.view.node.seat;
      let r;
      let note;
      if (forcedPass(play.view)) {
        r = await request({ cmd: 'act', action: 'pass' });
        note = `(auto-pass: pass was ${seatLabel(s)}'s only legal action)`;
      } else if (play.view.node.kind === 'throw') r = await request({ cmd: 'throw' });
      else r = await request({ cmd: 'agent_move', agent: play.seats[s], apply: true });
      if (!after(r, note)) break;
      await new Promise((res) => setTimeout(res, 30));
    }
  } finally {
    play.busy = false;
    show(play.view);
    markIdle();
  }
}

async function hint() {
  const v = play.view;
  if (!v || v.node.kind !== 'decide') return message('A hint is for a choice of action: there is none to make now.', true);
  $('hint-text').textContent = 'thinking…';
  const r = await request({ cmd: 'agent_move', agent: 'mcts:iterations=2000', analysis: true });
  if (!r.ok) { $('hint-text').textContent = ''; return message(r.error.message, true); }
  const m = r.result.move;
  const rows = (m.analysis || []).map((a) => `${a.action}: value ${a.value.toFixed(3)}${a.visits !== null ? `, ${a.visits} visits` : ''}`);
  $('hint-text').textContent = `Hint (${m.agent}, ${m.time_ms.toFixed(0)} ms): play ${m.action}. ${rows.join('; ')}`;
}

async function undo() {
  // Undo back to the last human decision or throw.
  let r = await request({ cmd: 'undo' });
  if (!r.ok) return message(r.error.message, true);
  // Past the passes auto-pass played (else it would play them again at once).
  while (r.ok && playedForThem(r.result) && r.result.undo_steps > 0) {
    r = await request({ cmd: 'undo' });
  }
  play.selected = null;
  play.lastMarked = null;
  logWords([`(undone: back to throw ${r.result.throws_made})`]);
  message('Undone.');
  show(r.result);
}

async function save() {
  if (!play.session) return message(NO_GAME.error.message, true);
  const r = await api('POST', `/api/session/${play.session}/save`, { agents: play.seats });
  if (!r.ok) return message(r.error.message, true);
  message(`Saved in ${r.path}; it is in the Replay list as folder ${r.tournament}.`);
}

function setupPlay() {
  $('new-game-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    // After the game the view opens with, if it is still being set up (one session).
    Promise.resolve(play.starting).then(() => newGame());
  });
  $('throw').addEventListener('click', () => throwSticks());
  $('enter-throw').addEventListener('click', () => throwSticks(+$('marked').value));
  $('hint').addEventListener('click', hint);
  $('auto-pass').addEventListener('change', () => drive());
  $('undo').addEventListener('click', undo);
  $('save').addEventListener('click', save);
  $('cancel').addEventListener('click', async () => {
    if (!play.session) return message('No agent was thinking.');
    const r = await api('POST', `/api/session/${play.session}/cancel`);
    message(r.ok && r.cancelled ? 'The agent\'s search was cancelled.' : 'No agent was thinking.');
  });
}

// ---------------------------------------------------------------- replay

const replay = { rows: [], sortKey: 'folder', sortDir: 1, game: null, step: 0, timer: null };

async function loadTournaments() {
  const r = await api('GET', '/api/tournaments');
  if (!r.ok) return message(r.error.message, true);
  const errors = $('folder-errors');
  errors.replaceChildren();
  replay.rows = [];
  for (const t of r.tournaments) {
    if (t.error) {
      const p = document.createElement('p');
      p.className = 'error folder-error';
      p.textContent = `Folder ${t.id} (${t.path}): ${t.error}`;
      errors.appendChild(p);
      continue;
    }
    for (const g of t.games) {
      replay.rows.push({ t: t.id, folder: t.path, game: t.game, title: t.title, index: g.index,
        seats: g.seating.map((s, i) => `P${i + 1} ${s}`).join(', '), result: g.result, throws: g.throws, failure: g.failure });
    }
  }
  if (!r.tournaments.length) {
    const p = document.createElement('p');
    p.textContent = 'No tournament folders: start the server as `stickdice web DIR…` with the output folders of `stickdice tournament` (with no folder named it replays ./tournament-out when there is one).';
    errors.appendChild(p);
  }
  drawTable();
  ratings(r.tournaments);
}

function drawTable() {
  const f = $('filter').value.toLowerCase();
  const rows = replay.rows.filter((r) => !f || `${r.folder} ${r.title} ${r.seats} ${r.result} ${r.index}`.toLowerCase().includes(f));
  const k = replay.sortKey;
  rows.sort((a, b) => (a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : 0) * replay.sortDir || a.index - b.index);
  const tbody = $('games-table').tBodies[0];
  tbody.replaceChildren();
  for (const r of rows) {
    const tr = tbody.insertRow();
    tr.dataset.t = r.t; tr.dataset.index = r.index;
    for (const v of [r.folder, r.title, r.index, r.seats, r.result + (r.failure ? ` (${r.failure})` : ''), r.throws]) {
      tr.insertCell().textContent = v;
    }
    tr.addEventListener('click', () => { location.hash = `#replay/${r.t}/${r.index}`; });
  }
  for (const th of $('games-table').tHead.rows[0].cells) {
    th.classList.toggle('sorted', th.dataset.key === k);
    th.dataset.dir = th.dataset.key === k ? (replay.sortDir > 0 ? 'up' : 'down') : '';
  }
}

async function openReplay(t, k, step) {
  $('replay-list').hidden = true;
  $('replay-game').hidden = false;
  if (!replay.game || replay.game.tournament !== t || String(replay.game.index) !== String(k)) {
    const r = await api('GET', `/api/tournaments/${t}/games/${k}`);
    if (!r.ok) {
      replay.game = null;
      $('replay-title').textContent = '';
      message(r.error.message, true);
      $('replay-game').hidden = true;
      $('replay-list').hidden = false;
      return;
    }
    replay.game = r;
    replay.game.tournament = t;
    $('replay-title').textContent = `${r.title}, game ${r.index}: ${r.seats.map((s, i) => `P${i + 1} ${s}`).join(', ')} — result ${r.result} after ${r.throws} throws${r.failure ? `; ${r.failure}` : ''}`;
    const log = $('replay-log');
    log.replaceChildren();
    r.steps.forEach((s, i) => {
      if (!i) return;
      const li = document.createElement('li');
      li.value = i;
      li.textContent = s.words.join('; ');
      li.dataset.step = i;
      li.addEventListener('click', () => goto(i));
      log.appendChild(li);
    });
    $('jump').max = r.steps.length - 1;
    message('');
    loadReview(r);
  }
  goto(step ?? 0);
}

// A value to three decimals with its sign.
const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

// The per-move analysis (`stickdice review`, computed by the server): each throw's luck
// and each decision's error beside its move, and the per-seat totals.
async function loadReview(game) {
  const box = $('replay-analysis');
  box.replaceChildren();
  $('replay-step-analysis').textContent = '';
  game.review = null;
  box.textContent = 'Analysing the game…';
  const r = await api('GET', `/api/tournaments/${game.tournament}/games/${game.index}/review`);
  if (replay.game !== game) return;
  if (!r.ok) {
    box.textContent = `No per-move analysis: ${r.error.message}`;
    return;
  }
  const rv = r.review;
  game.review = { byStep: new Map() };
  for (const st of rv.steps) game.review.byStep.set(st.event + 1, st);
  for (const li of $('replay-log').children) {
    const st = game.review.byStep.get(+li.dataset.step);
    if (!st) continue;
    const span = document.createElement('span');
    span.className = 'analysis';
    span.textContent = stepAnalysis(st);
    if (st.kind === 'decision' && st.blunder) span.classList.add('blunder');
    li.append(' ', span);
  }
  const head = document.createElement('p');
  head.textContent = `Analysis against ${rv.reference}; values are expected scores (0 to 1); a blunder gives up more than ${rv.blunder_threshold}.`;
  const table = document.createElement('table');
  table.id = 'review-totals';
  const cols = ['seat', 'agent', 'start', 'final', 'luck', 'luck-adjusted', 'decisions', 'unforced', 'total error', 'mean error', 'blunders'];
  const tr = document.createElement('tr');
  for (const c of cols) { const th = document.createElement('th'); th.textContent = c; tr.appendChild(th); }
  const thead = document.createElement('thead');
  thead.appendChild(tr);
  const tbody = document.createElement('tbody');
  for (const s of rv.summary) {
    const row = document.createElement('tr');
    const cells = [`P${s.seat + 1}`, r.seats[s.seat] ?? '?', s.start.toFixed(3), s.final_score.toFixed(3), signed(s.luck),
      s.adjusted.toFixed(3), s.decisions, s.unforced, s.total_error.toFixed(3), s.mean_error === null ? '–' : s.mean_error.toFixed(3), s.blunders];
    for (const c of cells) { const td = document.createElement('td'); td.textContent = String(c); row.appendChild(td); }
    tbody.appendChild(row);
  }
  table.append(thead, tbody);
  box.replaceChildren(head, table);
  if (replay.game === game) showStepAnalysis(replay.step);
}

function stepAnalysis(st) {
  if (st.kind === 'throw') return `luck ${st.luck.map((l, i) => `P${i + 1} ${signed(l)}`).join(', ')}`;
  if (st.forced) return 'forced';
  return `error ${st.error.toFixed(3)}${st.blunder ? ' (blunder)' : ''}${st.error > 0 ? `; best ${st.best}` : ''}`;
}

function showStepAnalysis(i) {
  const g = replay.game;
  const st = g && g.review ? g.review.byStep.get(i) : null;
  $('replay-step-analysis').textContent = st ? `Analysis: ${stepAnalysis(st)}.` : '';
}

function goto(i) {
  const g = replay.game;
  if (!g) return;
  const t0 = performance.now();
  i = Math.max(0, Math.min(g.steps.length - 1, i));
  replay.step = i;
  const s = g.steps[i];
  boardOrText('replay-', g.geometry, s.pieces, s.board, { tallies: s.tallies });
  let marked = null;
  for (let j = i; j > 0; j--) { if (g.steps[j].event.kind === 'throw') { marked = g.steps[j].event.marked; break; } }
  drawSticks($('replay-sticks'), g.geometry.sticks, marked);
  $('replay-words').textContent = i ? s.words.join('; ') : 'The start of the game.';
  $('step-label').textContent = `move ${i} of ${g.steps.length - 1}`;
  $('jump').value = i;
  $('replay-board-text').textContent = s.board;
  const n = s.node;
  $('replay-status').textContent = n.kind === 'end' ? `Game over: ${s.ranking}.` : `${n.kind === 'throw' ? 'to throw' : 'to choose'}: P${n.seat + 1}. Throws made: ${s.throws_made}.`;
  for (const li of $('replay-log').children) li.classList.toggle('current', +li.dataset.step === i);
  const cur = $('replay-log').querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  showStepAnalysis(i);
  requestAnimationFrame(() => timings.push(performance.now() - t0));
}

function autoplay() {
  if (replay.timer) {
    clearInterval(replay.timer); replay.timer = null;
    $('autoplay').textContent = 'Autoplay';
    return;
  }
  $('autoplay').textContent = 'Stop';
  replay.timer = setInterval(() => {
    if (!replay.game || replay.step >= replay.game.steps.length - 1) return autoplay();
    goto(replay.step + 1);
  }, +$('speed').value);
}

function setupReplay() {
  $('filter').addEventListener('input', drawTable);
  for (const th of $('games-table').tHead.rows[0].cells) {
    th.addEventListener('click', () => {
      if (replay.sortKey === th.dataset.key) replay.sortDir = -replay.sortDir;
      else { replay.sortKey = th.dataset.key; replay.sortDir = 1; }
      drawTable();
    });
  }
  $('first').addEventListener('click', () => goto(0));
  $('back').addEventListener('click', () => goto(replay.step - 1));
  $('forward').addEventListener('click', () => goto(replay.step + 1));
  $('last').addEventListener('click', () => goto(Infinity));
  $('jump-go').addEventListener('click', () => goto(+$('jump').value));
  $('jump').addEventListener('keydown', (e) => { if (e.key === 'Enter') goto(+$('jump').value); });
  $('autoplay').addEventListener('click', autoplay);
  $('speed').addEventListener('change', () => { if (replay.timer) { autoplay(); autoplay(); } });
}

// ---------------------------------------------------------------- analysis

function ratings(tournaments) {
  const div = $('ratings');
  div.replaceChildren();
  for (const t of tournaments) {
    if (t.error || !t.files.includes('ratings.svg')) continue;
    const h = document.createElement('h3');
    h.textContent = `Ratings: ${t.title}, ${t.path}`;
    const img = document.createElement('img');
    img.src = `/api/tournaments/${t.id}/files/ratings.svg`;
    img.alt = `the ratings chart of ${t.path}`;
    div.append(h, img);
  }
}

function fig(f, d = 3) { return f.ci95 === null ? f.mean.toFixed(d) : `${f.mean.toFixed(d)} ± ${f.ci95.toFixed(d)}`; }

async function analyse(ev) {
  ev.preventDefault();
  const q = new URLSearchParams({
    game: $('analysis-game').value, players: $('analysis-players').value,
    games: $('analysis-games').value, seed: $('analysis-seed').value, baseline: $('analysis-baseline').value,
  });
  for (const o of $('analysis-options').value.split(/\s+/).filter(Boolean)) q.append('option', o);
  const out = $('analysis-result');
  out.textContent = 'playing…';
  const r = await api('GET', `/api/analysis?${q}`);
  if (!r.ok) { out.textContent = ''; return message(r.error.message, true); }
  const sp = r.self_play;
  const rows = [
    ['games', sp.games], ['agent in every seat', sp.agent],
    ...sp.first.map((f, i) => [`P${i + 1} ranks first`, fig(f)]),
    ...sp.score.map((f, i) => [`P${i + 1} mean score`, fig(f)]),
    ['throws per game (mean)', fig(sp.throws.mean, 1)], ['throws: median / 90th pct / min / max', `${sp.throws.median} / ${sp.throws.p90} / ${sp.throws.min} / ${sp.throws.max}`],
    ['turns per game (mean)', fig(sp.turns.mean, 1)], ['decisions per game', fig(sp.decisions_per_game, 1)],
    ['share of decisions with a choice', sp.choice_share === null ? '–' : sp.choice_share.toFixed(3)],
    ['captures per game', fig(sp.captures, 2)], ['burials per game', fig(sp.burials, 2)], ['games ended at the throw cap', fig(sp.capped)],
  ];
  const table = document.createElement('table');
  table.id = 'analysis-table';
  for (const [k, v] of rows) {
    const tr = table.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = v;
  }
  const h = document.createElement('h3');
  h.textContent = `${r.title}, ${r.players} players, seed ${r.seed} (${r.options.join(' ')})`;
  const svg = document.createElement('div');
  svg.className = 'histogram';
  svg.innerHTML = r.svg;
  out.replaceChildren(h, table, svg);
  message('');
}

// ---------------------------------------------------------------- comparison
// Configurations chosen here are compared by the server (POST /api/compare, the library's
// compare): the page only collects the choices and shows the figures and the library's
// SVG charts.

const words = (text) => text.split(/\s+/).filter(Boolean);

function compareRows() { return [...$('compare-configs').querySelectorAll('.compare-config')]; }

// Numbers the rows' ids in order (after a removal) and marks the first as the baseline.
function renumberConfigs() {
  compareRows().forEach((row, i) => {
    row.dataset.index = i;
    row.querySelector('.compare-game').id = `compare-game-${i}`;
    row.querySelector('.compare-players').id = `compare-players-${i}`;
    row.querySelector('.compare-remove').id = `compare-remove-${i}`;
    row.querySelector('.compare-remove').disabled = compareRows().length === 1;
    for (const input of row.querySelectorAll('.options input')) input.id = `compare-option-${i}-${input.dataset.key}`;
    const tag = row.querySelector('.baseline');
    tag.textContent = i === 0 ? 'baseline' : `#${i + 1}`;
  });
}

function compareOptions(row) {
  const g = gameInfo(row.querySelector('.compare-game').value);
  const p = row.querySelector('.compare-players');
  p.min = g.players.min; p.max = g.players.max;
  p.value = Math.min(Math.max(+p.value || g.players.min, g.players.min), g.players.max);
  optionFields(row.querySelector('.options'), g.rule_options);
  renumberConfigs();
}

function addConfig(game) {
  const row = document.createElement('div');
  row.className = 'compare-config';
  const tag = document.createElement('span');
  tag.className = 'baseline';
  const sel = document.createElement('select');
  sel.className = 'compare-game';
  for (const g of hello.games) sel.add(new Option(g.title, g.name));
  sel.value = game ?? compareRows().at(-1)?.querySelector('.compare-game').value ?? 'sig-el-oued';
  const players = document.createElement('input');
  players.className = 'compare-players'; players.type = 'number'; players.value = 2;
  const opts = document.createElement('div');
  opts.className = 'options';
  const remove = document.createElement('button');
  remove.type = 'button'; remove.className = 'compare-remove'; remove.textContent = 'Remove';
  remove.addEventListener('click', () => { row.remove(); renumberConfigs(); });
  const gl = document.createElement('label'); gl.append('Game ', sel);
  const pl = document.createElement('label'); pl.append('Players ', players);
  row.append(tag, gl, pl, opts, remove);
  $('compare-configs').appendChild(row);
  sel.addEventListener('change', () => compareOptions(row));
  compareOptions(row);
}

// A configuration as the request takes it: only the options that differ from the game's
// defaults (so the labels name what was changed).
function configOf(row) {
  const options = {};
  for (const input of row.querySelectorAll('.options input')) {
    const v = input.type === 'checkbox' ? String(input.checked) : input.value.trim();
    if (v !== input.dataset.default) options[input.dataset.key] = v;
  }
  return { game: row.querySelector('.compare-game').value, players: +row.querySelector('.compare-players').value, options };
}

const comparing = { controller: null };

function showFigure(m) {
  if (m.value === null) return '—';
  const a = Math.abs(m.value);
  const d = a >= 100 ? 1 : a >= 10 ? 2 : 3;
  if (m.exact) return `${m.value.toFixed(d + 1)} exact`;
  if (m.ci95 === null) return m.value.toFixed(d);
  // An interval clipped to the metric's range (a share within [0, 1]) shows its ends.
  const [lo, hi] = m.interval ?? [m.value - m.ci95, m.value + m.ci95];
  if (lo > m.value - m.ci95 || hi < m.value + m.ci95) return `${m.value.toFixed(d)} [${lo.toFixed(d)}, ${hi.toFixed(d)}]`;
  return `${m.value.toFixed(d)} ± ${m.ci95.toFixed(d)}`;
}

async function runCompare(ev) {
  ev.preventDefault();
  const int = (id) => +$(id).value;
  const body = {
    configurations: compareRows().map(configOf),
    agents: words($('compare-agents').value),
    games: int('compare-games'), detailed: int('compare-detailed'), luck_games: int('compare-luck'),
    trace: words($('compare-trace').value), trace_rotations: int('compare-rotations'),
    metrics: words($('compare-metrics').value), seed: int('compare-seed'),
  };
  const out = $('compare-result');
  out.textContent = `comparing ${body.configurations.length} configuration(s)…`;
  comparing.controller = new AbortController();
  $('compare-stop').disabled = false;
  $('compare-run').disabled = true;
  let r;
  try {
    r = await api('POST', '/api/compare', body, comparing.controller.signal);
  } finally {
    comparing.controller = null;
    $('compare-stop').disabled = true;
    $('compare-run').disabled = false;
  }
  if (!r.ok) {
    out.textContent = '';
    if (r.error.code === 'stopped') return message('The comparison was stopped.');
    return message(`Compare: ${r.error.message}`, true);
  }
  drawComparison(r);
  message('');
}

function drawComparison(r) {
  const c = r.comparison;
  const s = c.settings;
  const out = $('compare-result');
  const h = document.createElement('h3');
  h.id = 'compare-title';
  h.textContent = `${c.results.length} configuration(s), ${s.games} games each with ${s.agents.join(', ')} in every seat, seed ${s.seed}`;
  const cols = [];
  for (const res of c.results) for (const row of res.rows) cols.push({ res, row, head: s.agents.length > 1 ? `${res.label} [${row.agent}]` : res.label });
  const significant = new Map();
  for (const d of c.differences) significant.set(`${d.configuration}|${d.agent}|${d.metric}`, d);
  const table = document.createElement('table');
  table.id = 'compare-table';
  const head = table.createTHead().insertRow();
  for (const t of ['metric', ...cols.map((x) => x.head)]) {
    const th = document.createElement('th');
    th.textContent = t;
    head.appendChild(th);
  }
  const tbody = table.createTBody();
  for (const metric of c.metrics) {
    const tr = tbody.insertRow();
    tr.dataset.metric = metric;
    tr.insertCell().textContent = metric;
    for (const { res, row } of cols) {
      const m = row.metrics.find((x) => x.name === metric);
      const td = tr.insertCell();
      if (!m) { td.textContent = '—'; continue; }
      const d = significant.get(`${res.label}|${row.agent}|${metric}`);
      const exactly = d?.exact && d.difference !== 0;
      td.textContent = showFigure(m) + (d?.significant ? ' *' : exactly ? ' ≠' : '');
      if (m.exact) td.classList.add('exact');
      if (m.value === null) td.classList.add('absent');
      if (d?.significant) td.classList.add('significant');
      td.title = [m.source, m.note, m.n ? `n = ${m.n}` : '', d ? `difference ${d.difference.toPrecision(3)}${d.exact ? ' (exact, not tested)' : `, Holm p = ${d.p_holm.toPrecision(3)}`}` : '']
        .filter(Boolean).join('; ');
    }
  }
  const wrap = document.createElement('div');
  wrap.className = 'scroll-x';
  wrap.appendChild(table);
  const note = document.createElement('p');
  note.className = 'hint-small';
  note.textContent = `± is the half-width of the 95% interval; “exact” comes from the solver. `
    + `* differs from the baseline (the first configuration): two-sided z-test on the two estimates, `
    + `Holm–Bonferroni correction over the metrics of each pair, family-wise α = ${s.alpha}; ≠ differs exactly (both solved: known, not tested). Hover a figure for its source and test.`;
  // Each configuration against the baseline, in words.
  const diffs = document.createElement('ul');
  diffs.id = 'compare-differences';
  const pairs = new Map();
  for (const d of c.differences) {
    const k = `${d.configuration}|${d.agent}`;
    if (!pairs.has(k)) pairs.set(k, []);
    pairs.get(k).push(d);
  }
  for (const [k, ds] of pairs) {
    const [label, agent] = k.split('|');
    const tested = ds.filter((d) => !d.exact);
    const sig = tested.filter((d) => d.significant);
    const exact = ds.filter((d) => d.exact && d.difference !== 0);
    const list = (l) => l.map((d) => `${d.metric} ${d.difference >= 0 ? '+' : ''}${d.difference.toPrecision(3)}`).join(', ');
    const li = document.createElement('li');
    li.textContent = `${label}${s.agents.length > 1 ? ` [${agent}]` : ''} against ${ds[0].baseline}: ${sig.length} of ${tested.length} metrics tested differ`
      + (sig.length ? ` (${list(sig)})` : '')
      + (exact.length ? `; exactly different: ${list(exact)}` : '');
    diffs.appendChild(li);
  }
  const parts = [h, wrap, note, diffs];
  const steps = c.results.filter((x) => x.skill_trace.length);
  if (steps.length) {
    const ul = document.createElement('ul');
    ul.id = 'compare-trace-steps';
    for (const res of steps) {
      for (const st of res.skill_trace) {
        const li = document.createElement('li');
        li.textContent = `${res.label}: ${st.agent} against ${st.against} scores ${st.score.toFixed(3)}${st.ci95 === null ? '' : ` ± ${st.ci95.toFixed(3)}`} (${st.games} games)`;
        ul.appendChild(li);
      }
    }
    const h4 = document.createElement('h4');
    h4.textContent = 'Skill trace';
    parts.push(h4, ul);
  }
  const section = (title, id) => { const e = document.createElement('h4'); e.textContent = title; const d = document.createElement('div'); d.id = id; d.className = 'compare-charts'; parts.push(e, d); return d; };
  const svgBox = (cls, svg, attrs = {}) => { const d = document.createElement('div'); d.className = cls; d.innerHTML = svg; Object.assign(d.dataset, attrs); return d; };
  const charts = section('Each metric across the configurations (95% intervals, exact values in green, * significant)', 'compare-charts');
  for (const ch of r.charts) charts.appendChild(svgBox('compare-chart', ch.svg, { metric: ch.metric }));
  if (r.profiles) section('Each configuration’s profile (every metric scaled from the lowest to the highest configuration)', 'compare-profiles').appendChild(svgBox('compare-chart', r.profiles));
  if (r.family) {
    const fam = section(`Family tree (average linkage; on ${r.family.metrics.length} metrics as z-scores, and on the rules’ structure)`, 'compare-family');
    fam.append(svgBox('compare-tree', r.family.svg, { tree: 'metrics' }), svgBox('compare-tree', r.family.structure_svg, { tree: 'structure' }));
  } else if (r.family_note) {
    const p = document.createElement('p'); p.className = 'hint-small'; p.textContent = r.family_note; parts.push(p);
  }
  out.replaceChildren(...parts);
}

function setupCompare() {
  // Ready to run: a game and its sibling (the same configuration twice is refused).
  addConfig('sig-el-oued');
  addConfig('sig-el-oued-capture');
  $('compare-add').addEventListener('click', () => addConfig());
  $('compare-form').addEventListener('submit', runCompare);
  $('compare-stop').addEventListener('click', () => comparing.controller?.abort());
}

// ---------------------------------------------------------------- routing

function route() {
  const h = location.hash || '#play';
  const [view, t, k] = h.slice(1).split('/');
  for (const v of ['play', 'replay', 'analysis']) {
    $(`view-${v}`).hidden = v !== view;
    $(`tab-${v}`).classList.toggle('current', v === view);
  }
  if (!['play', 'replay', 'analysis'].includes(view)) {
    $('view-play').hidden = true;
    return message(`There is no page “${h}”: choose Play, Replay or Analysis.`, true);
  }
  if (replay.timer) autoplay();
  if (view === 'replay') {
    if (t !== undefined && k !== undefined) openReplay(t, k);
    else {
      $('replay-list').hidden = false;
      $('replay-game').hidden = true;
      loadTournaments();
    }
  }
  if (view === 'analysis') loadTournaments();
  if (view === 'play') ensureGame();
}

async function main() {
  const r = await api('GET', '/api/hello');
  if (!r.ok) return message(r.error?.message ?? 'the server did not answer hello', true);
  hello = r.result;
  buildForm();
  setupPlay();
  setupReplay();
  $('analysis-form').addEventListener('submit', analyse);
  setupCompare();
  window.addEventListener('hashchange', route);
  // Opens on a ready game (no "New game" click needed) when the page opens on Play; on
  // another view, when Play is first chosen.
  route();
  await play.starting;
  document.body.dataset.ready = 'yes';
}

main();
