// core/sync.js — the scribe's (and an arbiter's) offline scoresheet: moves,
// clock presses and signatures made at the table go into an ordered queue in
// IndexedDB (store "queue"), each with the ply it was made at and its own
// Idempotency-Key, and are sent one at a time, in order, whenever the
// network lets them: at once, again on the browser's "online" event, and
// after a reload or a closed tab (the page calls start(gid)). A lost answer
// is retried under the same key, so the server replays it and nothing is
// recorded twice.
//
// The queue stops at a conflict — a refusal that is not the network's:
// someone else recorded at that ply (409 stale_ply), the game ended
// (game_over), the token was reissued (401/403), or any other final
// refusal. Nothing is dropped: the page shows both versions and the scribe
// chooses (keepServer sets the device's moves aside in store "setaside",
// keepMine loads them over the server's as the table's record).
//
// Players never come here: their clocks are the server's, so a player's move
// goes through core/outbox.js and is refused when stale.
//
// Events on `events` (detail = {gid}): "change" (the queue or its conflict
// changed), "sent" (detail.view is the server's answer).

import { ApiError, request } from './http.js';
import * as db from './db.js';
import { play } from '../engine.js';

/** events tells the page what the queue does: "change" and "sent". */
export const events = new EventTarget();

/** policy is the retry timing in ms (tests shorten it). */
export const policy = { firstMs: 1000, maxMs: 10000 };

const games = new Map(); // gid → {entries, conflict, running, timer, attempts}

function emit(type, detail) {
  events.dispatchEvent(Object.assign(new Event(type), { detail }));
}

let seq = 0;
// Keys sort in the order the entries were made: time, then a counter.
const entryId = (gid) => `${gid}|${Date.now().toString(36).padStart(9, '0')}|${(++seq).toString(36).padStart(4, '0')}`;

function state(gid) {
  let g = games.get(gid);
  if (!g) {
    g = { entries: [], conflict: null, running: false, timer: 0, attempts: 0, loaded: null, unreachable: false };
    games.set(gid, g);
  }
  return g;
}

/** load reads what an earlier page left queued for gid; it resolves to the queue's state. */
export function load(gid) {
  const g = state(gid);
  if (!g.loaded) {
    g.loaded = db.all('queue').then((rows) => {
      const mine = rows.filter(([k]) => String(k).startsWith(`${gid}|`)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const have = new Set(g.entries.map((e) => e.id));
      g.entries = [...mine.map(([, e]) => e).filter((e) => !have.has(e.id)), ...g.entries].sort((a, b) => (a.id < b.id ? -1 : 1));
      const c = g.entries.find((e) => e.conflict);
      if (c) g.conflict = c.conflict;
      return g;
    }).catch(() => g);
  }
  return g.loaded;
}

/** entries lists gid's queued writes, oldest first. */
export function entries(gid) { return [...state(gid).entries]; }

/** conflict is gid's stopping refusal ({at, code, status, message, ply}), or null. */
export function conflict(gid) { return state(gid).conflict; }

/**
 * unreachable says whether gid's last send was lost on the network, until
 * one lands. The browser's navigator.onLine only knows whether the device
 * has a network at all: on a venue's Wi-Fi with no way out (or a page
 * reloaded offline, where Chromium may report online) it is true while
 * nothing gets through, and the scribe must still read "waiting", not
 * "sending".
 */
export function unreachable(gid) { return state(gid).unreachable; }

/** waitingMoves counts gid's queued moves. */
export function waitingMoves(gid) { return state(gid).entries.filter((e) => e.kind === 'move').length; }

/**
 * enqueue adds a write made at the table: kind "move" | "press" | "sign"
 * (or any other name), path under /games/{gid}, body, ply (the moves the
 * scribe saw), token. It is kept before it is sent.
 */
export async function enqueue(gid, { kind, path, body, ply, token }) {
  await load(gid);
  const g = state(gid);
  const entry = { id: entryId(gid), gid, kind, path, body, ply, token: token || '', key: globalThis.crypto.randomUUID(), created: Date.now() };
  g.entries.push(entry);
  await db.put('queue', entry.id, entry).catch(() => {});
  emit('change', { gid });
  kick(gid);
  return entry;
}

/** start loads gid's queue and sends what waits (a reload's or a closed tab's). */
export async function start(gid) {
  await load(gid);
  emit('change', { gid });
  kick(gid);
}

function later(gid) {
  const g = state(gid);
  clearTimeout(g.timer);
  const ms = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.max(0, g.attempts - 1));
  g.timer = setTimeout(() => kick(gid), Math.round(ms * (0.75 + Math.random() / 2)));
}

// Back online: try every queue at once rather than wait out the back-off.
// The browser's word that the network is back clears unreachable too: the
// sends it starts set it again if they are lost.
globalThis.addEventListener?.('online', () => {
  for (const [gid, g] of games) {
    g.unreachable = false;
    kick(gid);
  }
});

/** kick sends gid's queue in order, one write at a time, until it is empty, offline or stopped by a conflict. */
export async function kick(gid) {
  const g = state(gid);
  if (g.running || g.conflict) return;
  g.running = true;
  clearTimeout(g.timer);
  try {
    while (g.entries.length && !g.conflict) {
      const e = g.entries[0];
      let view;
      try {
        view = await request('POST', `/games/${encodeURIComponent(gid)}${e.path}`, { body: e.body, token: e.token, key: e.key });
      } catch (err) {
        const ae = err instanceof ApiError ? err : new ApiError(0, 'network', String((err && err.message) || err));
        if (ae.retryable) {
          g.attempts++;
          later(gid);
          if (ae.status === 0 && !g.unreachable) { g.unreachable = true; emit('change', { gid }); }
          return;
        }
        g.conflict = { id: e.id, ply: e.ply, kind: e.kind, status: ae.status, code: ae.code || (ae.status === 401 ? 'unauthorized' : ''), message: ae.message, rule: ae.rule || '', at: Date.now() };
        e.conflict = g.conflict;
        await db.put('queue', e.id, e).catch(() => {});
        emit('change', { gid });
        return;
      }
      g.attempts = 0;
      g.unreachable = false;
      g.entries.shift();
      await db.del('queue', e.id).catch(() => {});
      emit('sent', { gid, view, entry: e });
      emit('change', { gid });
    }
  } finally {
    g.running = false;
  }
}

/**
 * keepServer resolves a conflict for the server's version: the queued
 * writes are set aside on this device (store "setaside", with the
 * conflict), never lost, and the queue is emptied.
 */
export async function keepServer(gid, serverView) {
  const g = state(gid);
  const kept = { gid, at: Date.now(), conflict: g.conflict, entries: g.entries, serverMoves: serverView ? serverView.moves : [] };
  await db.put('setaside', `${gid}|${kept.at}`, kept).catch(() => {});
  for (const e of g.entries) await db.del('queue', e.id).catch(() => {});
  g.entries = [];
  g.conflict = null;
  g.unreachable = false; // nothing waits: the next send lost, if any, says so again
  emit('change', { gid });
}

/** setAside lists what keepServer kept for gid, oldest first. */
export async function setAside(gid) {
  const rows = await db.all('setaside').catch(() => []);
  return rows.filter(([k]) => String(k).startsWith(`${gid}|`)).map(([, v]) => v).sort((a, b) => a.at - b.at);
}

/**
 * mineOver is the record keepMine sends: the server's moves before the
 * conflict's ply, then the queued moves, as one PGN game in ICCS (the form
 * POST /games/{gid}/record reads, as a paper scoresheet is loaded).
 */
export function mineOver(serverView, queued) {
  const first = queued.find((e) => e.kind === 'move');
  const at = first ? first.ply : serverView.moves.length;
  const moves = serverView.moves.slice(0, at).concat(queued.filter((e) => e.kind === 'move').map((e) => e.body.move));
  const iccs = moves.map((m) => `${m.slice(0, 2)}-${m.slice(2)}`.toUpperCase());
  const rounds = [];
  for (let i = 0; i < iccs.length; i += 2) rounds.push(`${i / 2 + 1}. ${iccs[i]}${iccs[i + 1] ? ` ${iccs[i + 1]}` : ''}`);
  const fen = serverView.startFen ? `[FEN "${serverView.startFen}"]\n` : '';
  return `[Game "Chinese Chess"]\n${fen}[Format "ICCS"]\n[Result "*"]\n\n${rounds.join(' ')} *\n`;
}

/**
 * keepMine resolves a conflict for this device's version: its moves replace
 * the server's from the conflict's ply on (POST /games/{gid}/record, which
 * the game's log keeps with who did it), then what else waits is sent.
 */
export async function keepMine(gid, serverView, token) {
  const g = state(gid);
  const text = mineOver(serverView, g.entries);
  const view = await request('POST', `/games/${encodeURIComponent(gid)}/record`, {
    body: text, token, contentType: 'text/plain; charset=utf-8', key: globalThis.crypto.randomUUID(),
  });
  const rest = g.entries.filter((e) => e.kind !== 'move' && e.kind !== 'press');
  for (const e of g.entries) if (!rest.includes(e)) await db.del('queue', e.id).catch(() => {});
  for (const e of rest) { delete e.conflict; await db.put('queue', e.id, e).catch(() => {}); }
  g.entries = rest;
  g.conflict = null;
  g.unreachable = false; // the record landed
  emit('sent', { gid, view });
  emit('change', { gid });
  kick(gid);
  return view;
}

/**
 * overlay is the game as the scribe's device has it: the server's view and
 * then the queued moves and presses, played by the rules engine in the
 * browser (the server's own rules, web/wasm), so legal targets, check and
 * mate are known with no network. A queued move the view already holds (it
 * landed) is skipped; one that does not fit is where the queue will stop.
 */
export async function overlay(view, queued) {
  let out = { ...view, moves: [...(view.moves || [])], clocks: { ...(view.clocks || {}) } };
  for (const e of queued) {
    if (e.kind === 'move') {
      if (e.ply < out.ply && out.moves[e.ply] === e.body.move) continue; // landed already
      if (e.ply < out.ply) break; // the server has another move there: the conflict the queue stops at
      if (e.ply !== out.ply) break;
      let p;
      try { p = await play(out.fen, e.body.move); } catch { break; }
      out = { ...out, fen: p.fen, sideToMove: p.sideToMove, inCheck: p.inCheck, legalMoves: p.status === 'ongoing' ? p.legalMoves : [],
        ply: out.ply + 1, moves: [...out.moves, p.move], clocks: { ...out.clocks, awaitingPress: !e.body.press } };
    } else if (e.kind === 'press' && e.ply === out.ply) {
      out = { ...out, clocks: { ...out.clocks, awaitingPress: false } };
    }    else if (e.kind === 'sign' && !(out.signatures || []).some((x) => x.line === e.body.line)) {
      // signed on this device, not yet on the server: shown as waiting
      const sig = { line: e.body.line, name: e.body.name, refused: !!e.body.refused, strokes: e.body.strokes || [], at: new Date(e.created).toISOString(), by: 'scribe', pending: true };
      out = { ...out, signatures: [...(out.signatures || []), sig] };
    }
  }
  out.queued = queued.length;
  return out;
}

/** saveView keeps the last server view of gid on the device, for a page opened offline. */
export function saveView(gid, view) {
  if (view && view.id && !view.since) db.put('views', gid, view).catch(() => {});
}

/** lastView resolves to the view saveView kept for gid, or null. */
export async function lastView(gid) {
  return (await db.get('views', gid).catch(() => null)) || null;
}
