// pages/event/page.js — the event page, /t/{tid}: state.js reads, view.js
// draws, and this module wires them: a store (core/store.js) that redraws
// once a frame by patching (core/view.js), the reader's actions, and live
// updates (core/live.js) that re-read and redraw without losing the focus.
// With the organiser's token (from #token= or pasted) the organiser's
// console (admin.js) joins in; a player's token shows "you are playing —
// open your game"; an official's token the table list (arbiter.js).

import { errorText } from '../../core/i18n.js';
import { watchEvent } from '../../core/live.js';
import * as outbox from '../../core/outbox.js';
import { createStore } from '../../core/store.js';
import { saveToken, tokenIn, tokenParts } from '../../core/tokens.js';
import { mountView } from '../../core/view.js';
import { download } from '../../ui.js';
import { EventState, tabsOf } from './state.js';
import { standingsSheet } from './sheet.js';
import { view } from './view.js';

/** mount draws the event page for tid into root. */
export function mount(root, { tid }) {
  const state = new EventState(tid);
  const store = createStore({
    snap: null,
    ui: { tab: new URLSearchParams(location.search).get('tab') || 'pairings', round: 0, standingsView: '', standingsRound: 0,
      group: '', openWhy: new Set(), card: null, busy: false, error: '', tokenBad: false, tokenWrong: false, loadError: '', refreshError: '' },
  });
  const ui = () => store.get().ui;
  const setUi = (patch) => store.set({ ui: { ...ui(), ...patch } });
  let admin = null;
  let tables = null;
  let lineup = null; // a captain's lineup form (pages/captain)

  let loads = 0;
  // reload reads what the open tab needs and redraws; a slower, older read
  // that ends after a newer one is dropped.
  async function reload() {
    const mine = ++loads;
    try {
      const snap = await state.load(ui());
      if (mine === loads) store.set({ snap, ui: { ...ui(), refreshError: '' } });
    } catch (err) {
      if (mine === loads) setUi({ refreshError: errorText(err) });
    }
  }

  async function refresh(change = {}) {
    const prevRound = state.ev?.round;
    try {
      await state.refresh(change);
    } catch (err) {
      setUi({ refreshError: errorText(err) });
      return;
    }
    if (state.ev.round !== prevRound && ui().round === prevRound) setUi({ round: state.ev.round });
    await reload();
    if (change.what && state.me !== null) state.loadMe().then(() => reload()).catch(() => {});
  }

  // afterDraw runs fn once the pending redraw is on the page (focus moves).
  const afterDraw = (fn) => { store.flush(); fn(); };

  const act = {
    setUi(patch) { setUi(patch); reload(); },
    selectTab(name) {
      const q = new URLSearchParams(location.search);
      if (name === 'pairings') q.delete('tab'); else q.set('tab', name);
      history.replaceState(history.state, '', location.pathname + (q.toString() ? `?${q}` : '') + location.hash);
      setUi({ tab: name, refreshError: '', error: '' });
      reload();
    },
    tabKey(e, tabs, tab) {
      const i = tabs.indexOf(tab);
      const j = { ArrowRight: (i + 1) % tabs.length, ArrowLeft: (i - 1 + tabs.length) % tabs.length, Home: 0, End: tabs.length - 1 }[e.key];
      if (j === undefined) return;
      e.preventDefault();
      act.selectTab(tabs[j]);
      afterDraw(() => root.querySelector(`#tab-${tabs[j]}`)?.focus());
    },
    pickRound(n) { setUi({ round: n }); reload(); },
    toggleWhy(id) {
      const open = new Set(ui().openWhy);
      if (open.has(id)) open.delete(id); else open.add(id);
      setUi({ openWhy: open });
    },
    async openCard(playerId, name) {
      const card = await state.card(playerId, name).catch(() => null);
      if (!card) return;
      setUi({ card });
      afterDraw(() => root.querySelector('#player-card')?.scrollIntoView({ block: 'nearest' }));
    },
    closeCard() {
      const id = ui().card?.playerId;
      setUi({ card: null });
      afterDraw(() => root.querySelector(`button[data-player="${id}"]`)?.focus());
    },
    print: () => window.print(),
    // checkIn checks the reader, a player, in for round n (E-2).
    checkIn: (n) => busy(async () => {
      await outbox.post(`/tournaments/${encodeURIComponent(tid)}/rounds/${n}/checkin`, {}, { token: state.token });
      await state.loadMe();
      await reload();
    }),
    forget: () => saveToken(`event:${tid}`, '').then(() => location.reload()),
    pasteToken(e) {
      e.preventDefault();
      const tok = tokenIn(e.currentTarget.elements.token.value);
      // A festival's token is organiser of its sections (E-3).
      const scope = tokenParts(tok).scope;
      if (scope !== tid && !(state.ev?.festival && scope === state.ev.festival)) { setUi({ tokenBad: true }); return; }
      saveToken(`event:${tid}`, tok).then(() => location.reload());
    },
    async downloadPgn(rounds) {
      const ev = state.ev;
      await busy(async () => download(`${ev.name}${rounds.length === 1 ? `-r${rounds[0]}` : ''}.pgn`, await state.pgn(rounds), 'application/x-chess-pgn'));
    },
    async downloadStandings() {
      await busy(async () => download(`${state.ev.name}-standings.csv`, standingsSheet(await state.standingsRows(), state.players), 'text/csv'));
    },
    async exportEvent() {
      const ev = state.ev;
      await busy(async () => {
        const pages = await state.exportPages();
        if (pages.length === 1) download(`${ev.name}-${tid}.jsonl`, pages[0], 'application/x-ndjson');
        else pages.forEach((text, i) => download(`${ev.name}-${tid}-part${i + 1}.jsonl`, text, 'application/x-ndjson'));
      });
    },
  };

  async function busy(fn) {
    setUi({ busy: true, error: '' });
    try { await fn(); setUi({ busy: false }); } catch (err) { setUi({ busy: false, error: errorText(err) }); }
  }

  const redraw = mountView(root, ({ snap, ui: u }) => view(snap, u, act, admin, tables, lineup));
  store.subscribe(redraw);
  redraw(store.get());

  (async () => {
    try {
      await state.loadCore();
    } catch (err) {
      setUi({ loadError: errorText(err) });
      return;
    }
    document.title = `${state.ev.name} · xqtour`;
    // A wrong or replaced token is said to be wrong, forgotten here, and
    // the paste box offered; a network failure keeps it (the next load asks again).
    if (await state.checkToken().catch(() => 'ok') === 'bad') {
      await saveToken(`event:${tid}`, '');
      setUi({ tokenWrong: true });
    }
    if (state.kind === 'organiser') {
      const mod = await import('./admin.js');
      // The console's view of the page: the data and the page's refresh.
      admin = mod.createAdmin({
        tid, token: state.token, base: () => state.base(),
        get ev() { return state.ev; }, get players() { return state.players; }, get teams() { return state.teams; },
        teamById: (id) => state.teamById(id), roundCache: state.roundCache,
        view: { get round() { return ui().round; }, set round(n) { setUi({ round: n }); } },
        refresh,
      });
    }
    if (state.kind === 'official') {
      const mod = await import('../../arbiter.js');
      tables = document.createElement('div');
      mod.mountTables(tables, { tid, token: state.token });
    }
    if (state.kind === 'team') { // a captain's token
      const mod = await import('../captain/captain.js');
      lineup = document.createElement('div');
      mod.mountCaptain(lineup, { tid, token: state.token, state, onChange: () => refresh({ what: 'round', force: true }) });
      if (!new URLSearchParams(location.search).get('tab')) setUi({ tab: 'lineup' });
    }
    if (!tabsOf(state.ev, state.kind, admin).includes(ui().tab)) setUi({ tab: 'pairings' });
    setUi({ round: state.ev.round });
    await reload();
    if (state.token && state.kind !== 'organiser') state.loadMe().then(() => reload()).catch(() => {});
    let pending = 0;
    watchEvent(tid, (change) => {
      clearTimeout(pending);
      pending = setTimeout(() => refresh(change), change.what === 'poll' ? 0 : 150);
    });
  })();
  return { state, store };
}
