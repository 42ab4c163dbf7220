// board.js — xqtour's own xiangqi board, drawn as SVG (no third-party board
// code, so the client keeps the project's licence). Nine files by ten ranks,
// lines through the points' centres, the river 河界 and the palaces'
// diagonals; pieces are discs with their character. The characters are
// embedded as outlines (glyphs.js, from an OFL font) so a phone without a
// Chinese font shows them all the same.
//
// The board knows no rules: the targets it shows are the game view's
// legalMoves (ICCS such as "h2e2"), and a move is reported through onMove.
// Squares use ICCS names: file a–i from Red's left, rank 0–9 from Red's side.
//
// Every board of a page draws its characters from one shared sprite (a
// hidden <svg> of the glyph outlines, put in the document once), so fifty
// boards on a broadcast page carry one copy of the paths, not fifty. A
// view-only board (opts.viewOnly) is a picture: no focusable points, no
// pointer or keyboard handling — an image whose label says the position.

import { EM, GLYPHS } from './glyphs.js';
import { t } from './core/i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const STEP = 100; // distance between two points
const MX = 56; // margin left and right of the outer files
const MY = 112; // margin above and below the outer ranks (room for file numbers)
const W = MX * 2 + STEP * 8;
const H = MY * 2 + STEP * 9;
const R = 45; // a piece's radius
const FILES = 'abcdefghi';

/** The character each FEN letter shows, by side (Red upper case). */
// The rule book's own characters, traditional for both sides (000 ch.2 §1):
// red 帥 車 馬 砲 相 仕 兵, black 將 車 馬 炮 象 士 卒.
const NAMES = {
  red: { k: '帥', a: '仕', b: '相', e: '相', n: '馬', h: '馬', r: '車', c: '砲', p: '兵' },
  black: { k: '將', a: '士', b: '象', e: '象', n: '馬', h: '馬', r: '車', c: '炮', p: '卒' },
};

let boards = 0;

/** SPRITE is the id of the document's one glyph sprite. */
const SPRITE = 'xq-glyphs';
const glyphId = (ch) => `xq-g-${ch.codePointAt(0).toString(16)}`;
const glyphRef = (ch) => `#${glyphId(ch)}`;

/** ensureSprite puts the glyph outlines into the document once (a hidden <svg> of <path>s). */
export function ensureSprite(doc = document) {
  if (doc.getElementById(SPRITE)) return;
  const svg = doc.createElementNS(NS, 'svg');
  svg.id = SPRITE;
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'xq-sprite');
  svg.setAttribute('width', '0');
  svg.setAttribute('height', '0');
  const defs = doc.createElementNS(NS, 'defs');
  for (const [ch, d] of Object.entries(GLYPHS)) {
    const path = doc.createElementNS(NS, 'path');
    path.id = glyphId(ch);
    path.setAttribute('d', d);
    defs.appendChild(path);
  }
  svg.appendChild(defs);
  doc.body.prepend(svg);
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** parseFEN reads the placement field of a xiangqi FEN into {square: {side, kind}}. */
export function parseFEN(fen) {
  const out = {};
  const rows = String(fen || '').split(' ')[0].split('/');
  if (rows.length !== 10) return out;
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') { file += ch.charCodeAt(0) - 48; continue; }
      const lower = ch.toLowerCase();
      let kind = lower === 'h' ? 'n' : lower === 'e' ? 'b' : lower;
      if (!'kabnrcp'.includes(kind)) kind = 'p';
      if (file < 9) out[FILES[file] + rank] = { side: ch === lower ? 'black' : 'red', kind };
      file++;
    }
  });
  return out;
}

/** sideToMoveOf reads the side to move from a FEN ("w"/"r" red, "b" black). */
export function sideToMoveOf(fen) {
  return String(fen || '').split(' ')[1] === 'b' ? 'black' : 'red';
}

/** isICCS says whether a move is written as ICCS ("h2e2"). */
export const isICCS = (m) => typeof m === 'string' && /^[a-i][0-9][a-i][0-9]$/.test(m);

/** pieceName is a piece's accessible name, such as "红炮" or "black cannon". */
export function pieceName(p) {
  const side = t(`board.${p.side}`);
  const name = t(p.side === 'black' ? `piece.black.${p.kind}` : `piece.${p.kind}`);
  return document.documentElement.lang.startsWith('zh') ? side + name : `${side} ${name}`;
}

/**
 * createBoard draws a board into el. opts: {orientation: "red"|"black",
 * onMove(iccs), label, viewOnly}. It returns {set(state), setOrientation(o), focus(),
 * destroy()} where state may hold {fen, legalMoves, lastMove, check, movable,
 * pending}: check is "red"/"black" (that king is highlighted), movable says
 * whether the reader may move now, pending is a move shown as made while it
 * waits for confirmation.
 */
export function createBoard(host, opts = {}) {
  const id = `xqb${++boards}`;
  const viewOnly = !!opts.viewOnly;
  ensureSprite();
  const st = {
    orientation: opts.orientation === 'black' ? 'black' : 'red',
    fen: '', pieces: {}, legal: [], lastMove: '', check: '', movable: false, pending: '',
    selected: '', focus: 'e0', drag: null, slide: '', justMoved: '',
  };
  const wrap = document.createElement('div');
  wrap.className = 'xq-board';
  const desc = document.createElement('p');
  desc.className = 'visually-hidden';
  desc.id = `${id}-desc`;
  const help = document.createElement('p');
  help.className = 'visually-hidden';
  help.id = `${id}-help`;
  help.textContent = t('board.help');
  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`, role: viewOnly ? 'img' : 'group', class: `xq-svg${viewOnly ? ' xq-view-only' : ''}`,
    'aria-label': opts.label || t('board.label'), 'aria-describedby': viewOnly ? `${id}-desc` : `${id}-desc ${id}-help`,
  });
  wrap.append(svg, desc);
  if (!viewOnly) wrap.append(help);
  host.appendChild(wrap);

  const scale = 58 / EM;

  const gLines = el('g', { class: 'xq-lines', 'aria-hidden': 'true' }, svg);
  const gMarks = el('g', { class: 'xq-marks', 'aria-hidden': 'true' }, svg);
  const gPieces = el('g', { class: 'xq-pieces', 'aria-hidden': 'true' }, svg);
  const gHints = el('g', { class: 'xq-hints', 'aria-hidden': 'true' }, svg);
  const gPoints = el('g', { class: 'xq-points' }, svg);
  const gDrag = el('g', { class: 'xq-drag', 'aria-hidden': 'true' }, svg);

  // display position of an ICCS square for the current orientation
  const pos = (sq) => {
    const f = sq.charCodeAt(0) - 97;
    const r = sq.charCodeAt(1) - 48;
    return st.orientation === 'red'
      ? { x: MX + f * STEP, y: MY + (9 - r) * STEP }
      : { x: MX + (8 - f) * STEP, y: MY + r * STEP };
  };
  const squareAt = (col, row) => {
    // col 0–8 left to right, row 0–9 top to bottom, as displayed
    const f = st.orientation === 'red' ? col : 8 - col;
    const r = st.orientation === 'red' ? 9 - row : row;
    return FILES[f] + r;
  };
  const gridOf = (sq) => {
    const p = pos(sq);
    return { col: Math.round((p.x - MX) / STEP), row: Math.round((p.y - MY) / STEP) };
  };

  function drawGrid() {
    gLines.replaceChildren();
    gMarks.replaceChildren();
    el('rect', { x: 0, y: 0, width: W, height: H, rx: 18, class: 'xq-wood' }, gLines);
    const x0 = MX; const x1 = MX + 8 * STEP; const y0 = MY; const y1 = MY + 9 * STEP;
    el('rect', { x: x0 - 10, y: y0 - 10, width: 8 * STEP + 20, height: 9 * STEP + 20, class: 'xq-frame', fill: 'none' }, gLines);
    const path = [];
    for (let r = 0; r < 10; r++) path.push(`M${x0} ${y0 + r * STEP}H${x1}`);
    for (let f = 0; f < 9; f++) {
      const x = x0 + f * STEP;
      if (f === 0 || f === 8) path.push(`M${x} ${y0}V${y1}`);
      else path.push(`M${x} ${y0}V${y0 + 4 * STEP}M${x} ${y0 + 5 * STEP}V${y1}`);
    }
    // palaces: files d–f, the three ranks nearest each side
    for (const top of [0, 7]) {
      const ya = y0 + top * STEP; const yb = ya + 2 * STEP;
      path.push(`M${x0 + 3 * STEP} ${ya}L${x0 + 5 * STEP} ${yb}M${x0 + 5 * STEP} ${ya}L${x0 + 3 * STEP} ${yb}`);
    }
    // the small corner marks at the cannons' and soldiers' starting points
    const marks = [];
    const cross = (col, row) => {
      const cx = x0 + col * STEP; const cy = y0 + row * STEP; const g = 8; const l = 18;
      for (const dx of [-1, 1]) {
        if ((col === 0 && dx < 0) || (col === 8 && dx > 0)) continue;
        for (const dy of [-1, 1]) {
          marks.push(`M${cx + dx * (g + l)} ${cy + dy * g}H${cx + dx * g}V${cy + dy * (g + l)}`);
        }
      }
    };
    for (const row of [2, 7]) for (const col of [1, 7]) cross(col, row);
    for (const row of [3, 6]) for (const col of [0, 2, 4, 6, 8]) cross(col, row);
    el('path', { d: path.join(''), class: 'xq-line', fill: 'none' }, gLines);
    el('path', { d: marks.join(''), class: 'xq-mark', fill: 'none' }, gLines);
    // the river's words, upright for the reader
    // (the seed renames 楚河汉界 to 河界: 河 on the left half, 界 on the right)
    const words = ['河', '界'];
    const ry = y0 + 4.5 * STEP;
    const xs = [x0 + 1.6 * STEP, x0 + 6.4 * STEP];
    const size = 62; const sc = size / EM;
    words.forEach((ch, i) => {
      el('use', { href: glyphRef(ch), class: 'xq-river', transform: `translate(${xs[i] - size / 2} ${ry - size / 2}) scale(${sc})` }, gLines);
    });
    // Chinese numerals as outlines (no font needed), Black's digits as text
    const label = (txt, x, y) => {
      if (GLYPHS[txt]) {
        const size = 36; const sc = size / EM;
        el('use', { href: glyphRef(txt), class: 'xq-coord-glyph', transform: `translate(${x - size / 2} ${y - size / 2}) scale(${sc})` }, gMarks);
      } else {
        const e = el('text', { x, y, class: 'xq-coord', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, gMarks);
        e.textContent = txt;
      }
    };
    // file numbers: Red counts 一…九 from its right, Black 1…9 from its right
    const zh = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    for (let col = 0; col < 9; col++) {
      const f = st.orientation === 'red' ? col : 8 - col;
      const redNum = zh[8 - f];
      const blackNum = String(f + 1);
      const bottom = st.orientation === 'red' ? redNum : blackNum;
      const top = st.orientation === 'red' ? blackNum : redNum;
      const x = x0 + col * STEP;
      label(top, x, 40);
      label(bottom, x, H - 40);
    }
  }

  function drawPiece(parent, p, x, y, extra = '') {
    const g = el('g', { class: `xq-piece xq-${p.side}${extra}`, transform: `translate(${x} ${y})` }, parent);
    el('circle', { r: R, class: 'xq-disc' }, g);
    el('circle', { r: R - 7, class: 'xq-ring', fill: 'none' }, g);
    const ch = NAMES[p.side][p.kind];
    el('use', { href: glyphRef(ch), class: 'xq-glyph', transform: `translate(-29 -29) scale(${scale})` }, g);
    return g;
  }

  // pieces as shown: the position with a pending move applied (display only)
  function shownPieces() {
    const pcs = { ...st.pieces };
    if (isICCS(st.pending)) {
      const from = st.pending.slice(0, 2); const to = st.pending.slice(2);
      if (pcs[from]) { pcs[to] = pcs[from]; delete pcs[from]; }
    }
    return pcs;
  }

  const targetsOf = (sq) => (st.movable && !st.pending ? st.legal.filter((m) => m.startsWith(sq)).map((m) => m.slice(2)) : []);

  // slide shows a move made elsewhere (the opponent's, a scribe's) by moving
  // its piece from the square it left; reduced motion skips it.
  const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  function slide(g, from, x, y) {
    st.slide = '';
    if (still || !g.animate) return;
    const a = pos(from);
    g.animate([{ transform: `translate(${a.x}px, ${a.y}px)` }, { transform: `translate(${x}px, ${y}px)` }],
      { duration: 180, easing: 'ease-out' });
  }

  function render() {
    const pcs = shownPieces();
    gPieces.replaceChildren();
    gHints.replaceChildren();
    const lm = st.pending || st.lastMove;
    if (isICCS(lm)) {
      for (const sq of [lm.slice(0, 2), lm.slice(2)]) {
        const p = pos(sq);
        el('rect', { x: p.x - R - 3, y: p.y - R - 3, width: 2 * R + 6, height: 2 * R + 6, rx: 10, class: st.pending ? 'xq-pending' : 'xq-last' }, gPieces);
      }
    }
    for (const [sq, p] of Object.entries(pcs)) {
      const { x, y } = pos(sq);
      let extra = '';
      if (sq === st.selected) extra += ' xq-selected';
      if (st.check && p.kind === 'k' && p.side === st.check) extra += ' xq-check';
      if (st.drag && st.drag.from === sq && st.drag.moved) extra += ' xq-ghost';
      const g = drawPiece(gPieces, p, x, y, extra);
      if (st.slide && st.slide.slice(2) === sq) slide(g, st.slide.slice(0, 2), x, y);
    }
    if (st.selected) {
      for (const to of targetsOf(st.selected)) {
        const { x, y } = pos(to);
        if (pcs[to]) el('circle', { cx: x, cy: y, r: R + 2, class: 'xq-capture-hint', fill: 'none' }, gHints);
        else el('circle', { cx: x, cy: y, r: 16, class: 'xq-dot' }, gHints);
      }
    }
    labelPoints(pcs);
    describe(pcs);
  }

  // the 90 focusable points (roving tabindex), over everything else
  const points = {};
  function buildPoints() {
    gPoints.replaceChildren();
    if (viewOnly) return;
    for (let row = 0; row < 10; row++) {
      for (let col = 0; col < 9; col++) {
        const sq = squareAt(col, row);
        const g = el('g', { class: 'xq-point', role: 'button', tabindex: -1, 'data-square': sq }, gPoints);
        el('circle', { cx: MX + col * STEP, cy: MY + row * STEP, r: STEP / 2, class: 'xq-hit' }, g);
        el('circle', { cx: MX + col * STEP, cy: MY + row * STEP, r: R + 5, class: 'xq-focus', fill: 'none' }, g);
        points[sq] = g;
      }
    }
    points[st.focus].setAttribute('tabindex', '0');
  }

  function labelPoints(pcs) {
    if (viewOnly) return;
    const targets = st.selected ? new Set(targetsOf(st.selected)) : new Set();
    const lm = st.lastMove;
    for (const [sq, g] of Object.entries(points)) {
      const p = pcs[sq];
      const bits = [sq, p ? pieceName(p) : t('board.empty')];
      if (sq === st.selected) bits.push(t('board.selected'));
      if (targets.has(sq)) bits.push(t('board.target'));
      if (isICCS(lm) && (lm.startsWith(sq) || lm.endsWith(sq))) bits.push(t('board.lastMove'));
      if (p && st.check && p.kind === 'k' && p.side === st.check) bits.push(t('board.check'));
      g.setAttribute('aria-label', bits.join(', '));
      if (sq === st.selected) g.setAttribute('aria-pressed', 'true');
      else g.removeAttribute('aria-pressed');
    }
  }

  function describe(pcs) {
    const order = 'krcnbap';
    const parts = [];
    for (const side of ['red', 'black']) {
      const list = Object.entries(pcs).filter(([, p]) => p.side === side)
        .sort((a, b) => order.indexOf(a[1].kind) - order.indexOf(b[1].kind) || (a[0] < b[0] ? -1 : 1))
        .map(([sq, p]) => `${t(side === 'black' ? `piece.black.${p.kind}` : `piece.${p.kind}`)} ${sq}`);
      parts.push(t('board.pieces', { side: t(`board.${side}`), list: list.join(', ') }));
    }
    if (st.fen) parts.push(t(`board.toMove.${sideToMoveOf(st.fen)}`));
    if (st.check) parts.push(`${t(`board.${st.check}`)} ${t('board.check')}`);
    desc.textContent = parts.join('. ');
  }

  function setFocus(sq, move = true) {
    if (viewOnly || !points[sq]) return;
    points[st.focus].setAttribute('tabindex', '-1');
    st.focus = sq;
    points[sq].setAttribute('tabindex', '0');
    if (move) points[sq].focus();
  }

  // A tap (or Enter) on a point: pick a piece that can move, or move the
  // picked piece to a target, or drop the selection.
  function activate(sq) {
    if (!st.movable || st.pending) return;
    if (st.selected && st.selected !== sq) {
      const move = st.selected + sq;
      if (st.legal.includes(move)) {
        st.selected = '';
        render();
        if (opts.onMove) opts.onMove(move);
        return;
      }
    }
    if (st.selected === sq) st.selected = '';
    else st.selected = targetsOf(sq).length ? sq : '';
    render();
  }

  function pointFromEvent(ev) {
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    const col = Math.round((p.x - MX) / STEP); const row = Math.round((p.y - MY) / STEP);
    return { x: p.x, y: p.y, sq: col >= 0 && col < 9 && row >= 0 && row < 10 ? squareAt(col, row) : '' };
  }

  // Pointer: press on a movable piece picks it (and may drag it); release
  // over a target moves. A press and release elsewhere is a tap.
  svg.addEventListener('pointerdown', (ev) => {
    if (viewOnly || ev.button !== 0) return;
    const at = pointFromEvent(ev);
    if (!at || !at.sq) return;
    if (st.movable && !st.pending && st.pieces[at.sq] && targetsOf(at.sq).length) {
      st.drag = { from: at.sq, x0: at.x, y0: at.y, moved: false, id: ev.pointerId, wasSelected: st.selected === at.sq };
      if (st.selected !== at.sq) { st.selected = at.sq; render(); }
    } else {
      st.drag = { tap: at.sq, id: ev.pointerId };
    }
    try { svg.setPointerCapture(ev.pointerId); } catch { /* not capturable */ }
    ev.preventDefault();
  });
  svg.addEventListener('pointermove', (ev) => {
    const d = st.drag;
    if (!d || d.id !== ev.pointerId || d.tap) return;
    const at = pointFromEvent(ev);
    if (!at) return;
    if (!d.moved && Math.hypot(at.x - d.x0, at.y - d.y0) < 14) return;
    if (!d.moved) { d.moved = true; render(); }
    gDrag.replaceChildren();
    drawPiece(gDrag, st.pieces[d.from], at.x, at.y, ' xq-dragging');
  });
  const endDrag = (ev, cancelled) => {
    const d = st.drag;
    if (!d || d.id !== ev.pointerId) return;
    st.drag = null;
    gDrag.replaceChildren();
    const at = cancelled ? null : pointFromEvent(ev);
    if (d.tap) {
      if (at && at.sq === d.tap) { setFocus(at.sq, false); activate(at.sq); }
      return;
    }
    if (d.moved) {
      const move = at && at.sq ? d.from + at.sq : '';
      if (move && st.legal.includes(move)) {
        st.selected = '';
        render();
        st.justMoved = move;
        if (opts.onMove) opts.onMove(move);
        return;
      }
      render();
      return;
    }
    // a tap on a movable piece picked it already; a tap on the picked piece drops it
    if (d.wasSelected) { st.selected = ''; render(); }
    setFocus(d.from, false);
  };
  svg.addEventListener('pointerup', (ev) => endDrag(ev, false));
  svg.addEventListener('pointercancel', (ev) => endDrag(ev, true));
  svg.addEventListener('keydown', (ev) => {
    if (viewOnly) return;
    const cur = gridOf(st.focus);
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[ev.key]) {
      const [dc, dr] = dirs[ev.key];
      const col = Math.min(8, Math.max(0, cur.col + dc)); const row = Math.min(9, Math.max(0, cur.row + dr));
      setFocus(squareAt(col, row));
      ev.preventDefault();
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      activate(st.focus);
      ev.preventDefault();
    } else if (ev.key === 'Escape' && st.selected) {
      st.selected = '';
      render();
      ev.preventDefault();
    }
  });
  svg.addEventListener('focusin', (ev) => {
    const sq = ev.target && ev.target.getAttribute && ev.target.getAttribute('data-square');
    if (sq && sq !== st.focus) setFocus(sq, false);
  });

  function layout() {
    drawGrid();
    buildPoints();
    render();
  }
  layout();

  return {
    el: wrap,
    /** set updates what the board shows; fields left out keep their value. */
    set(s = {}) {
      const fresh = !st.fen;
      if ('fen' in s && s.fen !== st.fen) {
        st.fen = s.fen || '';
        st.pieces = parseFEN(st.fen);
        st.selected = '';
      }
      if ('legalMoves' in s) st.legal = (s.legalMoves || []).filter(isICCS);
      if ('lastMove' in s) {
        const next = isICCS(s.lastMove) ? s.lastMove : '';
        // a new last move that was not this board's own pending move slides in
        if (!fresh && next && next !== st.lastMove && next !== st.pending && next !== st.justMoved) st.slide = next;
        st.lastMove = next;
      }
      if ('check' in s) st.check = s.check === 'red' || s.check === 'black' ? s.check : '';
      if ('movable' in s) st.movable = !viewOnly && !!s.movable;
      if ('pending' in s) st.pending = isICCS(s.pending) ? s.pending : '';
      if (st.selected && !targetsOf(st.selected).length) st.selected = '';
      render();
    },
    /** setOrientation turns the board so that side sits at the bottom. */
    setOrientation(o) {
      const next = o === 'black' ? 'black' : 'red';
      if (next === st.orientation) return;
      st.orientation = next;
      layout();
    },
    /** orientation is the side shown at the bottom. */
    get orientation() { return st.orientation; },
    /** focus puts the keyboard focus on the board. */
    focus() { if (!viewOnly) points[st.focus].focus(); },
    /** destroy removes the board. */
    destroy() { wrap.remove(); },
  };
}
