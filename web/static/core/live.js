// core/live.js — live data for the pages: one WebSocket to the server's push
// protocol (subscribe to a game or an event), reconnecting with backoff, and
// polling whenever the socket is down, so pages work with or without push.
// Subscriptions are batched: the (un)subscribe messages of one task go out
// together, and one that is undone in the same task is never sent; polling
// reads every watched game on one timer. Watchers get each change once; the
// pages put it into their store (core/store.js), which redraws once a frame.
//
// Protocol: client → server {"action":"subscribe"|"unsubscribe","game":gid}
// or {"action":…,"tournament":tid} or {"action":…,"round":{"tournament":tid,"round":n}};
// server → client
// {"type":"game","serverTime":ms,"game":{…GET /games/{gid}…}} and
// {"type":"tournament","serverTime":ms,"tournament":tid,"what":"round"|"result"|"standings"|"players","round":n},
// and for a round subscription {"type":"move"|"result"|"clock"|"delayed","tournament":tid,"round":n,"game":gid,…}.
// No message is needed for correctness: on every (re)connect the pages re-read.

import { get } from './http.js';

const GAME_POLL_MS = 2000;
const EVENT_POLL_MS = 5000;
const ROUND_POLL_MS = 5000;
/** ROUND_TYPES are the round channel's messages (asyncapi.yaml): a board's change, or a delayed one's notice. */
const ROUND_TYPES = new Set(['move', 'result', 'clock', 'delayed']);
const roundKey = (tid, n) => `${tid} ${n}`;
const MAX_BACKOFF_MS = 30000;

const games = new Map(); // gid → {handlers:Set, game, busy}
const events = new Map(); // tid → {handlers:Set, timer}
const rounds = new Map(); // "tid round" → {tid, n, handlers:Set, timer}
const statusListeners = new Set();

let ws = null;
let wsOpen = false;
let backoff = 1000;
let retryAt = 0;
let retryTimer = null;
let closing = false;
let status = 'connecting';

/** socketURL is the WebSocket address the page's shell names, resolved against this page. */
export function socketURL() {
  const meta = document.querySelector('meta[name="xqtour-ws"]');
  const raw = (meta && meta.content) || '/ws';
  if (/^wss?:\/\//.test(raw)) return raw;
  const u = new URL(raw, location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.href;
}

/**
 * onStatus calls fn now and on every change with {status, retryInSec}:
 * status is "live" (socket up), "polling" (socket down, polling works) or
 * "offline" (polling fails too). It returns a function that stops the calls.
 */
export function onStatus(fn) {
  statusListeners.add(fn);
  fn(statusInfo());
  return () => statusListeners.delete(fn);
}

function statusInfo() {
  return { status, retryInSec: retryAt ? Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)) : 0 };
}

function setStatus(s) {
  if (s === status) return;
  status = s;
  for (const fn of statusListeners) fn(statusInfo());
}

function subscribed() {
  return games.size + events.size + rounds.size > 0;
}

function sendNow(msg) {
  if (ws && wsOpen) {
    try { ws.send(JSON.stringify(msg)); } catch { /* the close handler takes over */ }
  }
}

// The (un)subscriptions asked for in this task, by topic ("game gid"):
// the last word wins, and one that only undoes the state the socket is in
// is dropped. They go out in one microtask.
const outgoing = new Map();
const onSocket = new Set();
let flushing = false;
function send(msg) {
  const topic = msg.game ? `game ${msg.game}` : msg.round ? `round ${roundKey(msg.round.tournament, msg.round.round)}` : `tournament ${msg.tournament}`;
  outgoing.set(topic, msg);
  if (flushing) return;
  flushing = true;
  queueMicrotask(() => {
    flushing = false;
    for (const [topicKey, m] of outgoing) {
      const want = m.action === 'subscribe';
      if (want === onSocket.has(topicKey)) continue;
      if (ws && wsOpen) {
        sendNow(m);
        if (want) onSocket.add(topicKey); else onSocket.delete(topicKey);
      }
    }
    outgoing.clear();
  });
}

function connect() {
  if (ws || !subscribed() || typeof WebSocket === 'undefined') return;
  let sock;
  try {
    sock = new WebSocket(socketURL());
  } catch {
    scheduleReconnect();
    return;
  }
  ws = sock;
  sock.onopen = () => {
    wsOpen = true;
    backoff = 1000;
    retryAt = 0;
    setStatus('live');
    onSocket.clear();
    for (const gid of games.keys()) send({ action: 'subscribe', game: gid });
    for (const tid of events.keys()) send({ action: 'subscribe', tournament: tid });
    for (const r of rounds.values()) send({ action: 'subscribe', round: { tournament: r.tid, round: r.n } });
    // Anything may have happened while the socket was down: re-read once.
    for (const gid of games.keys()) pollGame(gid);
    for (const tid of events.keys()) notifyEvent(tid, { what: 'reconnect' });
    for (const key of rounds.keys()) notifyRound(key, { type: 'reconnect' });
    stopPolling();
  };
  sock.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg && msg.type === 'game' && msg.game && games.has(msg.game.id)) {
      deliverGame(msg.game.id, msg.game, { source: 'socket', serverTime: msg.serverTime });
    } else if (msg && msg.type === 'tournament' && events.has(msg.tournament)) {
      notifyEvent(msg.tournament, { what: msg.what, round: msg.round, serverTime: msg.serverTime });
    } else if (msg && ROUND_TYPES.has(msg.type) && rounds.has(roundKey(msg.tournament, msg.round))) {
      notifyRound(roundKey(msg.tournament, msg.round), { ...msg, receivedAt: Date.now() });
    }
  };
  sock.onerror = () => { /* onclose follows */ };
  sock.onclose = () => {
    const was = ws === sock;
    if (was) { ws = null; wsOpen = false; onSocket.clear(); }
    if (closing || !was) return;
    startPolling();
    scheduleReconnect();
  };
}

function scheduleReconnect() {
  if (retryTimer || !subscribed()) return;
  const wait = backoff * (0.75 + Math.random() / 2);
  backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  retryAt = Date.now() + wait;
  if (status === 'live' || status === 'connecting') setStatus('polling');
  retryTimer = setTimeout(() => { retryTimer = null; retryAt = 0; connect(); }, wait);
}

function startPolling() {
  armGames();
  for (const tid of events.keys()) armEvent(tid);
  for (const key of rounds.keys()) armRound(key);
}

function stopPolling() {
  clearTimeout(gameTimer);
  gameTimer = 0;
  for (const e of [...events.values(), ...rounds.values()]) { clearTimeout(e.timer); e.timer = null; }
}

// One timer polls every watched game (a page of 50 boards: one pass, not 50 timers).
let gameTimer = 0;
function armGames() {
  if (gameTimer || wsOpen || games.size === 0) return;
  gameTimer = setTimeout(async () => {
    gameTimer = 0;
    await Promise.all([...games.keys()].map((gid) => pollGame(gid)));
    armGames();
  }, GAME_POLL_MS);
}

function armEvent(tid) {
  const e = events.get(tid);
  if (!e || e.timer || wsOpen) return;
  e.timer = setTimeout(() => {
    e.timer = null;
    if (!events.has(tid)) return;
    if (document.visibilityState !== 'hidden') notifyEvent(tid, { what: 'poll' });
    armEvent(tid);
  }, EVENT_POLL_MS);
}

function armRound(key) {
  const r = rounds.get(key);
  if (!r || r.timer || wsOpen) return;
  r.timer = setTimeout(() => {
    r.timer = null;
    if (!rounds.has(key)) return;
    if (document.visibilityState !== 'hidden') notifyRound(key, { type: 'poll' });
    armRound(key);
  }, ROUND_POLL_MS);
}

/** mergeGame applies a view read with ?since=n (moves from ply n on) to the full game held. */
export function mergeGame(held, view) {
  if (!view) return held;
  const since = view.since || 0;
  if (since === 0 || !held) return view;
  const moves = (held.moves || []).slice(0, since).concat(view.moves || []);
  return { ...view, moves, since: 0 };
}

async function pollGame(gid) {
  const g = games.get(gid);
  if (!g || g.busy) return;
  g.busy = true;
  try {
    const since = g.game ? (g.game.moves || []).length : 0;
    const view = await get(`/games/${encodeURIComponent(gid)}${since ? `?since=${since}` : ''}`);
    if (!wsOpen && status !== 'polling' && ws === null) setStatus('polling');
    deliverGame(gid, view, { source: 'poll' });
  } catch (err) {
    if (err && err.status === 0 && !wsOpen) setStatus('offline');
    for (const fn of (games.get(gid)?.handlers || [])) if (fn.onError) fn.onError(err);
  } finally {
    if (games.has(gid)) games.get(gid).busy = false;
  }
}

function deliverGame(gid, view, meta) {
  const g = games.get(gid);
  if (!g) return;
  const next = mergeGame(g.game, view);
  const changed = !g.game || next.version !== g.game.version || next.ply !== g.game.ply ||
    JSON.stringify(next.clocks) !== JSON.stringify(g.game.clocks);
  if (status === 'offline' && meta.source === 'poll') setStatus(wsOpen ? 'live' : 'polling');
  g.game = next;
  if (!changed && meta.source === 'poll') return;
  const m = { ...meta, receivedAt: Date.now() };
  for (const fn of g.handlers) fn(next, m);
}

function notifyEvent(tid, change) {
  const e = events.get(tid);
  if (!e) return;
  for (const fn of e.handlers) fn(change);
}

/**
 * watchGame calls onGame(game, {source, serverTime?, receivedAt}) with the
 * full game (as GET /games/{gid}) now and after every change, pushed or
 * polled. It returns the unsubscribe function. refreshGame(gid) re-reads at once.
 */
export function watchGame(gid, onGame) {
  let g = games.get(gid);
  const fresh = !g;
  if (fresh) {
    g = { handlers: new Set(), game: null, busy: false };
    games.set(gid, g);
  }
  g.handlers.add(onGame);
  if (!fresh && g.game) onGame(g.game, { source: 'cache', receivedAt: Date.now() });
  if (fresh) {
    pollGame(gid);
    send({ action: 'subscribe', game: gid });
    if (!wsOpen) armGames();
  }
  connect();
  return () => release(games, gid, onGame, 'game');
}

// release drops a watcher of a topic (kind "game" or "tournament"); the
// last one to go unsubscribes it and may close the socket.
function release(topics, id, fn, kind) {
  const cur = topics.get(id);
  if (!cur) return;
  cur.handlers.delete(fn);
  if (cur.handlers.size) return;
  clearTimeout(cur.timer);
  topics.delete(id);
  send({ action: 'unsubscribe', [kind]: id });
  maybeClose();
}

/** refreshGame re-reads a watched game now (after this page's own move, say) and delivers it. */
export function refreshGame(gid) {
  return pollGame(gid);
}

/** setGame hands a game view the page already has (e.g. a POST's answer) to every watcher. */
export function setGame(gid, view) {
  deliverGame(gid, view, { source: 'local' });
}

/**
 * watchEvent calls onChange({what, round?, serverTime?}) whenever the event
 * may have changed: what is "round", "result", "standings" or "players" when
 * pushed, "poll" every few seconds while the socket is down, and "reconnect"
 * after the socket comes back. It returns the unsubscribe function.
 */
export function watchEvent(tid, onChange) {
  let e = events.get(tid);
  const fresh = !e;
  if (fresh) {
    e = { handlers: new Set(), timer: null };
    events.set(tid, e);
    send({ action: 'subscribe', tournament: tid });
  }
  e.handlers.add(onChange);
  if (!wsOpen) armEvent(tid);
  connect();
  return () => release(events, tid, onChange, 'tournament');
}

function notifyRound(key, msg) {
  const r = rounds.get(key);
  if (!r) return;
  for (const fn of r.handlers) fn(msg);
}

/**
 * watchRound follows round n of event tid with one subscription to the
 * round channel, however many boards the round has. onMessage(msg) gets each
 * message of the channel as sent (type "move", "result", "clock" or
 * "delayed", with receivedAt added), {type:"poll"} every few seconds while
 * the socket is down (re-read the boards) and {type:"reconnect"} after it
 * comes back (re-read once: messages may have been missed). It returns the
 * unsubscribe function.
 */
export function watchRound(tid, n, onMessage) {
  const key = roundKey(tid, n);
  let r = rounds.get(key);
  if (!r) {
    r = { tid, n, handlers: new Set(), timer: null };
    rounds.set(key, r);
    send({ action: 'subscribe', round: { tournament: tid, round: n } });
  }
  r.handlers.add(onMessage);
  if (!wsOpen) armRound(key);
  connect();
  return () => {
    const cur = rounds.get(key);
    if (!cur) return;
    cur.handlers.delete(onMessage);
    if (cur.handlers.size) return;
    clearTimeout(cur.timer);
    rounds.delete(key);
    send({ action: 'unsubscribe', round: { tournament: tid, round: n } });
    maybeClose();
  };
}

function maybeClose() {
  if (subscribed()) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  stopPolling();
  onSocket.clear();
  if (ws) {
    closing = true;
    try { ws.close(); } catch { /* already closed */ }
    ws = null;
    wsOpen = false;
    closing = false;
  }
}
