// pages/live/page.js — the broadcast page, /t/{tid}/live: every board of the
// round in play, kept current from the round channel (core/live.js
// watchRound: one socket, one subscription, however many boards; polling
// re-reads while the socket is down). state.js reads and applies messages,
// view.js draws; this module wires them: a store that redraws once a frame,
// one view-only mini board (board.js) per game kept as a DOM island, a
// one-second tick for the running clocks, and with ?cycle=1 (read here in
// the browser: the server never sees the query) pages of boards that turn
// every few seconds for a venue screen.

import { errorText, t } from '../../core/i18n.js';
import { watchEvent, watchRound } from '../../core/live.js';
import { createStore } from '../../core/store.js';
import { mountView } from '../../core/view.js';
import { createBoard } from '../../board.js';
import { LiveState, applyMessage, boardFromGame, optionsOf } from './state.js';
import { view } from './view.js';

/** mount draws the broadcast page for tid into root. */
export function mount(root, { tid }) {
  const state = new LiveState(tid);
  const opts = optionsOf(location.search);
  document.body.classList.add('broadcast');
  const store = createStore({ snap: null, loadError: '', opts, step: 0, now: Date.now() });
  const minis = new Map(); // gid → {el, board}
  const islands = new Map(); // gid → el, for the view

  // sync makes a mini board for every board and shows each one's position.
  function sync(boards) {
    for (const b of boards) {
      let m = minis.get(b.gid);
      if (!m) {
        const el = document.createElement('div');
        const board = createBoard(el, { viewOnly: true, label: t('live.boardLabel', { table: b.table, red: b.red, black: b.black }) });
        m = { el, board, fen: null, move: null };
        minis.set(b.gid, m);
        islands.set(b.gid, el);
      }
      if (m.fen !== b.fen || m.move !== b.move) {
        m.board.set({ fen: b.fen, lastMove: b.move });
        m.fen = b.fen;
        m.move = b.move;
      }
    }
  }

  const setBoards = (boards) => {
    const snap = store.get().snap;
    if (!snap || boards === snap.boards) return;
    sync(boards);
    store.set({ snap: { ...snap, boards } });
  };

  // reread reads one game again (a delayed notice, once its move shows).
  async function reread(gid) {
    const g = await state.game(gid).catch(() => null);
    const snap = store.get().snap;
    if (!g || !snap) return;
    setBoards(snap.boards.map((b) => (b.gid === gid ? boardFromGame(b, g, Date.now()) : b)));
  }

  let unwatch = null;
  let watching = 0;
  let loads = 0;
  async function load() {
    const mine = ++loads;
    let snap;
    try {
      snap = { tid, ...(await state.load()) };
    } catch (err) {
      if (mine === loads) store.set({ loadError: errorText(err) });
      return;
    }
    if (mine !== loads) return;
    document.title = `${snap.ev.name} · ${t('live.title')} · xqtour`;
    sync(snap.boards);
    store.set({ snap, loadError: '' });
    const n = snap.round ? snap.round.round : 0;
    if (n && n !== watching) {
      if (unwatch) unwatch();
      watching = n;
      unwatch = watchRound(tid, n, (msg) => {
        if (msg.type === 'poll' || msg.type === 'reconnect') { load(); return; }
        if (msg.type === 'delayed') {
          setTimeout(() => reread(msg.game), Math.max(0, (msg.visibleAt || 0) - (msg.serverTime || Date.now())) + 50);
          return;
        }
        const cur = store.get().snap;
        if (cur) setBoards(applyMessage(cur.boards, msg));
      });
    }
  }

  const redraw = mountView(root, (s) => view(s, islands));
  store.subscribe(redraw);
  redraw(store.get());

  // The running clocks count down between messages; a cycling screen turns a page every opts.every seconds.
  setInterval(() => store.set({ now: Date.now() }), 1000);
  if (opts.cycle) setInterval(() => store.set({ step: store.get().step + 1 }), opts.every * 1000);

  load();
  // A new round paired: follow it instead (the event's own channel, on the same socket).
  watchEvent(tid, (change) => { if (change.what === 'round' && change.round !== watching) load(); });
  return { state, store };
}
