// pages/live/state.js — the broadcast page's state: the event, the round in
// play and one board per game of it, read from the API once and then kept
// current from the round channel's messages (core/live.js watchRound: one
// subscription for the whole round). LiveState does the reading; the
// exported functions below it are pure and unit-tested
// (web/unit/live-state.test.mjs): boardsOf builds the boards from a round and
// its games, applyMessage applies a move/result/clock message to them,
// clockMs and cycleSlice say what the view shows.

import { get } from '../../core/http.js';

const enc = encodeURIComponent;

/** LiveState reads one event's round in play and its games. */
export class LiveState {
  constructor(tid) {
    this.tid = tid;
    this.ev = null;
    this.round = null;
  }

  base() { return `/tournaments/${enc(this.tid)}`; }

  /**
   * load reads the event, its latest round and every game of that round
   * (each read is edge-cached for a second, so a hall of spectators costs
   * the origin one read per board) and returns {ev, round, boards}.
   */
  async load() {
    this.ev = await get(this.base());
    const n = this.ev.round;
    this.round = n ? await get(`${this.base()}/rounds/${n}`) : null;
    const pairings = (this.round && this.round.pairings) || [];
    const games = await Promise.all(pairings.map((p) => (p.gameId ? this.game(p.gameId).catch(() => null) : null)));
    return { ev: this.ev, round: this.round, boards: boardsOf(this.round, games, Date.now()) };
  }

  /** game reads one game as the public sees it (GET /games/{gid}). */
  game(gid) { return get(`/games/${enc(gid)}`); }
}

/** lastOf is a game view's last move (ICCS), or "". */
const lastOf = (g) => (g && g.moves && g.moves.length ? g.moves[g.moves.length - 1] : '');

/**
 * boardsOf makes the page's boards from a round's pairings and their games
 * (games[i] is pairing i's GET /games/{gid}, or null when it could not be
 * read), in table order. A board: {gid, table, red, black, fen, ply, move,
 * clocks, status, result, reason, at} where at is the local time (ms) its
 * clocks were read.
 */
export function boardsOf(round, games, now) {
  const pairings = (round && round.pairings) || [];
  return pairings
    .map((p, i) => ({ p, g: games[i] || null }))
    .filter(({ p }) => p.gameId)
    .map(({ p, g }) => ({
      gid: p.gameId, table: p.table, red: p.redName || '', black: p.blackName || '',
      fen: g ? g.fen : '', ply: g ? g.ply || (g.moves || []).length : 0, move: lastOf(g),
      clocks: g ? g.clocks || null : null, status: g ? g.status : (p.result ? 'finished' : 'playing'),
      result: (g && g.result) || p.result || '', reason: (g && g.reason) || '', at: now,
    }))
    .sort((a, b) => a.table - b.table);
}

/** boardFromGame is a board re-read from its game view (a poll, a delayed notice). */
export function boardFromGame(board, g, now) {
  return { ...board, fen: g.fen, ply: g.ply || (g.moves || []).length, move: lastOf(g), clocks: g.clocks || null,
    status: g.status, result: g.result || '', reason: g.reason || '', at: now };
}

/**
 * applyMessage returns the boards after one round-channel message (move,
 * result or clock), as a new array with only the changed board replaced,
 * or the same array when the message changes nothing: an unknown game, or a
 * ply older than the board's (messages may arrive out of order; a clock
 * message repeating the board's ply updates its clocks). at is the local
 * time the message arrived (msg.receivedAt, else now).
 */
export function applyMessage(boards, msg, now = Date.now()) {
  if (!msg || !['move', 'result', 'clock'].includes(msg.type)) return boards;
  const i = boards.findIndex((b) => b.gid === msg.game);
  if (i < 0) return boards;
  const b = boards[i];
  const ply = typeof msg.ply === 'number' ? msg.ply : b.ply;
  if (ply < b.ply) return boards;
  const next = { ...b, ply, at: msg.receivedAt || now };
  if (msg.fen) next.fen = msg.fen;
  if (msg.move && (ply > b.ply || msg.type === 'move')) next.move = msg.move;
  if (msg.clocks) next.clocks = msg.clocks;
  if (msg.status) next.status = msg.status;
  if (msg.type === 'result') {
    next.result = msg.result || next.result;
    next.reason = msg.reason || next.reason;
    next.status = msg.status || 'finished';
  }
  const out = boards.slice();
  out[i] = next;
  return out;
}

/**
 * clockMs is a board's side's time left at now (local ms): the reading in
 * its clocks, less the time since it was read while that side's clock runs;
 * null for an untimed game or one without clocks.
 */
export function clockMs(board, side, now) {
  const c = board.clocks;
  if (!c || c.untimed) return null;
  const face = c[side];
  let ms = face && typeof face.remainingMs === 'number' ? face.remainingMs : c[`${side}Ms`];
  if (typeof ms !== 'number') return null;
  if (c.running === side && board.status === 'playing') ms -= now - board.at;
  return Math.max(0, ms);
}

/** sideToMove is who moves next on a board's position ("red" / "black"). */
export const sideToMove = (board) => (String(board.fen || '').split(' ')[1] === 'b' ? 'black' : 'red');

/**
 * cycleSlice is the part of the boards a cycling venue screen shows at step
 * (0, 1, 2, …): pages of perPage boards in table order, wrapping round.
 * It returns {start, end, page, pages}.
 */
export function cycleSlice(count, perPage, step) {
  const per = Math.max(1, perPage);
  const pages = Math.max(1, Math.ceil(count / per));
  const page = ((step % pages) + pages) % pages;
  const start = page * per;
  return { start, end: Math.min(count, start + per), page, pages };
}

/** optionsOf reads the page's query (in the browser only: the server never sees it): ?cycle=1&per=8&every=15. */
export function optionsOf(search) {
  const q = new URLSearchParams(search);
  const num = (k, d, lo, hi) => {
    const v = Number(q.get(k));
    return Number.isFinite(v) && v >= lo && v <= hi ? Math.floor(v) : d;
  };
  return { cycle: q.get('cycle') === '1', per: num('per', 8, 1, 64), every: num('every', 15, 3, 600) };
}
