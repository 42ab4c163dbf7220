// pages/live/view.js — the broadcast page drawn from its state: pure, no
// I/O. view(s, act, islands) returns virtual nodes: the event's name and
// round, then one card per board (table, Black's name and clock above the
// mini board, Red's below, the last move or the result), each a link to the
// game page. The mini boards are DOM islands (board.js, view-only) the page
// keeps across redraws. On a phone the cards are a list; at ≥1280 px a grid
// of large boards (style.css .live-boards); with ?cycle=1 only one page of
// boards shows at a time.

import { t } from '../../core/i18n.js';
import { island, v } from '../../core/view.js';
import { formatClock } from '../../clock.js';
import { resultName, reasonText } from '../../names.js';
import { clockMs, cycleSlice, sideToMove } from './state.js';

const enc = encodeURIComponent;

function clock(b, side, now) {
  const ms = clockMs(b, side, now);
  const running = b.status === 'playing' && b.clocks && b.clocks.running === side;
  return v('span', { class: `clock live-clock${running ? ' clock-running' : ''}`, 'data-side': side },
    ms === null ? t('clock.untimed') : formatClock(ms));
}

function side(b, s, now) {
  const name = s === 'red' ? b.red : b.black;
  return v('div', { class: `live-side live-${s}${b.status === 'playing' && sideToMove(b) === s ? ' to-move' : ''}` },
    v('span', { class: 'live-name' }, v('span', { class: `dot dot-${s}`, 'aria-hidden': 'true' }), name),
    clock(b, s, now));
}

function lastLine(b) {
  if (b.result) {
    return v('p', { class: 'live-last live-result' }, resultName(b.result) + (b.reason ? ` · ${reasonText(b.reason)}` : ''));
  }
  return v('p', { class: 'live-last' }, b.ply ? t('live.last', { n: Math.ceil(b.ply / 2), move: b.move }) : t('live.notStarted'));
}

function card(b, islands, now) {
  return v('li', { key: b.gid, class: 'live-item' },
    v('a', { class: 'live-board', href: `/g/${enc(b.gid)}`, 'data-game': b.gid, 'data-ply': String(b.ply) },
    v('span', { class: 'live-table' }, t('live.table', { n: b.table })),
    side(b, 'black', now),
    island(`mini-${b.gid}`, islands.get(b.gid), 'div', { class: 'live-mini' }),
    side(b, 'red', now),
    lastLine(b)));
}

/**
 * view draws the page. s: {snap: {ev, round, boards} | null, loadError,
 * opts: {cycle, per}, step, now}; islands maps a game id to its mini board's
 * element.
 */
export function view(s, islands) {
  if (s.loadError) return v('p', { class: 'error', role: 'alert' }, s.loadError);
  if (!s.snap) return v('p', { class: 'muted' }, t('live.loading'));
  const { ev, round, boards } = s.snap;
  const head = v('header', { class: 'live-header', key: 'head' },
    v('h1', {}, ev.name),
    v('p', { class: 'live-meta' },
      round ? t('live.round', { n: round.round }) : t('pair.none'),
      ' · ', v('a', { href: `/t/${enc(s.snap.tid)}` }, t('live.back'))));
  if (!boards.length) return [head, v('p', { class: 'muted', key: 'none' }, t('live.none'))];
  let shown = boards;
  let pager = null;
  if (s.opts.cycle) {
    const c = cycleSlice(boards.length, s.opts.per, s.step);
    shown = boards.slice(c.start, c.end);
    pager = v('p', { class: 'live-pager muted', key: 'pager', 'aria-live': 'polite' }, t('live.page', { page: c.page + 1, pages: c.pages }));
  }
  return [head, pager,
    v('ul', { class: `live-boards${s.opts.cycle ? ` cycling cols-${Math.min(4, s.opts.per)}` : ''}`, key: 'boards', 'aria-label': t('live.boards') },
      shown.map((b) => card(b, islands, s.now)))];
}
