// core/outbox.js — every write of the client goes through here. A write is
// an entry {id, method, path, body, token, key, …} kept in IndexedDB (the
// "outbox" store) until the server has answered it: sent, or refused. Each
// attempt carries the entry's one Idempotency-Key, so a retry after a lost
// answer replays that answer instead of acting twice. Network loss, 429 and
// 5xx are retried with exponential back-off (Retry-After when the server
// names it; at once when the browser comes back online); any other refusal
// is final. A page that reloads resumes what its predecessor left unsent.
//
// A write whose effect can be seen in a later read says how: settle
// {game: gid, ply: n} (a move at ply n). Before each retry the game is read
// and, when it is past ply n or over, the write is settled by that view
// without being sent again (the move landed, or the game went on).
//
// Events on `events` (an EventTarget), detail = the entry: "queued" (the
// write waits for a retry), "sent" (detail.response holds the answer) and
// "refused" (detail.error holds the ApiError).

import { ApiError, request, get } from './http.js';
import * as db from './db.js';

/** events tells the page what the outbox does: "queued", "sent", "refused". */
export const events = new EventTarget();

/** policy is the retry timing, in ms (unit tests shorten it). */
export const policy = { firstMs: 1000, maxMs: 30000, attempts: 8 };

const waiting = new Map(); // id → {resolve, reject, onQueued}
const live = new Map(); // id → entry, while this page handles it

function emit(type, entry) {
  events.dispatchEvent(Object.assign(new Event(type), { detail: entry }));
}

/** delay is how long to wait before attempt n (1-based) after err: Retry-After, else back-off with jitter. */
export function delay(n, err) {
  if (err && err.retryAfter) return err.retryAfter * 1000;
  const base = Math.min(policy.maxMs, policy.firstMs * 2 ** Math.max(0, n - 1));
  return Math.round(base * (0.75 + Math.random() / 2));
}

let seq = 0;
const newId = () => `${Date.now().toString(36)}-${(++seq).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * send queues a write and returns a promise of the server's answer (the
 * parsed JSON, or the text when opts.as is "text"); it rejects with the
 * ApiError of a final refusal. opts: {body, token, key, contentType, as,
 * headers, settle, onQueued}; onQueued(entry) is called each time the
 * write waits for a retry.
 */
export function send(method, path, opts = {}) {
  const { onQueued, ...rest } = opts;
  const entry = {
    id: newId(), method, path, body: rest.body, token: rest.token || '', key: rest.key || globalThis.crypto.randomUUID(),
    contentType: rest.contentType || '', as: rest.as || 'json', headers: rest.headers || null, settle: rest.settle || null,
    created: Date.now(), attempts: 0,
  };
  const done = new Promise((resolve, reject) => waiting.set(entry.id, { resolve, reject, onQueued }));
  live.set(entry.id, entry);
  db.put('outbox', entry.id, entry).catch(() => {});
  attempt(entry);
  return done;
}

/** post is send('POST', …). */
export const post = (path, body, opts = {}) => send('POST', path, { ...opts, body });

/** pending lists the writes not yet answered that this page handles. */
export function pending() { return [...live.values()]; }

function finish(entry, type, value) {
  live.delete(entry.id);
  db.del('outbox', entry.id).catch(() => {});
  const w = waiting.get(entry.id);
  waiting.delete(entry.id);
  if (type === 'sent') {
    emit('sent', { ...entry, response: value });
    if (w) w.resolve(value);
  } else {
    emit('refused', { ...entry, error: value });
    if (w) w.reject(value);
  }
}

// settled reads the game of a settle condition: its view when the write
// needs no resend, else null.
async function settled(entry) {
  const s = entry.settle;
  if (!s || !s.game) return null;
  const view = await get(`/games/${encodeURIComponent(s.game)}`);
  return view && (view.ply > s.ply || view.status !== 'playing') ? view : null;
}

async function attempt(entry) {
  entry.attempts++;
  try {
    if (entry.attempts > 1) {
      const view = await settled(entry);
      if (view) { finish(entry, 'sent', view); return; }
    }
    const res = await request(entry.method, entry.path, {
      body: entry.body, token: entry.token, key: entry.key, contentType: entry.contentType, as: entry.as, headers: entry.headers || undefined,
    });
    finish(entry, 'sent', res);
  } catch (err) {
    const e = err instanceof ApiError ? err : new ApiError(0, 'network', String((err && err.message) || err));
    if (!e.retryable || (e.status !== 0 && entry.attempts >= policy.attempts)) { finish(entry, 'refused', e); return; }
    entry.lastError = { status: e.status, code: e.code, message: e.message };
    db.put('outbox', entry.id, entry).catch(() => {});
    emit('queued', entry);
    const w = waiting.get(entry.id);
    if (w && w.onQueued) w.onQueued(entry);
    retryLater(entry, delay(entry.attempts, e));
  }
}

function retryLater(entry, ms) {
  let timer = 0;
  const go = () => {
    clearTimeout(timer);
    globalThis.removeEventListener?.('online', go);
    if (live.has(entry.id)) attempt(entry);
  };
  timer = setTimeout(go, ms);
  // Back online: try at once rather than wait out the back-off.
  globalThis.addEventListener?.('online', go);
}

/**
 * resume sends what an earlier page left in the outbox (a reload or a
 * crash between a write and its answer); its answers come as events only.
 */
export async function resume() {
  let rows = [];
  try { rows = await db.all('outbox'); } catch { return; }
  for (const [, entry] of rows) {
    if (!entry || live.has(entry.id)) continue;
    live.set(entry.id, entry);
    attempt(entry);
  }
}
