// Browser tests of `stickdice web`: Debian's chromium driven headless by playwright-core,
// against the release binary on loopback (started by .ci/web.sh).
//
// Environment: BASE_URL (the server), BINARY (the stickdice binary, for `stickdice
// replay`), FIXTURES (the tournament folders the server was given: issiren, duqqan, oued,
// damaged, then capture, race, taourit, war, then tab, es-sig, sig-western-sahara), SHOTS (where screenshots go); ASSETS_DIR, if
// set, a folder the page's assets are served from instead of the binary's (to try a change
// to the page without building the binary again).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const BINARY = process.env.BINARY ?? 'target/release/stickdice';
const FIXTURES = process.env.FIXTURES ?? '/tmp/stickdice-web-fixtures';
const SHOTS = process.env.SHOTS ?? 'target/web-screenshots';
const ASSETS_DIR = process.env.ASSETS_DIR;
fs.mkdirSync(SHOTS, { recursive: true });

let context;
let page;
const pageErrors = [];

before(async () => {
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'stickdice-chromium-'));
  context = await chromium.launchPersistentContext(userData, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 1000 },
  });
  if (ASSETS_DIR) {
    const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };
    const serve = (route, name) => route.fulfill({ body: fs.readFileSync(path.join(ASSETS_DIR, name)), contentType: types[path.extname(name)] });
    await context.route(/\/assets\/[a-z]+\.[a-z]+$/, (route) => serve(route, path.basename(new URL(route.request().url()).pathname)));
    await context.route((url) => url.pathname === '/' && url.origin === new URL(BASE).origin, (route) => serve(route, 'index.html'));
  }
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

after(async () => {
  await context?.close();
});

async function open(hash = '#play') {
  // A fresh document each time (a hash change alone would keep the old page).
  await page.goto('about:blank');
  await page.goto(`${BASE}/${hash}`);
  await page.waitForSelector('body[data-ready="yes"]');
}

async function idle() {
  await page.waitForSelector('body[data-idle="yes"]', { timeout: 60_000 });
}

async function status() {
  return page.$eval('#status', (e) => ({ node: e.dataset.node, seat: e.dataset.seat, text: e.textContent }));
}

async function newGame(game, players, seats, seed = 1, options = {}) {
  await open('#play');
  await page.selectOption('#game', game);
  await page.fill('#players', String(players));
  await page.dispatchEvent('#players', 'change');
  for (let s = 0; s < seats.length; s++) await page.fill(`#seat-${s}`, seats[s]);
  for (const [k, v] of Object.entries(options)) await page.fill(`#option-${k}`, String(v));
  await page.fill('#seed', String(seed));
  await page.click('#new-game');
  await page.waitForSelector('#board .square');
  await idle();
}

async function message() {
  return page.$eval('#message', (e) => e.textContent);
}

// The explanations of P1's choices met by playHuman (#decision-help), for the tests.
const choicesExplained = [];

// Plays P1's part by clicking until the game ends; returns the number of clicks.
async function playHuman(shotName, shotAt) {
  let clicks = 0;
  for (let guard = 0; guard < 20000; guard++) {
    await idle();
    const st = await status();
    if (st.node === 'end') return clicks;
    assert.equal(st.seat, '0', `the page waits for a human seat: ${st.text}`);
    if (clicks === shotAt) await page.screenshot({ path: path.join(SHOTS, shotName), fullPage: true });
    if (st.node === 'throw') {
      await page.click('#throw');
    } else {
      const decision = await page.$('#decisions button');
      const movable = await page.$$eval('#board rect.movable', (rs) => rs.map((r) => r.parentNode.dataset.square));
      if (movable.length) {
        const sq = movable[Math.floor(Math.random() * movable.length)];
        await page.click(`#board .piece[data-square="${sq}"]`);
        await page.waitForSelector('#board rect.target');
        const target = await page.$eval('#board rect.target', (r) => r.parentNode.dataset.square);
        await page.click(`#board .square[data-square="${target}"] rect`, { force: true });
        clicks++;
      } else {
        assert.ok(decision, `a decision with a button: ${st.text}`);
        choicesExplained.push(await page.$eval('#decision-help', (e) => (e.hidden ? '' : e.textContent)));
        await decision.click();
      }
    }
    clicks++;
  }
  throw new Error('the game did not end');
}

test('a whole Issiren game, human against an agent, by clicking pieces and the throw button', { timeout: 600_000 }, async () => {
  await newGame('issiren', 2, ['human', 'greedy'], 11);
  // Illegal clicks first: a piece when a throw is due, then an opponent's piece.
  await page.click('#board .piece[data-square="0"]');
  assert.match(await message(), /P1 must throw the sticks first/);
  await page.click('#board .piece[data-square="40"]');
  assert.match(await message(), /must throw|not P1's/);
  const clicks = await playHuman('issiren-play.png', 40);
  const st = await status();
  assert.match(st.text, /Game over: P[12] > P[12]|Game over: P1 = P2/);
  assert.ok(clicks > 10, `${clicks} clicks`);
  const log = await page.$$eval('#play-log li', (l) => l.map((x) => x.textContent));
  assert.ok(log.some((w) => /P1 moves the piece on [a-l][1-4] to [a-l][1-4]/.test(w)), 'moves in words');
  assert.ok(log.some((w) => /capturing P[12]'s piece/.test(w)), 'captures in words');
});

test('illegal clicks on an Issiren board are explained and change nothing', async () => {
  await newGame('issiren', 2, ['human', 'human'], 7);
  // P1 clicks `pass` itself below.
  await page.uncheck('#auto-pass');
  await page.fill('#marked', '2');
  await page.click('#enter-throw');
  await idle();
  // Two green sides up: no unmoved piece may move; the only action is pass.
  const before = await page.$eval('#state-json', (e) => e.textContent);
  await page.click('#board .piece[data-square="3"]');
  await idle();
  assert.match(await message(), /The piece on d1 cannot move: `d1` is not a legal action here; the legal actions are: pass/);
  await page.click('#board .piece[data-square="40"]');
  assert.match(await message(), /The piece on e4 is not P1's/);
  await page.click('#board .square[data-square="20"] rect');
  assert.match(await message(), /There is no piece on i2/);
  assert.equal(await page.$eval('#state-json', (e) => e.textContent), before);
  await page.click('#decisions button[data-action="pass"]');
  await idle();
  assert.equal((await status()).seat, '1');
  // Undo takes it back.
  await page.click('#undo');
  await idle();
  assert.equal((await status()).node, 'decide');
});

// Issue 40: a human had to click `pass` on every forced pass.
test('auto-pass: a human\'s forced pass is played for them, in the log; undo goes past it; it can be turned off', async () => {
  await newGame('issiren', 2, ['human', 'human'], 7);
  assert.equal(await page.isChecked('#auto-pass'), true, 'auto-pass is on by default');
  // Two green sides up: no unmoved piece may move; P1's only action is pass.
  await page.fill('#marked', '2');
  await page.click('#enter-throw');
  await idle();
  let st = await status();
  assert.deepEqual([st.node, st.seat], ['throw', '1'], st.text);
  const log = await page.$$eval('#play-log li', (l) => l.map((x) => [x.textContent, x.classList.contains('auto-pass')]));
  assert.match(log[0][0], /auto-pass: pass was P1's only legal action/);
  assert.equal(log[0][1], true);
  assert.equal(log.filter(([, a]) => a).length, 1);
  await page.screenshot({ path: path.join(SHOTS, 'auto-pass.png'), fullPage: true });
  // Undo takes back the pass and the throw: P1 throws again.
  await page.click('#undo');
  await idle();
  st = await status();
  assert.deepEqual([st.node, st.seat], ['throw', '0'], st.text);
  // Off: P1 clicks pass itself.
  await page.uncheck('#auto-pass');
  await page.fill('#marked', '2');
  await page.click('#enter-throw');
  await idle();
  st = await status();
  assert.deepEqual([st.node, st.seat], ['decide', '0'], st.text);
  assert.deepEqual(await page.$$eval('#decisions button', (b) => b.map((x) => x.dataset.action)), ['pass']);
  // Turned on again, it passes for P1 at once.
  await page.check('#auto-pass');
  await idle();
  st = await status();
  assert.deepEqual([st.node, st.seat], ['throw', '1'], st.text);
  assert.equal(await page.$$eval('#play-log li.auto-pass', (l) => l.length), 2);
});

test('a game of Sig wa Duqqan with three seats, thrown by clicking, then saved and replayed', { timeout: 600_000 }, async () => {
  await newGame('sig-wa-duqqan', 3, ['human', 'random', 'random'], 5);
  await playHuman('sig-wa-duqqan-play.png', 25);
  assert.match((await status()).text, /Game over/);
  await page.click('#save');
  await page.waitForFunction(() => /Saved in/.test(document.getElementById('message').textContent));
  await open('#replay');
  await page.waitForSelector('#games-table tbody tr');
  const rows = await page.$$eval('#games-table tbody tr', (r) => r.map((x) => x.textContent));
  assert.ok(rows.some((r) => r.includes('P1 human')), 'the saved game is listed');
});

test('a game of Sig (El Oued), thrown by clicking, with the leftover decision explained', { timeout: 600_000 }, async () => {
  choicesExplained.length = 0;
  await newGame('sig-el-oued', 2, ['human', 'greedy'], 3);
  await playHuman('sig-el-oued-play.png', 30);
  assert.match((await status()).text, /Game over/);
  // Each use/decline choice came with its explanation, in the rules' words.
  assert.ok(choicesExplained.length > 0, 'the game offered P1 a leftover choice');
  for (const text of choicesExplained) {
    assert.match(text, /^P1 chooses: use — P1 uses the \d+½? points? left at Mecca to walk the (djinn|mother) off the start; decline — P1 declines the \d+½? points? left at Mecca \(a declined rest is lost\)\.$/);
  }
});

// The four siblings (docs/games/, §5–§8): a whole game each, P1 played by clicking (its
// pieces where a decision names one, the throw button), against agents; a throw cap keeps
// each game quick.
const SIBLINGS = [
  ['sig-el-oued-capture', 2, ['human', 'greedy'], 3, 20, { max_throws: 300 }],
  ['siryu-race', 3, ['human', 'mcts:iterations=100,playout=random', 'random'], 4, 20, { max_throws: 150 }],
  ['sig-wa-duqqan-houmt-taourit', 3, ['human', 'random', 'random'], 5, 40, { max_throws: 150 }],
  ['siryu-war', 2, ['human', 'greedy'], 6, 30, { max_throws: 300 }],
];
for (const [game, players, seats, seed, shotAt, options] of SIBLINGS) {
  test(`a whole game of ${game}, P1 by clicking`, { timeout: 600_000 }, async () => {
    await newGame(game, players, seats, seed, options);
    // The board is drawn from the geometry: every square, the tracks' arrows.
    const geo = await (await fetch(`${BASE}/api/geometry/${game}?players=${players}`)).json();
    assert.equal(await page.$$eval('#board .square', (q) => q.length), geo.squares.length);
    assert.equal(await page.$$eval('#board line.arrow', (a) => a.length), geo.arrows.length);
    const clicks = await playHuman(`${game}-play.png`, shotAt);
    assert.match((await status()).text, /Game over/);
    assert.ok(clicks > 5, `${clicks} clicks`);
  });
}

test('Siryu (War): a click on a locked piece is answered by the rules; the loop back to l2 is drawn', async () => {
  await newGame('siryu-war', 2, ['human', 'human'], 1);
  await page.uncheck('#auto-pass');
  // Three white sides up: no sir, so every piece of P1 stays locked; only pass is legal.
  await page.fill('#marked', '3');
  await page.click('#enter-throw');
  await idle();
  const st = await status();
  assert.equal(st.node, 'decide', st.text);
  const before = await page.$eval('#state-json', (e) => e.textContent);
  await page.click('#board .piece[data-square="0"]');
  await idle();
  assert.match(await message(), /^The piece on a1 cannot move: /);
  assert.equal(await page.$eval('#state-json', (e) => e.textContent), before);
  const geo = await (await fetch(`${BASE}/api/geometry/siryu-war`)).json();
  assert.deepEqual(geo.tracks.map((t) => t.loops_to), [12, 12]);
  assert.equal(geo.chosen_by, 'square');
});

test('Siryu (Race): a click on a piece that cannot move is answered by the rules, naming the piece', async () => {
  await newGame('siryu-race', 2, ['human', 'human'], 1);
  const geo = await (await fetch(`${BASE}/api/geometry/siryu-race?players=2`)).json();
  assert.equal(geo.chosen_by, 'piece');
  // Throw until P1 has a decision where one of its pieces cannot move.
  for (let i = 0; i < 200; i++) {
    const st = await status();
    if (st.node === 'end') break;
    if (st.node === 'throw') { await page.click('#throw'); await idle(); continue; }
    const view = await page.evaluate(() => ({
      moves: [...document.querySelectorAll('#board rect.movable')].map((r) => +r.parentNode.dataset.square),
    }));
    const pieces = await page.$$eval(`#board .piece[data-seat="${st.seat}"]`, (p) => p.map((x) => ({ sq: +x.dataset.square, kind: x.dataset.kind })));
    const stuck = pieces.find((p) => !view.moves.includes(p.sq));
    if (stuck) {
      const before = await page.$eval('#state-json', (e) => e.textContent);
      await page.click(`#board .piece[data-square="${stuck.sq}"][data-seat="${st.seat}"]`);
      await idle();
      assert.match(await message(), new RegExp(`^P${+st.seat + 1}'s ${stuck.kind} cannot move: `));
      assert.equal(await page.$eval('#state-json', (e) => e.textContent), before);
      return;
    }
    if (view.moves.length) {
      await page.click(`#board .piece[data-square="${view.moves[0]}"]`);
      await page.waitForSelector('#board rect.target');
      const target = await page.$eval('#board rect.target', (r) => r.parentNode.dataset.square);
      await page.click(`#board .square[data-square="${target}"] rect`, { force: true });
    } else {
      await page.click('#decisions button');
    }
    await idle();
  }
  assert.fail('no decision with a piece that cannot move');
});

// Described games (docs/games/): each board drawn from its geometry alone (squares, each
// seat's track, holding squares, the road, stacks, teams), a throw and a move made by
// clicking, and a logged game stepped through in the replay. [game, seats, tournament
// index of .ci/web.sh, pieces at the start, screenshot]
const DESCRIBED = [
  ['tab', 2, 8, 14, 'tab-board.png'],
  ['es-sig', 2, 9, 0, 'es-sig-board.png'],
  ['sig-western-sahara', 4, 10, 40, 'sig-western-sahara-board.png'],
];

// Throws (by the throw button) and plays the seats' decisions by clicking until a piece
// has been moved by clicking it and then its target; returns the target's square.
async function throwAndMoveByClicking() {
  for (let i = 0; i < 60; i++) {
    await idle();
    const st = await status();
    assert.notEqual(st.node, 'end', 'the game ended before a move by clicking');
    if (st.node === 'throw') { await page.click('#throw'); continue; }
    const movable = await page.$$eval('#board rect.movable', (rs) => rs.map((r) => r.parentNode.dataset.square));
    if (!movable.length) { await page.click('#decisions button'); continue; }
    await page.click(`#board .piece[data-square="${movable[0]}"][data-seat]`);
    await page.waitForSelector('#board rect.target');
    const target = await page.$eval('#board rect.target', (r) => r.parentNode.dataset.square);
    const before = await page.$eval('#state-json', (e) => e.textContent);
    await page.click(`#board .square[data-square="${target}"] rect`, { force: true });
    await idle();
    assert.notEqual(await page.$eval('#state-json', (e) => e.textContent), before, 'the click moved');
    return target;
  }
  throw new Error('no move by clicking in 60 steps');
}

for (const [game, players, t, startPieces, shot] of DESCRIBED) {
  test(`${game}: the board drawn from its geometry, a throw and a move by clicking, a replay`, { timeout: 300_000 }, async () => {
    const geo = await (await fetch(`${BASE}/api/geometry/${game}?players=${players}`)).json();
    await newGame(game, players, Array(players).fill('human'), 3);
    assert.equal(await page.$$eval('#board .square', (q) => q.length), geo.squares.length);
    assert.equal(await page.$$eval('#board .track', (q) => q.length), geo.tracks.length);
    assert.deepEqual(await page.$$eval('#board .track', (q) => q.map((x) => +x.dataset.squares)), geo.tracks.map((x) => x.squares.length));
    assert.equal(await page.$$eval('#board rect.hold', (q) => q.length), geo.holds.length);
    assert.equal(await page.$$eval('#board rect.road', (q) => q.length), geo.road.length);
    // Pieces on the board, a stack counting as its pieces.
    const onBoard = () => page.$$eval('#board .piece', (p) => p.reduce((n, x) => n + +x.dataset.count, 0));
    assert.equal(await onBoard(), startPieces);
    await page.screenshot({ path: path.join(SHOTS, shot), fullPage: true });
    if (geo.chaser) {
      // The throws move the pieces (the only decisions are the chaser's, late): thrown by
      // clicking until the first piece stands on the board.
      for (let i = 0; i < 20 && (await onBoard()) === 0; i++) {
        await page.click('#throw');
        await idle();
      }
      assert.equal(await onBoard(), 1);
    } else {
      await throwAndMoveByClicking();
      // The first move cannot capture: as many pieces on the board.
      assert.equal(await onBoard(), startPieces);
    }
    const key = await page.$eval('#offboard', (e) => e.textContent);
    if (geo.stacks) assert.match(key, /stack/);
    if (geo.teams.length) assert.match(key, /team 1 \(P1, P3\)/);
    if (geo.holds.length) assert.match(key, /hold a piece/);
    // The replay of a logged game: the drawn board at the start and after steps, the text
    // board as `stickdice replay` prints it.
    const boards = replayBoards(path.join(FIXTURES, game), 1);
    await open(`#replay/${t}/1`);
    await page.waitForSelector('#replay-board .square');
    assert.equal(await page.$$eval('#replay-board .square', (q) => q.length), geo.squares.length);
    const last = boards.length - 1;
    for (const k of [1, 2, last]) {
      await page.fill('#jump', String(k));
      await page.click('#jump-go');
      assert.equal(await page.$eval('#replay-board-text', (e) => e.textContent.trimEnd()), boards[k], `${game}, move ${k}`);
    }
    // The chaser, once a seat has got out, drawn at the end of the game.
    if (geo.chaser) assert.equal(await page.$$eval('#replay-board .piece.chaser', (q) => q.length), 1);
    await page.click('#back');
    assert.equal(await page.$eval('#replay-board-text', (e) => e.textContent.trimEnd()), boards[last - 1]);
  });
}

test('described boards: a stack is drawn once with its count, the chaser apart, holding squares badged', async () => {
  await open('#play');
  const geo = await (await fetch(`${BASE}/api/geometry/es-sig?players=2`)).json();
  const drawn = await page.evaluate(async (g) => {
    const { drawBoard } = await import('/assets/board.js');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const piece = (square, seat, kind) => ({ square, seat, kind, letter: seat === null ? 'G' : '', active: false, status: '', text: kind });
    drawBoard(svg, { ...g, stacks: true }, [piece(0, 0, 'piece'), piece(0, 0, 'piece'), piece(0, 1, 'piece'), piece(5, null, 'chaser')]);
    return {
      pieces: [...svg.querySelectorAll('.piece')].map((p) => [p.dataset.square, p.dataset.count, p.classList.contains('chaser')]),
      counts: [...svg.querySelectorAll('.stack-count')].map((c) => c.textContent),
      badges: [...svg.querySelectorAll('.hold-text')].map((c) => c.textContent),
    };
  }, geo);
  assert.deepEqual(drawn.pieces, [['0', '2', false], ['0', '1', false], ['5', '1', true]]);
  assert.deepEqual(drawn.counts, ['2']);
  assert.deepEqual(drawn.badges, geo.holds.map((h) => `${h.throws}×${h.value}`));
});

test('entered throws: the count of marked sides of real sticks', async () => {
  await newGame('sig-wa-duqqan', 2, ['human', 'human'], 1);
  await page.fill('#marked', '1');
  await page.click('#enter-throw');
  await idle();
  const text = await page.$eval('#throw-text', (e) => e.textContent);
  assert.equal(text, 'P1: 1 white side up: sig (1), throw again; P1 leaves the start for idx 1');
  assert.equal(await page.$$eval('#sticks .stick.marked', (s) => s.length), 1);
  assert.equal(await page.$$eval('#sticks .stick.unmarked', (s) => s.length), 3);
  await page.fill('#marked', '9');
  await page.click('#enter-throw');
  await idle();
  assert.match(await message(), /9 marked sides up is impossible with 4 sticks|impossible/);
});

// The boards `stickdice replay` prints: the start, then one after each event.
function replayBoards(dir, index) {
  const out = execFileSync(BINARY, ['replay', dir, '--index', String(index)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const lines = out.split('\n');
  const boards = [];
  let cur = null;
  const isEvent = (l) => /^throw\s+\d+  P\d+: /.test(l) || /^ {12}P\d+ plays /.test(l);
  const isEnd = (l) => /^after \d+ throws, places:/.test(l) || /^P\d+ \(.*\) lost by /.test(l);
  for (const l of lines.slice(1)) {
    if (/^  P\d+: .* \(agent seed \d+\)$/.test(l) && cur === null && boards.length === 0) continue;
    if (isEvent(l) || isEnd(l)) {
      if (cur !== null) boards.push(cur.join('\n').trimEnd());
      cur = isEnd(l) ? null : [];
      if (isEnd(l)) break;
      continue;
    }
    if (cur === null) cur = [];
    cur.push(l);
  }
  return boards;
}

for (const [t, name] of [[0, 'issiren'], [1, 'duqqan'], [2, 'oued'], [4, 'capture'], [5, 'race'], [6, 'taourit'], [7, 'war']]) {
  test(`replay of ${name}: the position at move k is the one stickdice replay prints`, { timeout: 300_000 }, async () => {
    const boards = replayBoards(path.join(FIXTURES, name), 1);
    assert.ok(boards.length > 10, `${boards.length} positions`);
    await open(`#replay/${t}/1`);
    await page.waitForSelector('#replay-board .square');
    const last = boards.length - 1;
    assert.equal(await page.$eval('#step-label', (e) => e.textContent), `move 0 of ${last}`);
    const ks = [0, 1, 2, 7, Math.floor(last / 3), Math.floor(last / 2), last - 1, last];
    for (const k of ks) {
      await page.fill('#jump', String(k));
      await page.click('#jump-go');
      const shown = await page.$eval('#replay-board-text', (e) => e.textContent.trimEnd());
      assert.equal(shown, boards[k], `${name}, move ${k}`);
      if (k === Math.floor(last / 2)) await page.screenshot({ path: path.join(SHOTS, `${name}-replay.png`), fullPage: true });
    }
    // Step forward and back.
    await page.fill('#jump', '3');
    await page.click('#jump-go');
    await page.click('#forward');
    assert.equal(await page.$eval('#replay-board-text', (e) => e.textContent.trimEnd()), boards[4]);
    await page.click('#back');
    await page.click('#back');
    assert.equal(await page.$eval('#replay-board-text', (e) => e.textContent.trimEnd()), boards[2]);
    // Autoplay at the fastest speed moves on by itself.
    await page.selectOption('#speed', '40');
    await page.click('#autoplay');
    await page.waitForFunction(() => /^move ([6-9]|\d\d+) /.test(document.getElementById('step-label').textContent));
    await page.click('#autoplay');
  });
}

// The per-move analysis (issue 12's review) beside each move of the replay, and the
// per-seat totals, for the race games (exact references) and Issiren (the stated search).
// The siblings have the analysis where their games provide `review`; otherwise the page
// says why there is none, in the server's words.
for (const [t, name] of [[2, 'oued'], [1, 'duqqan'], [0, 'issiren'], [4, 'capture'], [5, 'race'], [6, 'taourit'], [7, 'war']]) {
  test(`replay of ${name} shows the per-move analysis beside the moves`, { timeout: 300_000 }, async () => {
    const api = await (await fetch(`${BASE}/api/tournaments/${t}/games/1/review`)).json();
    if (t >= 4 && !api.ok) {
      await open(`#replay/${t}/1`);
      await page.waitForSelector('#replay-board .square');
      await page.waitForFunction(() => /^No per-move analysis: /.test(document.getElementById('replay-analysis').textContent));
      assert.equal(await page.$eval('#replay-analysis', (e) => e.textContent), `No per-move analysis: ${api.error.message}`);
      await page.screenshot({ path: path.join(SHOTS, `${name}-replay-no-analysis.png`), fullPage: true });
      return;
    }
    assert.equal(api.ok, true, JSON.stringify(api));
    const rv = api.review;
    await open(`#replay/${t}/1`);
    await page.waitForSelector('#review-totals tbody tr', { timeout: 120_000 });
    await idle();
    // One totals row per seat, with the server's figures.
    const rows = await page.$$eval('#review-totals tbody tr', (r) => r.map((x) => [...x.cells].map((c) => c.textContent)));
    assert.equal(rows.length, rv.seats);
    rv.summary.forEach((s, i) => {
      assert.equal(rows[i][0], `P${i + 1}`);
      assert.equal(rows[i][4], `${s.luck >= 0 ? '+' : '−'}${Math.abs(s.luck).toFixed(3)}`);
      assert.equal(rows[i][5], s.adjusted.toFixed(3));
      assert.equal(+rows[i][10], s.blunders);
    });
    // Beside every reviewed move: a throw's luck, a decision's error (or "forced").
    const notes = await page.$$eval('#replay-log li', (l) => l.map((x) => x.querySelector('.analysis')?.textContent ?? null));
    assert.equal(notes.filter((x) => x !== null).length, rv.steps.length);
    for (const st of rv.steps) {
      const note = notes[st.event];
      if (st.kind === 'throw') assert.match(note, /^luck P1 [+−]\d\.\d{3}, P2 /, `move ${st.event + 1}`);
      else if (st.forced) assert.equal(note, 'forced');
      else assert.ok(note.startsWith(`error ${st.error.toFixed(3)}`), `move ${st.event + 1}: ${note}`);
    }
    // The current move's analysis follows the steps.
    const first = rv.steps[0];
    await page.fill('#jump', String(first.event + 1));
    await page.click('#jump-go');
    assert.match(await page.$eval('#replay-step-analysis', (e) => e.textContent), /^Analysis: luck P1 /);
    if (name === 'oued') await page.screenshot({ path: path.join(SHOTS, 'oued-replay-analysis.png'), fullPage: true });
  });
}

test('the games table sorts and filters', async () => {
  await open('#replay');
  await page.waitForSelector('#games-table tbody tr');
  await page.click('#games-table th[data-key="throws"]');
  const throws = await page.$$eval('#games-table tbody tr', (r) => r.map((x) => +x.cells[5].textContent));
  assert.deepEqual(throws, [...throws].sort((a, b) => a - b));
  await page.click('#games-table th[data-key="throws"]');
  const down = await page.$$eval('#games-table tbody tr', (r) => r.map((x) => +x.cells[5].textContent));
  assert.deepEqual(down, [...down].sort((a, b) => b - a));
  await page.fill('#filter', 'Issiren');
  const titles = await page.$$eval('#games-table tbody tr', (r) => r.map((x) => x.cells[1].textContent));
  assert.ok(titles.length > 0);
  assert.ok(titles.every((x) => x.startsWith('Issiren')));
});

test('a damaged log, a missing game and unknown URLs give clear messages; the server stays up', async () => {
  await open('#replay');
  await page.waitForSelector('#folder-errors .folder-error');
  const errors = await page.$eval('#folder-errors', (e) => e.textContent);
  assert.match(errors, /the log is damaged: .*games\.jsonl line 2/);
  await open('#replay/0/999');
  await page.waitForFunction(() => /holds no game 999/.test(document.getElementById('message').textContent));
  await open('#replay/3/0');
  await page.waitForFunction(() => /the log is damaged/.test(document.getElementById('message').textContent));
  await open('#frobnicate');
  assert.match(await message(), /There is no page “#frobnicate”/);
  const res = await page.goto(`${BASE}/no/such/page`);
  assert.equal(res.status(), 404);
  assert.match(await page.textContent('#error'), /There is no page at \/no\/such\/page/);
  const api = await page.goto(`${BASE}/api/nothing`);
  assert.equal(api.status(), 404);
  const hello = await page.goto(`${BASE}/api/hello`);
  assert.equal(hello.status(), 200);
  assert.equal((await hello.json()).result.protocol, 'stickdice-serve');
});

test('the analysis view shows self-play figures, the length histogram and the ratings', { timeout: 120_000 }, async () => {
  await open('#analysis');
  await page.selectOption('#analysis-game', 'sig-el-oued');
  await page.fill('#analysis-games', '100');
  await page.fill('#analysis-options', 'cairo_always_three=true');
  await page.click('#analyse');
  await page.waitForSelector('#analysis-table', { timeout: 100_000 });
  assert.match(await page.textContent('#analysis-result h3'), /cairo_always_three=true/);
  const text = await page.$eval('#analysis-table', (e) => e.textContent);
  assert.match(text, /P1 ranks first/);
  assert.ok(await page.$('.histogram svg'));
  await page.waitForSelector('#ratings img');
  await page.screenshot({ path: path.join(SHOTS, 'analysis.png'), fullPage: true });
});

// Issue 40: the options field's example was Sig (El Oued)'s whatever the game chosen.
test('the analysis form names the chosen game\'s own rule options and seat counts', async () => {
  await open('#analysis');
  const games = (await (await fetch(`${BASE}/api/hello`)).json()).result.games;
  assert.ok(games.length > 1);
  for (const g of games) {
    await page.selectOption('#analysis-game', g.name);
    const [placeholder, min, max] = await page.$eval('#analysis-options', (e) => [e.placeholder, ...['min', 'max'].map((a) => document.getElementById('analysis-players')[a])]);
    const shown = placeholder.startsWith('none') ? [] : placeholder.split(' ').map((o) => o.split('='));
    assert.deepEqual(Object.fromEntries(shown), g.options, `${g.name}: ${placeholder}`);
    assert.deepEqual([+min, +max], [g.players.min, g.players.max], g.name);
    // The example fits its field.
    const [sw, cw] = await page.$eval('#analysis-options', (e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(sw <= cw, `${g.name}: the example is cut (${sw} px in ${cw} px)`);
  }
});

// Issue 40: the page's comparison had smaller defaults than `stickdice compare`'s, unsaid.
// The CLI's defaults: the numbers from its help, the skill trace from a quick run's settings.
test('the comparison form starts from stickdice compare\'s defaults', async () => {
  const help = execFileSync(BINARY, ['compare', '--help'], { encoding: 'utf8' });
  const dflt = (flag) => {
    // The flag where it is declared (at a line's start), not where another flag's help names it.
    const m = help.match(new RegExp(`^ +(?:-\\w, )?--${flag}(?![\\w-])[^\\n]*(?:\\n(?! +-)[^\\n]*)*?\\[default: ([^\\]]+)\\]`, 'm'));
    assert.ok(m, `no default for --${flag} in stickdice compare --help`);
    return m[1];
  };
  const small = { games: 20, detailed: 5, 'luck-games': 5, 'trace-rotations': 2 };
  const run = JSON.parse(execFileSync(BINARY, ['compare', '-g', 'sig-el-oued', ...Object.entries(small).flatMap(([k, v]) => [`--${k}`, String(v)]),
    '--threads', '1', '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  await open('#analysis');
  const form = await page.evaluate(() => Object.fromEntries(['agents', 'games', 'detailed', 'luck', 'trace', 'rotations', 'metrics', 'seed']
    .map((k) => [k, document.getElementById(`compare-${k}`).value.split(/\s+/).filter(Boolean).join(' ')])));
  assert.deepEqual(form, {
    agents: dflt('agents'), games: dflt('games'), detailed: dflt('detailed'), luck: dflt('luck-games'),
    trace: run.settings.trace.join(' '), rotations: dflt('trace-rotations'), metrics: '', seed: dflt('seed'),
  });
  assert.ok(run.settings.trace.length > 0);
  // The page says so, and what it does otherwise.
  assert.match(await page.textContent('#compare-defaults'), /defaults are those of stickdice compare.*time limit/s);
  // The trace's specs are shown whole.
  const [sw, cw, sh, ch] = await page.$eval('#compare-trace', (e) => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]);
  assert.ok(sw <= cw && sh <= ch, `the skill trace field is cut: ${sw}×${sh} px in ${cw}×${ch} px`);
  // The same settings give the command's figures.
  await page.click('#compare-remove-1');
  for (const [k, v] of Object.entries({ games: small.games, detailed: small.detailed, luck: small['luck-games'], rotations: small['trace-rotations'] })) {
    await page.fill(`#compare-${k}`, String(v));
  }
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/compare'), { timeout: 100_000 });
  await page.click('#compare-run');
  const web = (await (await answer).json()).comparison;
  const figures = (c) => c.results.map((r) => [r.label, r.rows.map((row) => row.metrics), r.skill_trace.map((t) => [t.agent, t.score, t.ci95])]);
  assert.deepEqual(figures(web), figures(run));
  assert.ok(run.results[0].skill_trace.length > 0);
});

// Issue 28: two readings of Sig (El Oued) compared by the server (the library's compare):
// the table with intervals, the starred significant differences, the library's charts.
test('the analysis view compares two readings: the table, the significant differences and the charts', { timeout: 120_000 }, async () => {
  await open('#analysis');
  // Two configurations to start with, ready to run (a game and its sibling); add a third,
  // then remove it.
  assert.deepEqual(await page.$$eval('.compare-game', (l) => l.map((s) => s.value)), ['sig-el-oued', 'sig-el-oued-capture']);
  assert.equal(await page.$$eval('.compare-config', (l) => l.length), 2);
  await page.click('#compare-add');
  await page.selectOption('#compare-game-2', 'issiren');
  assert.ok(await page.$('#compare-players-2'));
  await page.click('#compare-remove-2');
  assert.equal(await page.$$eval('.compare-config', (l) => l.length), 2);
  // A bad agent is refused with the server's typed error, and nothing is shown.
  await page.fill('#compare-agents', 'nobody');
  await page.click('#compare-run');
  await page.waitForSelector('#message.error');
  assert.match(await message(), /^Compare: .*nobody/);
  assert.equal(await page.$('#compare-table'), null);
  await page.fill('#compare-agents', 'random');
  // The same configuration twice is refused, naming both.
  await page.selectOption('#compare-game-1', 'sig-el-oued');
  await page.click('#compare-run');
  await page.waitForFunction(() => /again/.test(document.getElementById('message').textContent));
  assert.match(await message(), /^Compare: configuration 2 .* is configuration 1 .* again/);
  assert.equal(await page.$('#compare-table'), null);
  // The default reading against Cairo always giving three.
  await page.check('#compare-option-1-cairo_always_three');
  await page.fill('#compare-games', '100');
  await page.fill('#compare-detailed', '30');
  await page.fill('#compare-luck', '20');
  await page.fill('#compare-trace', '');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-table', { timeout: 100_000 });
  const heads = await page.$$eval('#compare-table th', (l) => l.map((x) => x.textContent));
  assert.deepEqual(heads, ['metric', 'sig-el-oued 2p', 'sig-el-oued 2p cairo_always_three=true']);
  // Solved: the expected length is exact in both; the difference is known, not tested:
  // marked ≠, not starred as significant (issue 39).
  const exact = await page.$$eval('#compare-table tr[data-metric="ExactDurationThrows"] td', (l) => l.map((x) => [x.textContent, x.className]));
  assert.match(exact[1][0], /^\d+\.\d+ exact$/);
  assert.match(exact[2][0], /^\d+\.\d+ exact ≠$/);
  assert.doesNotMatch(exact[2][1], /significant/);
  // An estimate with its interval.
  const balance = await page.$eval('#compare-table tr[data-metric="Balance"] td:nth-child(2)', (e) => e.textContent);
  // (Its ends instead where the interval is clipped to [0, 1].)
  assert.match(balance, /^\d\.\d{3} (± \d\.\d{3}|\[\d\.\d{3}, \d\.\d{3}\])/);
  assert.match(await page.textContent('#compare-differences'), /metrics tested differ.*; exactly different: .*ExactDurationThrows/);
  // The library's charts: one per metric, the profiles, the two family trees.
  assert.ok(await page.$('#compare-charts .compare-chart[data-metric="DurationThrows"] svg'));
  assert.ok(await page.$('#compare-profiles svg'));
  assert.equal(await page.$$eval('#compare-family .compare-tree svg', (l) => l.length), 2);
  await page.$eval('#compare-form', (e) => e.scrollIntoView());
  await page.screenshot({ path: path.join(SHOTS, 'compare.png') });
  await page.screenshot({ path: path.join(SHOTS, 'compare-full.png'), fullPage: true });
  // The table scrolls in its own box; the charts shrink: no sideways scrolling on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `the comparison is ${scroll} px wide in a ${inner} px window`);
  } finally {
    await page.setViewportSize({ width: 1400, height: 1000 });
  }
});

test('the page opens on a ready Issiren game, a human against a searcher', async () => {
  await open('#play');
  await page.waitForSelector('#board .square');
  assert.equal(await page.$eval('#game', (e) => e.value), 'issiren');
  assert.equal(await page.$eval('#seat-0', (e) => e.value), 'human');
  assert.match(await page.$eval('#seat-1', (e) => e.value), /^(expectimax|mcts|ismcts)/);
  const st = await status();
  assert.equal(st.node, 'throw');
  assert.equal(st.seat, '0');
  assert.equal(await page.$eval('#throw', (e) => e.disabled), false);
  assert.match(await page.textContent('#play-title'), /^Issiren .*P1 human, P2 expectimax/);
  // No debug line: the click-to-redraw time is measured for the tests, not shown.
  assert.equal(await page.$('#timing'), null);
  await page.click('#throw');
  await idle();
  assert.doesNotMatch(await page.textContent('body'), /click to redrawn/);
  assert.ok((await page.evaluate(() => window.stickdice.timings.length)) > 0);
  await page.screenshot({ path: path.join(SHOTS, 'landing.png'), fullPage: true });
});

// Issue 40: the page opened on Replay or Analysis had no game when Play was chosen (no
// board, every button enabled, the throw answered ``no session `null` ``). Each view is
// opened first, then each other is chosen by its tab; both must work.
const VIEWS = {
  async play(label) {
    await page.waitForSelector('#board .square', { timeout: 60_000 }).catch(async () => {
      assert.fail(`${label}: no board on the Play view; the message says: ${await message()}`);
    });
    await idle();
    const st = await status();
    assert.equal(st.node, 'throw', `${label}: ${st.text}`);
    assert.equal(await page.$eval('#throw', (e) => e.disabled), false, label);
    await page.click('#throw');
    await idle();
    assert.doesNotMatch(await message(), /session/, label);
    // P1's throw is in the log (the agent may have played after it).
    const log = await page.$$eval('#play-log li', (l) => l.map((x) => x.textContent));
    assert.ok(log.some((w) => /^P1: \d+ \w+ sides? up/.test(w)), `${label}: ${log.join(' / ')}`);
  },
  async replay(label) {
    await page.waitForSelector('#games-table tbody tr');
    await idle();
    assert.ok(await page.isVisible('#games-table'), label);
    assert.equal(await page.isVisible('#board'), false, label);
  },
  async analysis(label) {
    await page.waitForSelector('#ratings img');
    await idle();
    const games = (await (await fetch(`${BASE}/api/hello`)).json()).result.games;
    assert.equal(await page.$$eval('#analysis-game option', (o) => o.length), games.length, label);
    assert.equal(await page.$$eval('.compare-config', (l) => l.length), 2, label);
    assert.ok(await page.isVisible('#analyse'), label);
  },
};
for (const first of Object.keys(VIEWS)) {
  for (const then of Object.keys(VIEWS)) {
    if (first === then) continue;
    test(`the page opened on ${first}, then ${then} chosen: both views work`, { timeout: 120_000 }, async () => {
      const errors = pageErrors.length;
      await open(`#${first}`);
      if (first !== 'play') {
        // No game yet: the play buttons wait for one.
        for (const id of ['throw', 'enter-throw', 'hint', 'undo', 'save']) {
          assert.equal(await page.$eval(`#${id}`, (e) => e.disabled), true, `#${id} before a game`);
        }
      }
      await VIEWS[first](`#${first} first`);
      await page.click(`#tab-${then}`);
      await VIEWS[then](`#${then} after #${first}`);
      assert.deepEqual(pageErrors.slice(errors), []);
    });
  }
}

// Issue 40: the seat fields cut the default opponent's spec (expectimax:nodes=20000).
test('the seat fields show the whole agent spec they hold', async () => {
  await open('#play');
  const cut = async () => page.$$eval('#seats input', (l) => l.filter((e) => e.scrollWidth > e.clientWidth).map((e) => `${e.id} ${e.value}: ${e.scrollWidth} px in ${e.clientWidth} px`));
  assert.deepEqual(await cut(), []);
  await page.fill('#seat-1', 'mcts:iterations=2000,playout=random,exploration=1.4');
  assert.deepEqual(await cut(), []);
  await page.fill('#players', '3');
  await page.dispatchEvent('#players', 'change');
  assert.deepEqual(await cut(), []);
});

test('rule options: yes/no options are checkboxes, the fields stand apart, and they reach the game', async () => {
  await open('#play');
  await page.selectOption('#game', 'sig-el-oued');
  assert.equal(await page.$eval('#option-cairo_always_three', (e) => e.type), 'checkbox');
  assert.equal(await page.$eval('#option-max_throws', (e) => e.type), 'text');
  // Each field's tooltip is its option's help and values, from the game's table.
  const table = (await (await fetch(`${BASE}/api/hello`)).json()).result.games.find((g) => g.name === 'sig-el-oued').rule_options;
  const titles = await page.$$eval('#options label', (ls) => ls.map((l) => l.title));
  assert.deepEqual(titles, table.map((o) => `${o.help} (${o.allowed})`));
  assert.match(titles[1], /^entering Cairo costs 3 points.*\(true or false\)$/);
  const boxes = await page.$$eval('#options label', (ls) => ls.map((l) => {
    const r = l.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: l.textContent };
  }));
  assert.equal(boxes.length, 2);
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1], boxes[i]];
    const sameRow = a.top < b.bottom && b.top < a.bottom;
    assert.ok(!sameRow || b.left - a.right >= 8, `the option fields run together: ${JSON.stringify(boxes)}`);
  }
  await page.check('#option-cairo_always_three');
  await page.fill('#seat-1', 'greedy');
  await page.click('#new-game');
  await page.waitForSelector('#board .square');
  await idle();
  assert.match(await page.textContent('#play-title'), /cairo_always_three=true/);
});

test('Issiren: the figure-of-eight links between rows are drawn beside the board', async () => {
  await open('#play');
  await page.waitForSelector('#board path.link');
  const links = await page.$$eval('#board path.link', (ls) => ls.map((l) => `${l.dataset.from}>${l.dataset.to}`).sort());
  // P1's circuit: out along its home row to a1, up row 2 to l2, row 3 to a3, P2's home row to
  // l4, back down row 3 to a3, row 2 to l2, home; P2's uses the same six turns.
  assert.deepEqual(links, ['a1>a2', 'a3>a2', 'a3>a4', 'l2>l1', 'l2>l3', 'l4>l3']);
});

test('a favicon', async () => {
  await open('#play');
  const href = await page.$eval('link[rel="icon"]', (e) => e.href);
  for (const url of [href, `${BASE}/favicon.ico`]) {
    const res = await fetch(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml', url);
    assert.match(await res.text(), /^<svg/);
  }
});

// No sideways scrolling of the page, with every view open (the replay with its analysis).
async function assertFits(label) {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= inner, `${label}: the page is ${scroll} px wide in a ${inner} px window`);
}

for (const [width, height] of [[1280, 900], [390, 844]]) {
  test(`every view fits ${width} px without sideways overflow`, { timeout: 300_000 }, async () => {
    await page.setViewportSize({ width, height });
    try {
      await open('#play');
      await page.waitForSelector('#board .square');
      await assertFits(`${width} play`);
      await open('#replay');
      await page.waitForSelector('#games-table tbody tr');
      await assertFits(`${width} replay list`);
      await open('#replay/0/1');
      await page.waitForSelector('#review-totals tbody tr', { timeout: 120_000 });
      await idle();
      await page.fill('#jump', '20');
      await page.click('#jump-go');
      await assertFits(`${width} replay`);
      if (width >= 1280) {
        // Wide enough for the analysis table and the text board in full.
        for (const id of ['replay-analysis', 'replay-board-text']) {
          const [sw, cw] = await page.$eval(`#${id}`, (e) => [e.scrollWidth, e.clientWidth]);
          assert.ok(sw <= cw, `#${id} is cut: ${sw} px of content in ${cw} px`);
        }
      }
      await page.screenshot({ path: path.join(SHOTS, `replay-${width}.png`), fullPage: true });
      await open('#analysis');
      await assertFits(`${width} analysis`);
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  });
}

// Starts `stickdice web` in `cwd` with no folder named; returns what it printed and the
// tournaments it serves.
async function webIn(cwd) {
  const child = spawn(BINARY, ['web', '--port', '0', '--save-dir', path.join(cwd, 'saved')], { cwd });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  try {
    let url = null;
    for (let i = 0; i < 200 && !url; i++) {
      url = out.match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
      if (!url) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(url, `the server did not start: ${out}`);
    const t = await (await fetch(`${url}/api/tournaments`)).json();
    return { out, tournaments: t.tournaments };
  } finally {
    child.kill();
  }
}

test('stickdice web with no folder replays ./tournament-out when there is one, and says so', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stickdice-web-default-'));
  try {
    const none = await webIn(dir);
    assert.doesNotMatch(none.out, /tournament-out/);
    assert.equal(none.tournaments.length, 0);
    fs.cpSync(path.join(FIXTURES, 'issiren'), path.join(dir, 'tournament-out'), { recursive: true });
    const found = await webIn(dir);
    assert.match(found.out, /replaying \.\/tournament-out/);
    assert.equal(found.tournaments.length, 1);
    assert.equal(found.tournaments[0].path, 'tournament-out');
    assert.ok(found.tournaments[0].games.length > 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('click-to-redraw time (measured, not asserted) and no script errors', async () => {
  await newGame('issiren', 2, ['human', 'human'], 2);
  for (let i = 0; i < 30; i++) {
    const st = await status();
    if (st.node === 'end') break;
    if (st.node === 'throw') await page.click('#throw');
    else {
      const d = await page.$('#decisions button');
      const movable = await page.$$eval('#board rect.movable', (rs) => rs.map((r) => r.parentNode.dataset.square));
      if (movable.length) await page.click(`#board .piece[data-square="${movable[0]}"]`);
      else await d.click();
    }
    await idle();
  }
  const t = (await page.evaluate(() => window.stickdice.timings)).slice().sort((a, b) => a - b);
  const median = t[Math.floor(t.length / 2)];
  const p90 = t[Math.floor(t.length * 0.9)];
  console.log(`click to redrawn board: ${t.length} clicks, median ${median.toFixed(1)} ms, 90th percentile ${p90.toFixed(1)} ms, max ${t[t.length - 1].toFixed(1)} ms`);
  assert.deepEqual(pageErrors, []);
});
