// Draws a board, its pieces and the sticks as SVG from what the server sends: the
// geometry of the game (squares, tracks, arrows), the placed pieces and the legal moves.
// No rule of any game is here.

const NS = 'http://www.w3.org/2000/svg';
const CELL = 64;
const PAD = 10;

// Okabe–Ito: distinguishable with every common colour-vision deficiency; each seat also
// has its own shape and number.
export const SEAT_COLOURS = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#999999'];
const SHAPES = ['circle', 'square', 'diamond', 'triangle', 'hexagon', 'pentagon', 'star', 'octagon'];

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function polygon(cx, cy, r, n, rot, starInner = 0) {
  const pts = [];
  const k = starInner ? 2 * n : n;
  for (let i = 0; i < k; i++) {
    const a = rot + (2 * Math.PI * i) / k;
    const rr = starInner && i % 2 ? r * starInner : r;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

function shape(kind, cx, cy, r, attrs, parent) {
  switch (kind) {
    case 'square': return el('rect', { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: 2, ...attrs }, parent);
    case 'diamond': return el('polygon', { points: polygon(cx, cy, r * 1.1, 4, 0), ...attrs }, parent);
    case 'triangle': return el('polygon', { points: polygon(cx, cy + r * 0.15, r * 1.15, 3, -Math.PI / 2), ...attrs }, parent);
    case 'hexagon': return el('polygon', { points: polygon(cx, cy, r, 6, 0), ...attrs }, parent);
    case 'pentagon': return el('polygon', { points: polygon(cx, cy, r * 1.05, 5, -Math.PI / 2), ...attrs }, parent);
    case 'star': return el('polygon', { points: polygon(cx, cy, r * 1.15, 5, -Math.PI / 2, 0.55), ...attrs }, parent);
    case 'octagon': return el('polygon', { points: polygon(cx, cy, r, 8, Math.PI / 8), ...attrs }, parent);
    default: return el('circle', { cx, cy, r, ...attrs }, parent);
  }
}

// How far a link between rows bulges out of the board.
const LINK_BULGE = 22;

// Where a track passes from a square at the board's left or right edge to the square above
// or below it (Issiren's figure-of-eight turns between rows) and no arrow of the geometry
// already joins the two: {from, to, side} (side -1 left, +1 right), once each. Read from the
// tracks the server sends; no rule is here.
export function rowLinks(geometry) {
  const centre = (sq) => [sq.x + 0.5, sq.y + 0.5];
  const onArrow = (p, a) => {
    const [px, py] = p;
    const cross = (a.x2 - a.x1) * (py - a.y1) - (a.y2 - a.y1) * (px - a.x1);
    const within = px >= Math.min(a.x1, a.x2) - 0.51 && px <= Math.max(a.x1, a.x2) + 0.51
      && py >= Math.min(a.y1, a.y2) - 0.51 && py <= Math.max(a.y1, a.y2) + 0.51;
    return Math.abs(cross) < 1e-6 && within;
  };
  const joined = (a, b) => geometry.arrows.some((ar) => ar.y1 !== ar.y2 && onArrow(centre(a), ar) && onArrow(centre(b), ar));
  const seen = new Set();
  const out = [];
  for (const t of geometry.tracks || []) {
    const n = t.squares.length;
    // Each step of the track, and the step past its last square where the track goes on
    // (`loops_to`: back to its start, or, in Siryu (War), to its 13th square).
    const next = (i) => (i + 1 < n ? t.squares[i + 1] : t.squares[t.loops_to]);
    for (let i = 0; i < (t.loops_to === null || t.loops_to === undefined ? n - 1 : n); i++) {
      const from = t.squares[i];
      const to = next(i);
      const a = geometry.squares[from];
      const b = geometry.squares[to];
      const edge = a.x === 0 ? -1 : a.x === geometry.width - 1 ? 1 : 0;
      if (!edge || a.x !== b.x || Math.abs(a.y - b.y) !== 1 || joined(a, b)) continue;
      const key = `${from}>${to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ from, to, side: edge });
    }
  }
  return out;
}

// Draws `geometry` with `pieces` into `svg`. `opts`: moves (legal moves with from/to),
// selected (a square), onSquare(square) for clicks.
export function drawBoard(svg, geometry, pieces, opts = {}) {
  svg.replaceChildren();
  // Rows named as a whole (Issiren's home rows) get their name once, at the right.
  const rowNames = new Map();
  for (const sq of geometry.squares) {
    if (sq.name && sq.name.endsWith('home row')) rowNames.set(sq.y, sq.name);
  }
  // A board without arrows has its tracks drawn whole (below), links and all.
  const links = geometry.arrows.length ? rowLinks(geometry) : [];
  // Room outside the board for the links' curves, left and right.
  const LEFT = links.some((l) => l.side < 0) ? LINK_BULGE + 6 : 0;
  const RIGHT = links.some((l) => l.side > 0) ? LINK_BULGE + 6 : 0;
  const W = geometry.width * CELL + 2 * PAD + LEFT + RIGHT + (rowNames.size ? 110 : 0);
  const H = geometry.height * CELL + 2 * PAD;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  svg.dataset.game = geometry.game;
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrowhead', markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L8,4 L0,8 z', fill: '#7a6a55' }, marker);
  const X = (x) => PAD + LEFT + x * CELL;
  const Y = (y) => PAD + y * CELL;
  const moves = opts.moves || [];
  const from = new Set(moves.filter((m) => m.from !== null).map((m) => m.from));
  const targets = new Set(moves.filter((m) => m.from === opts.selected && m.to !== null).map((m) => m.to));

  const holds = new Map((geometry.holds || []).map((h) => [h.square, h]));
  const road = new Set(geometry.road || []);
  const squares = el('g', { class: 'squares' }, svg);
  geometry.squares.forEach((sq, i) => {
    const g = el('g', { class: 'square', 'data-square': i, 'data-label': sq.label }, squares);
    let cls = 'cell';
    if (sq.special) cls += ' special';
    if (holds.has(i)) cls += ' hold';
    if (road.has(i)) cls += ' road';
    if (sq.name === 'start') cls += ' start';
    if (from.has(i)) cls += ' movable';
    if (i === opts.selected) cls += ' selected';
    if (targets.has(i)) cls += ' target';
    el('rect', { x: X(sq.x) + 1, y: Y(sq.y) + 1, width: CELL - 2, height: CELL - 2, rx: 4, class: cls }, g);
    const label = el('text', { x: X(sq.x) + 4, y: Y(sq.y) + 12, class: 'label' }, g);
    label.textContent = sq.label;
    if (sq.name && !sq.name.endsWith('home row')) {
      const name = el('text', { x: X(sq.x) + CELL / 2, y: Y(sq.y) + CELL - 4, class: 'name', 'text-anchor': 'middle' }, g);
      if (sq.name.length > 10) { name.setAttribute('textLength', CELL - 6); name.setAttribute('lengthAdjust', 'spacingAndGlyphs'); }
      name.textContent = sq.name;
    }
    const hold = holds.get(i);
    if (hold) {
      // A holding square: its throws × value, in a corner badge.
      el('rect', { x: X(sq.x) + CELL - 27, y: Y(sq.y) + 3, width: 24, height: 12, rx: 3, class: 'hold-badge' }, g);
      const h = el('text', { x: X(sq.x) + CELL - 15, y: Y(sq.y) + 12.5, 'text-anchor': 'middle', class: 'hold-text' }, g);
      h.textContent = `${hold.throws}×${hold.value}`;
    }
    const t = el('title', {}, g);
    t.textContent = (sq.name ? `${sq.label}: ${sq.name}` : sq.label)
      + (hold ? ` (holding square: a piece stays until it has thrown ${hold.value} ${hold.throws} time${hold.throws === 1 ? '' : 's'})` : '')
      + (road.has(i) ? ' (off the grid)' : '');
    if (opts.onSquare) g.addEventListener('click', () => opts.onSquare(i));
  });
  for (const [y, name] of rowNames) {
    const t = el('text', { x: X(geometry.width) + RIGHT + 8, y: Y(y) + CELL / 2 + 4, class: 'name' }, svg);
    t.textContent = name;
  }
  const arrows = el('g', { class: 'arrows' }, svg);
  for (const a of geometry.arrows) {
    el('line', { x1: X(a.x1), y1: Y(a.y1), x2: X(a.x2), y2: Y(a.y2), class: 'arrow', 'marker-end': 'url(#arrowhead)' }, arrows);
  }
  // A board whose geometry gives no arrows: each track drawn as a thin line in its seat's
  // colour (shifted a little per track so that tracks sharing squares stay apart), from a
  // dot on its start to an arrowhead on its end, dashed back to where it goes on.
  if (!geometry.arrows.length) drawTracks(svg, defs, geometry, arrows, X, Y);
  // The links from the end of one row to the next, curved outside the board.
  for (const l of links) {
    const a = geometry.squares[l.from];
    const b = geometry.squares[l.to];
    const x0 = l.side < 0 ? X(0) : X(geometry.width);
    const xb = x0 + l.side * LINK_BULGE;
    const ya = Y(a.y + 0.5);
    const yb = Y(b.y + 0.5);
    el('path', {
      d: `M${x0},${ya} C${xb},${ya} ${xb},${yb} ${x0 - l.side * 2},${yb}`,
      class: 'link', 'marker-end': 'url(#arrowhead)', 'data-from': a.label, 'data-to': b.label,
    }, arrows);
  }

  // Pieces, grouped by square; where pieces stack, a seat's pieces on one square are one
  // stack, drawn once with its count.
  const bySquare = new Map();
  for (const p of pieces) {
    if (p.square === null) continue;
    if (!bySquare.has(p.square)) bySquare.set(p.square, []);
    const list = bySquare.get(p.square);
    const stack = geometry.stacks && p.seat !== null && list.find((q) => q.seat === p.seat);
    if (stack) {
      stack.count += 1;
      stack.text = `${stack.count} of P${p.seat + 1}'s pieces stacked on ${geometry.squares[p.square].label}`;
    } else list.push({ ...p, count: 1 });
  }
  const layer = el('g', { class: 'pieces' }, svg);
  for (const [sqi, list] of bySquare) {
    const sq = geometry.squares[sqi];
    const n = list.length;
    const cols = Math.ceil(Math.sqrt(n));
    const rows = Math.ceil(n / cols);
    const step = (CELL - 22) / Math.max(cols, rows);
    const r = Math.min(step * 0.42, 17);
    list.forEach((p, j) => {
      const cx = X(sq.x) + 11 + step * ((j % cols) + 0.5) + ((Math.max(cols, rows) - cols) * step) / 2;
      const cy = Y(sq.y) + 12 + step * (Math.floor(j / cols) + 0.5) + ((Math.max(cols, rows) - rows) * step) / 2;
      const chaser = p.seat === null && p.kind === geometry.chaser;
      const g = el('g', {
        class: `piece seat-${p.seat === null ? 'neutral' : p.seat} ${p.status} ${p.active ? 'active' : ''}${chaser ? ' chaser' : ''}`,
        'data-square': sqi, 'data-seat': p.seat === null ? '' : p.seat, 'data-kind': p.kind, 'data-count': p.count,
      }, layer);
      const fill = chaser ? '#8b1a1a' : p.seat === null ? '#222' : SEAT_COLOURS[p.seat % 8];
      const kind = p.seat === null ? 'octagon' : SHAPES[p.seat % 8];
      if (p.active) shape(kind, cx, cy, r + 3.5, { fill: 'none', stroke: '#111', 'stroke-width': 2 }, g);
      if (chaser) shape(kind, cx, cy, r + 4, { fill: 'none', stroke: '#8b1a1a', 'stroke-width': 2, 'stroke-dasharray': '3 2' }, g);
      shape(kind, cx, cy, r, {
        fill, stroke: p.status === 'unmoved' || p.status === 'locked' ? '#333' : '#111',
        'stroke-width': p.status === 'unmoved' || p.status === 'locked' ? 1.6 : 1.2,
        'stroke-dasharray': p.status === 'unmoved' || p.status === 'locked' ? '3 2' : 'none',
        class: 'body',
      }, g);
      const label = el('text', { x: cx, y: cy + r * 0.38, 'text-anchor': 'middle', class: 'piece-label', 'font-size': Math.max(8, r * 1.0) }, g);
      label.textContent = p.seat === null ? p.letter : `${p.seat + 1}${p.letter}${p.status === 'returning' ? "'" : ''}`;
      if (p.seat === null || p.seat === 4 || p.seat === 6) label.setAttribute('fill', '#fff');
      if (chaser) label.style.fill = '#fff';
      if (p.count > 1) {
        // The stack's count, in a badge on its upper right.
        el('circle', { cx: cx + r * 0.8, cy: cy - r * 0.8, r: 7.5, class: 'stack-badge' }, g);
        const c = el('text', { x: cx + r * 0.8, y: cy - r * 0.8 + 3.5, 'text-anchor': 'middle', class: 'stack-count' }, g);
        c.textContent = p.count;
      }
      const t = el('title', {}, g);
      t.textContent = p.text;
      if (opts.onSquare) g.addEventListener('click', (ev) => { ev.stopPropagation(); opts.onSquare(sqi); });
    });
  }
}

// Each track of `geometry` as a thin line in its seat's colour (a shared track in brown).
function drawTracks(svg, defs, geometry, layer, X, Y) {
  const tracks = geometry.tracks || [];
  tracks.forEach((t, ti) => {
    if (!t.squares.length) return;
    const colour = t.seat === null || t.seat === undefined ? '#7a6a55' : SEAT_COLOURS[t.seat % 8];
    const head = el('marker', { id: `track-head-${ti}`, markerWidth: 7, markerHeight: 7, refX: 5, refY: 3.5, orient: 'auto' }, defs);
    el('path', { d: 'M0,0 L7,3.5 L0,7 z', fill: colour }, head);
    const shift = tracks.length > 1 ? (ti - (tracks.length - 1) / 2) * 6 : 0;
    const at = (i) => {
      const sq = geometry.squares[i];
      return [X(sq.x + 0.5) + shift, Y(sq.y + 0.5) + shift];
    };
    // The corners of the track only (squares in a straight run in between left out).
    const pts = t.squares.map(at);
    const corners = pts.filter((p, i) => {
      if (i === 0 || i === pts.length - 1) return true;
      const [a, b] = [pts[i - 1], pts[i + 1]];
      return (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0]) !== 0 || (b[0] - p[0]) * (p[0] - a[0]) + (b[1] - p[1]) * (p[1] - a[1]) < 0;
    });
    const g = el('g', { class: 'track', 'data-seat': t.seat ?? '', 'data-squares': t.squares.length }, layer);
    el('polyline', {
      points: corners.map((p) => p.join(',')).join(' '), fill: 'none', stroke: colour, 'stroke-width': 2.2,
      opacity: 0.7, 'marker-mid': `url(#track-head-${ti})`, 'marker-end': `url(#track-head-${ti})`, class: 'track-line',
    }, g);
    el('circle', { cx: pts[0][0], cy: pts[0][1], r: 4, fill: colour, class: 'track-start' }, g);
    if (t.loops_to !== null && t.loops_to !== undefined && t.squares.length > 1) {
      const [a, b] = [pts[pts.length - 1], pts[t.loops_to]];
      el('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: colour, 'stroke-width': 1.6, 'stroke-dasharray': '4 3', opacity: 0.7, 'marker-end': `url(#track-head-${ti})`, class: 'track-loop' }, g);
    }
  });
}

// What the drawing's marks mean for this board, in words (teams, stacks, holding squares,
// the road, the chaser), from its geometry: one line each, none for a plain board.
export function boardKey(geometry) {
  const lines = [];
  const teams = geometry.teams || [];
  if (teams.length) {
    const byTeam = new Map();
    teams.forEach((team, seat) => byTeam.set(team, [...(byTeam.get(team) || []), `P${seat + 1}`]));
    lines.push(`Teams: ${[...byTeam].map(([team, seats]) => `team ${team + 1} (${seats.join(', ')}) plays the ${SHAPES[team % 8]}s numbered ${team + 1}`).join('; ')}.`);
  }
  if (geometry.stacks) lines.push("A seat's pieces on one square are a stack: the badge counts them.");
  if ((geometry.holds || []).length) lines.push('Squares with a badge n×v hold a piece until it has thrown v n times.');
  if ((geometry.road || []).length) lines.push(`${geometry.road.length} square${geometry.road.length === 1 ? '' : 's'} off the grid (the road) drawn dashed.`);
  if (geometry.chaser) lines.push('The chaser is the dark red piece with a dashed ring.');
  if (!geometry.arrows.length && (geometry.tracks || []).length) lines.push("Each track is drawn in its seat's colour, from the dot at its start.");
  return lines;
}

// The pieces off the board (the Ghoula before its first step, buried pieces), in words,
// what the state holds beside (`tallies`: stored or held values), and the board's key.
export function offBoard(div, pieces, tallies = [], geometry = null) {
  const off = pieces.filter((p) => p.square === null).map((p) => p.text);
  div.replaceChildren();
  const line = (text, cls) => {
    const p = document.createElement('div');
    p.className = cls;
    p.textContent = text;
    div.appendChild(p);
  };
  if (off.length) line(`Off the board: ${off.join('; ')}.`, 'off');
  for (const t of tallies || []) line(t, 'tally');
  for (const k of geometry ? boardKey(geometry) : []) line(k, 'board-key');
}

const FACE_COLOURS = {
  white: '#f7f5ee', green: '#3d8b4f', polished: '#f1dfa6', rough: '#7b5230', black: '#2b2622',
};

// Draws `faces.count` sticks, `marked` of them with the marked side up.
export function drawSticks(svg, faces, marked) {
  svg.replaceChildren();
  const n = faces.count;
  const W = n * 26 + 10;
  svg.setAttribute('viewBox', `0 0 ${W} 96`);
  svg.setAttribute('width', W);
  svg.setAttribute('height', 96);
  if (marked === null || marked === undefined) return;
  svg.dataset.marked = marked;
  for (let i = 0; i < n; i++) {
    const up = i < marked;
    const face = up ? faces.marked : faces.unmarked;
    const tilt = ((i * 37) % 11) - 5;
    const g = el('g', { transform: `rotate(${tilt} ${18 + i * 26} 44)`, class: `stick ${up ? 'marked' : 'unmarked'}` }, svg);
    el('rect', { x: 10 + i * 26, y: 6, width: 16, height: 76, rx: 7, fill: FACE_COLOURS[face] || '#ccc', stroke: '#333', 'stroke-width': 1.2 }, g);
    if (up) el('line', { x1: 18 + i * 26, y1: 14, x2: 18 + i * 26, y2: 74, stroke: '#333', 'stroke-width': 1, 'stroke-dasharray': '4 4' }, g);
    const t = el('title', {}, g);
    t.textContent = `${face} side up`;
  }
  const cap = el('text', { x: W / 2, y: 94, 'text-anchor': 'middle', class: 'label' }, svg);
  cap.textContent = `${marked} ${faces.marked} up`;
}
