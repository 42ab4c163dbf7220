// event.js — an event's page, /t/{tid}. Public: header, pairings by round
// (台 | 号 | 红方 | 分 | 结果 | 分 | 黑方 | 号, each pair's explanation one tap
// away), standings in every view the API has, crosstable, players,
// downloads; kept live by live.js. With the organiser's token (from #token=
// or pasted) the organiser's console (event-admin.js) joins in; a player's
// token shows "you are playing — open your game"; an official's token the
// table list.

import { ApiError, get, getAll } from './core/http.js';
import { formatTime, list, relativeTime, t } from './core/i18n.js';
import { saveToken, tokenFrom, tokenIn, tokenParts } from './core/tokens.js';
import { watchEvent } from './core/live.js';
import { playerStatus, points, resultName, resultShort, statusName, systemName, tcName, tiebreakHelp, tiebreakName } from './names.js';
import { act, clear, download, errorText, field, h, select, showError } from './ui.js';

const enc = encodeURIComponent;

/** whyText turns a pairing explanation's reason ids into words. */
export function whyText(id) {
  return id ? (t(`why.${id}`) === `why.${id}` ? id : t(`why.${id}`)) : '';
}

/**
 * Event holds one event page's state and draws it. ctx.admin (event-admin.js)
 * adds the organiser's controls when the token is the organiser's.
 */
class EventPage {
  constructor(root, tid) {
    this.root = root;
    this.tid = tid;
    this.token = tokenFrom(`event:${tid}`);
    this.kind = tokenParts(this.token).kind;
    if (this.token && tokenParts(this.token).scope !== tid) { this.token = ''; this.kind = ''; }
    this.ev = null;
    this.players = [];
    this.teams = [];
    this.roundCache = new Map();
    this.view = { tab: new URLSearchParams(location.search).get('tab') || 'pairings', round: 0, standingsView: '', group: '' };
    this.me = null;
    this.admin = null;
    this.updatedAt = null;
  }

  base() { return `/tournaments/${enc(this.tid)}`; }

  async start() {
    clear(this.root, h('p', { class: 'muted' }, t('ui.loading')));
    try {
      await this.loadCore();
    } catch (err) {
      clear(this.root, h('h1', {}, t('ev.notFound')), h('p', { class: 'error', role: 'alert' }, errorText(err)),
        h('p', {}, h('a', { href: '/' }, t('nav.home'))));
      return;
    }
    if (this.kind === 'organiser') {
      const mod = await import('./event-admin.js');
      this.admin = mod.createAdmin(this);
    }
    this.layout();
    await this.refresh();
    this.loadMe();
    watchEvent(this.tid, (change) => this.onChange(change));
  }

  async loadCore() {
    const [ev, pl] = await Promise.all([get(this.base()), get(`${this.base()}/players`)]);
    this.ev = ev;
    this.players = pl.players || [];
    if (ev.teams) this.teams = (await get(`${this.base()}/teams`)).teams || [];
    if (!this.view.round) this.view.round = ev.round;
    this.updatedAt = new Date();
  }

  async loadMe() {
    if (!this.token || this.kind === 'organiser') return;
    try {
      this.me = await get('/me', { token: this.token });
    } catch (err) {
      // A server without GET /me: a player's token still names the player,
      // and the latest round says where they play.
      if (!(err instanceof ApiError) || err.status !== 404) console.warn(err);
      this.me = await this.meFromRounds().catch(() => null);
    }
    this.drawMe();
  }

  async meFromRounds() {
    const { kind, id } = tokenParts(this.token);
    const p = this.playerById(id);
    if (kind !== 'player' || !p) return kind === 'official' ? { role: 'official', id } : null;
    const me = { role: 'player', id, name: p.name, player: p, currentGame: null, nextGame: null };
    const r = await this.round(this.ev.round);
    const pair = r && (r.pairings || []).find((x) => x.red === id || x.black === id);
    if (pair && !pair.result) {
      const red = pair.red === id;
      me.currentGame = { round: r.round, table: pair.table, gameId: pair.gameId, colour: red ? 'red' : 'black',
        opponent: red ? pair.black : pair.red, opponentName: red ? pair.blackName : pair.redName, result: null };
    }
    return me;
  }

  playerById(id) { return this.players.find((p) => p.id === id); }
  teamById(id) { return this.teams.find((x) => x.id === id); }

  onChange(change) {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.refresh(change), change.what === 'poll' ? 0 : 150);
  }

  /**
   * refresh re-reads the event and redraws the header and the open tab. A
   * poll or a push that changed nothing the page shows redraws nothing, so an
   * open explanation or a half-typed form survives; change.force redraws.
   */
  async refresh(change = {}) {
    try {
      const background = change.what === 'poll' || change.what === 'reconnect';
      if (change.what && !background) this.roundCache.delete(change.round);
      if (background || !change.what) this.roundCache.clear();
      const prevRound = this.ev?.round;
      await this.loadCore();
      if (this.ev.round !== prevRound && this.view.round === prevRound) this.view.round = this.ev.round;
      const shown = new Set([this.ev.round, this.view.round].filter(Boolean));
      const rounds = await Promise.all([...shown].map((n) => this.round(n).catch(() => null)));
      const sig = JSON.stringify([this.ev, this.players, this.teams, rounds]);
      const same = sig === this.signature;
      this.signature = sig;
      if (same && !change.force && change.what) {
        this.drawUpdated();
        return;
      }
      this.drawHeader();
      await this.drawTab();
      if (change.what && this.me !== null) this.loadMe();
    } catch (err) {
      if (this.statusEl) showError(this.statusEl, err);
    }
  }

  drawUpdated() {
    const el = this.headerEl && this.headerEl.querySelector('.updated');
    if (el) el.textContent = t('ev.updated', { time: formatTime(this.updatedAt, { timeStyle: 'medium' }) });
  }

  layout() {
    const ev = this.ev;
    document.title = `${ev.name} · xqtour`;
    this.headerEl = h('header', { class: 'event-header' });
    this.meEl = h('div', { class: 'me' });
    this.statusEl = h('div', { class: 'status', 'aria-live': 'polite' });
    const tabs = ['pairings', 'standings', 'crosstable', ev.teams ? 'teams' : 'players', 'downloads'];
    if (this.admin) tabs.push('console');
    if (this.kind === 'official') tabs.push('tables');
    if (!tabs.includes(this.view.tab)) this.view.tab = 'pairings';
    this.tabButtons = tabs.map((name) => {
      const b = h('button', { type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': 'panel', class: 'tab' }, t(`tab.${name}`));
      b.addEventListener('click', () => this.selectTab(name));
      b.addEventListener('keydown', (e) => this.tabKeys(e, tabs));
      b.dataset.tab = name;
      return b;
    });
    this.panel = h('section', { id: 'panel', role: 'tabpanel', class: 'panel', tabindex: '0' });
    clear(this.root, this.headerEl, this.meEl,
      h('nav', { class: 'tabs', role: 'tablist', 'aria-label': ev.name }, this.tabButtons),
      this.statusEl, this.panel, this.tokenPaste());
    this.markTabs();
  }

  tokenPaste() {
    if (this.token) return null;
    const input = h('input', { type: 'password', autocomplete: 'off', name: 'token' });
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const form = h('form', { class: 'token-form' }, field(t('tok.label'), input), h('button', { type: 'submit' }, t('tok.use')), status);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const tok = tokenIn(input.value);
      if (tokenParts(tok).scope !== this.tid) {
        clear(status, h('p', { class: 'error', role: 'alert' }, t('tok.bad')));
        return;
      }
      saveToken(`event:${this.tid}`, tok).then(() => location.reload());
    });
    return h('details', { class: 'token-paste no-print' }, h('summary', {}, t('tok.paste')), form);
  }

  tabKeys(e, tabs) {
    const i = tabs.indexOf(this.view.tab);
    let j = -1;
    if (e.key === 'ArrowRight') j = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') j = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = tabs.length - 1;
    if (j < 0) return;
    e.preventDefault();
    this.selectTab(tabs[j]);
    this.tabButtons[j].focus();
  }

  markTabs() {
    for (const b of this.tabButtons) {
      const on = b.dataset.tab === this.view.tab;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    }
    this.panel.setAttribute('aria-labelledby', `tab-${this.view.tab}`);
  }

  selectTab(name) {
    this.view.tab = name;
    const q = new URLSearchParams(location.search);
    if (name === 'pairings') q.delete('tab'); else q.set('tab', name);
    history.replaceState(history.state, '', location.pathname + (q.toString() ? `?${q}` : '') + location.hash);
    this.markTabs();
    clear(this.statusEl);
    this.drawTab();
  }

  drawHeader() {
    const ev = this.ev;
    let roundText = ev.round ? t('ev.round', { n: ev.round, of: ev.rounds }) : t('ev.roundNone', { of: ev.rounds });
    if (!ev.rounds) roundText = ev.round ? t('ev.roundsOpen', { n: ev.round }) : t('pair.none');
    const items = [
      [systemName(ev.system) + (ev.teams ? ` · ${t('tab.teams')}` : ''), 'system'],
      [roundText, 'round'],
      [tcName(ev.timeControl), 'tc'],
      [statusName(ev.status), `status st-${ev.status}`],
      [t('ev.players', { n: ev.players }), 'count'],
    ];
    const r = this.roundCache.get(ev.round);
    if (r && ev.status === 'running') {
      const playing = (r.pairings || []).filter((p) => !p.result).length;
      if (r.startsAt && new Date(r.startsAt) > new Date()) items.push([t('ev.startsIn', { time: startsIn(r.startsAt) }), 'starts']);
      else if (playing) items.push([t('ev.inPlay', { n: playing }), 'inplay']);
    }
    clear(this.headerEl,
      h('h1', {}, ev.name),
      h('ul', { class: 'event-meta' }, items.map(([text, cls]) => h('li', { class: cls }, text))),
      h('p', { class: 'updated muted' }, t('ev.updated', { time: formatTime(this.updatedAt, { timeStyle: 'medium' }) })));
  }

  drawMe() {
    const me = this.me;
    if (!me) { clear(this.meEl); return; }
    const parts = [];
    const colour = (c) => t(c === 'red' ? 'me.red' : 'me.black');
    if (me.role === 'player') {
      if (me.currentGame) {
        const g = me.currentGame;
        parts.push(h('a', { class: 'button primary big', href: `/g/${enc(g.gameId)}` }, t('me.playing')),
          h('p', {}, t('me.current', { round: g.round, table: g.table, name: g.opponentName, colour: colour(g.colour) })));
      }
      if (me.nextGame) {
        const g = me.nextGame;
        parts.push(h('p', {}, h('a', { href: `/g/${enc(g.gameId)}` }, t('me.next', { round: g.round, table: g.table, name: g.opponentName, colour: colour(g.colour) }))));
      }
      parts.push(h('p', { class: 'muted' }, t('me.player', { name: me.name || '' })));
    } else if (me.role === 'arbiter' || me.role === 'scribe') {
      parts.push(h('p', { class: 'muted' }, t('me.official', { name: me.name || '' })));
    }
    const forget = h('button', { type: 'button', class: 'link small' }, t('me.forget'));
    forget.addEventListener('click', () => { saveToken(`event:${this.tid}`, '').then(() => location.reload()); });
    clear(this.meEl, h('div', { class: 'card me-card' }, parts, forget));
    this.drawTab();
  }

  async round(n, { fresh = false } = {}) {
    if (!n) return null;
    if (!fresh && this.roundCache.has(n)) return this.roundCache.get(n);
    const r = await get(`${this.base()}/rounds/${n}?explain=true`);
    this.roundCache.set(n, r);
    return r;
  }

  async drawTab() {
    const tab = this.view.tab;
    try {
      const node = await ({
        pairings: () => this.pairingsView(),
        standings: () => this.standingsView(),
        crosstable: () => this.crosstableView(),
        players: () => this.playersView(),
        teams: () => this.teamsView(),
        downloads: () => this.downloadsView(),
        console: () => this.admin.consoleView(),
        tables: () => this.tablesView(),
      }[tab] || (() => h('p', {}, '')))();
      if (this.view.tab === tab) clear(this.panel, node);
    } catch (err) {
      if (this.view.tab === tab) clear(this.panel, h('p', { class: 'error', role: 'alert' }, errorText(err)));
    }
  }

  roundPicker(current, onPick) {
    const n = this.ev.round;
    if (n <= 1) return null;
    const sel = select(Array.from({ length: n }, (_, i) => [i + 1, t('ev.roundsOpen', { n: i + 1 })]), { 'aria-label': t('pair.round'), value: current });
    sel.addEventListener('change', () => onPick(Number(sel.value)));
    return sel;
  }

  async scoresBefore(n) {
    if (n <= 1) return new Map();
    try {
      const st = await getAll(`${this.base()}/standings?round=${n - 1}${this.ev.teams ? '&view=boards' : ''}`);
      return new Map((st.rows || []).map((r) => [r.playerId, r.points]));
    } catch {
      return new Map();
    }
  }

  async pairingsView() {
    const ev = this.ev;
    const n = Math.min(this.view.round || ev.round, ev.round);
    const tools = h('div', { class: 'toolbar no-print' },
      this.roundPicker(n, (v) => { this.view.round = v; this.drawTab(); }),
      h('button', { type: 'button', class: 'small', onclick: () => window.print() }, t('pair.print')));
    const adminTop = this.admin ? this.admin.roundControls(n) : null;
    if (!n) return h('div', {}, adminTop, h('p', { class: 'muted' }, t('pair.none')));
    const [r, before] = await Promise.all([this.round(n), this.scoresBefore(n)]);
    if (n === ev.round) this.drawHeader();
    const rows = [];
    const num = (id) => this.playerById(id)?.number ?? '';
    const byMatch = new Map();
    for (const p of r.pairings || []) {
      if (p.match) {
        if (!byMatch.has(p.match)) byMatch.set(p.match, []);
        byMatch.get(p.match).push(p);
      }
    }
    const pairRow = (p) => {
      const why = p.explanation ? this.whyParts(p) : null;
      const res = p.result
        ? h('a', { href: `/g/${enc(p.gameId)}`, title: resultName(p.result) + (p.reason ? ` · ${p.reason}` : '') }, resultShort(p.result))
        : h('a', { href: `/g/${enc(p.gameId)}`, class: 'playing', title: t('pair.playing') }, '*');
      const mine = this.me && this.me.role === 'player' && (p.red === this.me.id || p.black === this.me.id);
      return [h('tr', { class: mine ? 'mine' : null, 'data-table': p.table },
        h('td', { class: 'num' }, p.table),
        h('td', { class: 'num col-no' }, num(p.red)),
        h('td', { class: 'name red' }, p.redName),
        h('td', { class: 'num' }, points(before.get(p.red) ?? 0)),
        h('td', { class: 'result' }, res, this.admin ? this.admin.resultControl(p, n) : null),
        h('td', { class: 'num' }, points(before.get(p.black) ?? 0)),
        h('td', { class: 'name black' }, p.blackName),
        h('td', { class: 'num col-no' }, num(p.black)),
        h('td', { class: 'why no-print' }, why ? why.button : null)), why ? why.row : null];
    };
    const head = h('thead', {}, h('tr', {},
      ['pair.table', 'pair.no', 'pair.red', 'pair.score', 'pair.result', 'pair.score', 'pair.black', 'pair.no'].map((k) => h('th', { scope: 'col', class: k === 'pair.no' ? 'col-no' : null }, t(k))),
      h('th', { scope: 'col', class: 'no-print' }, h('span', { class: 'visually-hidden' }, t('pair.why')))));
    if (r.matches && r.matches.length) {
      for (const m of r.matches) {
        const mp = m.homeMatchPoints === null || m.homeMatchPoints === undefined ? '' : ` — ${t('pair.matchPoints', { h: m.homeMatchPoints, a: m.awayMatchPoints })}`;
        rows.push(h('tr', { class: 'match-row' }, h('th', { colspan: 9, scope: 'rowgroup' },
          t('pair.match', { n: m.number, home: m.homeName, away: m.awayName }) + mp + (m.set ? '' : ` · ${t('pair.lineupPending')}`))));
        for (const p of byMatch.get(m.match) || []) rows.push(pairRow(p));
      }
      for (const p of (r.pairings || []).filter((x) => !x.match)) rows.push(pairRow(p));
    } else {
      for (const p of r.pairings || []) rows.push(pairRow(p));
    }
    const byeIds = [r.bye, ...(r.byes || [])].filter(Boolean).filter((v, i, a) => a.indexOf(v) === i);
    for (const id of byeIds) {
      const who = this.playerById(id)?.name || this.teamById(id)?.name || id;
      rows.push(h('tr', { class: 'bye-row' }, h('td', { class: 'num' }, ''), h('td', { class: 'num col-no' }, num(id)),
        h('td', { class: 'name', colspan: 7 }, t('pair.byeRow', { name: who }))));
    }
    const elim = (r.eliminated || []).map((id) => this.playerById(id)?.name || id);
    return h('div', {},
      adminTop,
      h('h2', { class: 'print-title' }, `${ev.name} — ${t('ev.roundsOpen', { n })}`, r.startsAt ? h('small', {}, ` · ${formatTime(r.startsAt)}`) : null),
      tools,
      h('div', { class: 'table-wrap' }, h('table', { class: 'pairings' }, head, h('tbody', {}, rows))),
      elim.length ? h('p', { class: 'muted' }, t('pair.eliminated', { names: list(elim) })) : null,
      this.admin ? this.admin.changeForm(n, r) : null);
  }

  // whyParts gives a pair's explanation toggle and the row it opens below
  // the pair (a row, not a popover, so it never hides under the table's edge).
  whyParts(p) {
    const x = p.explanation;
    const id = `why-${p.table}-${p.board || 0}`;
    const row = h('tr', { class: 'why-row', id, hidden: true },
      h('td', { colspan: 9 },
        h('strong', {}, t('pair.whyFor', { table: p.table })),
        h('p', {}, x.opponent),
        h('p', {}, `${whyText(x.opponentReason)} · ${t('pair.colour', { why: whyText(x.colourReason) })}`),
        x.scoreGroup !== undefined ? h('p', { class: 'muted' }, t('pair.scoreGroup', { g: points(x.scoreGroup) })) : null));
    const b = h('button', { type: 'button', class: 'small why-btn', 'aria-expanded': 'false', 'aria-controls': id, 'aria-label': t('pair.whyFor', { table: p.table }) }, '?');
    b.addEventListener('click', () => {
      const open = row.hidden;
      row.hidden = !open;
      b.setAttribute('aria-expanded', String(open));
    });
    return { button: b, row };
  }

  standingsViews() {
    return this.ev.teams ? ['teams', 'boards', 'teamsByPlaces'] : ['players', 'teamsByPlaces'];
  }

  async standingsView() {
    const ev = this.ev;
    const views = this.standingsViews();
    const view = views.includes(this.view.standingsView) ? this.view.standingsView : views[0];
    const n = this.view.standingsRound || ev.round;
    const q = new URLSearchParams();
    if (view !== (ev.teams ? 'teams' : 'players')) q.set('view', view);
    if (n && n !== ev.round) q.set('round', n);
    if (this.view.group) q.set('group', this.view.group);
    const st = ev.round ? await getAll(`${this.base()}/standings${q.toString() ? `?${q}` : ''}`) : null;
    const viewSel = select(views.map((v) => [v, t(`st.view.${v}`)]), { value: view, 'aria-label': t('st.view') });
    viewSel.addEventListener('change', () => { this.view.standingsView = viewSel.value; this.drawTab(); });
    const roundSel = this.roundPicker(n, (v) => { this.view.standingsRound = v; this.drawTab(); });
    let groupSel = null;
    if (ev.system === 'groups') {
      const count = ev.groups?.count || 2;
      const groups = [['', t('st.group.all')], ...Array.from({ length: count }, (_, i) => [String.fromCharCode(65 + i), String.fromCharCode(65 + i)])];
      groupSel = select(groups, { value: this.view.group, 'aria-label': t('st.group') });
      groupSel.addEventListener('change', () => { this.view.group = groupSel.value; this.drawTab(); });
    }
    const tools = h('div', { class: 'toolbar no-print' }, views.length > 1 ? viewSel : null, roundSel, groupSel,
      h('button', { type: 'button', class: 'small', onclick: () => window.print() }, t('pair.print')));
    if (!st || !(st.rows || []).length) return h('div', {}, tools, h('p', { class: 'muted' }, t('st.none')));
    const chain = (st.chain || []).filter((c) => c !== 'points' && c !== 'matchPoints');
    const team = view === 'teams' || view === 'teamsByPlaces';
    // One cell per round (opponent, colour, result, linked to the game; * in
    // play; bye and forfeits marked), from the crosstable and the rounds.
    let cells = new Map();
    let ct = null;
    const games = new Map();
    if (!team) {
      const cq = new URLSearchParams();
      if (n && n !== ev.round) cq.set('round', n);
      if (this.view.group) cq.set('group', this.view.group);
      [ct] = await Promise.all([
        getAll(`${this.base()}/crosstable${cq.toString() ? `?${cq}` : ''}`).catch(() => null),
        ...Array.from({ length: n }, (_, i) => this.round(i + 1).catch(() => null)),
      ]);
      cells = new Map(((ct && ct.rows) || []).map((r) => [r.playerId, r.cells]));
      for (let k = 1; k <= n; k++) {
        for (const p of (this.roundCache.get(k)?.pairings || [])) {
          games.set(`${k}:${p.red}`, p.gameId);
          games.set(`${k}:${p.black}`, p.gameId);
        }
      }
    }
    const rounds = team ? 0 : Math.max(0, ...[...cells.values()].map((c) => c.length));
    const roundCell = (playerId, c) => {
      const gid = games.get(`${c.round}:${playerId}`);
      const text = cellShort(c);
      return h('td', { class: `cell col-round ${c.colour || ''} ${c.mark || ''}`, title: this.cellText(c, ct) },
        gid && c.opponent ? h('a', { href: `/g/${enc(gid)}` }, text) : text);
    };
    const th = (c) => h('th', { scope: 'col' }, h('abbr', { title: tiebreakHelp(c) || tiebreakName(c), tabindex: '0' }, tiebreakName(c)));
    const head = h('tr', {},
      h('th', { scope: 'col' }, t('st.rank')), h('th', { scope: 'col' }, t('st.no')), h('th', { scope: 'col' }, t('st.name')),
      team ? null : h('th', { scope: 'col', class: 'col-rating' }, t('st.rating')),
      Array.from({ length: rounds }, (_, i) => h('th', { scope: 'col', class: 'col-round' }, t('st.roundCol', { n: i + 1 }))),
      team ? h('th', { scope: 'col' }, h('abbr', { title: tiebreakHelp('matchPoints'), tabindex: '0' }, t('st.matchPoints'))) : null,
      h('th', { scope: 'col' }, team ? h('abbr', { title: tiebreakHelp('boardPoints'), tabindex: '0' }, t('st.boardPoints')) : h('abbr', { title: tiebreakHelp('points'), tabindex: '0' }, t('st.points'))),
      chain.map(th),
      team ? null : h('th', { scope: 'col' }, t('st.record')));
    const rows = st.rows.map((row) => {
      const p = team ? null : this.playerById(row.playerId);
      const mine = this.me && this.me.role === 'player' && row.playerId === this.me.id;
      const flags = [row.shared ? t('st.shared') : '', row.playoff ? t('st.playoff') : '', row.withdrawn ? t('st.withdrawn') : ''].filter(Boolean).join(' · ');
      const tb = new Map((row.tiebreaks || []).map((x) => [x.name, x.value]));
      const nameCell = team ? row.name : this.playerCardButton(row);
      return h('tr', { class: [mine ? 'mine' : '', row.withdrawn ? 'withdrawn' : ''].join(' ').trim() || null },
        h('td', { class: 'num' }, row.rank),
        h('td', { class: 'num' }, row.number ?? ''),
        h('th', { scope: 'row', class: 'name' }, nameCell, flags ? h('small', { class: 'flag' }, ` ${flags}`) : null),
        team ? null : h('td', { class: 'num col-rating' }, p?.rating || ''),
        team ? null : Array.from({ length: rounds }, (_, i) => {
          const c = (cells.get(row.playerId) || [])[i];
          return c ? roundCell(row.playerId, c) : h('td', { class: 'col-round' }, '');
        }),
        team ? h('td', { class: 'num strong' }, points(row.matchPoints)) : null,
        h('td', { class: 'num strong' }, points(team ? row.boardPoints : row.points)),
        chain.map((c) => h('td', { class: 'num' }, tb.has(c) ? points(tb.get(c)) : '')),
        team ? null : h('td', { class: 'num' }, `${row.wins}/${row.draws}/${row.losses}`));
    });
    let podium = null;
    if (ev.status === 'finished' && !team) {
      // The statistics count every round's games.
      await Promise.all(Array.from({ length: ev.round }, (_, i) => this.round(i + 1).catch(() => null)));
      podium = this.podium(st.rows);
    }
    return h('div', {},
      podium,
      h('h2', { class: 'print-title' }, `${ev.name} — ${t('tab.standings')} · ${t('st.afterRound', { n: st.round })}`),
      tools,
      h('p', { class: 'muted no-print' }, t('st.afterRound', { n: st.round })),
      h('div', { class: 'table-wrap' }, h('table', { class: 'standings' }, h('thead', {}, head), h('tbody', {}, rows))),
      h('div', { id: 'player-card', class: 'player-card', hidden: true, 'aria-live': 'polite' }));
  }

  podium(rows) {
    const top = rows.slice(0, 3);
    return h('section', { class: 'card podium', 'aria-label': t('st.podium') },
      h('h2', {}, t('st.podium')),
      h('ol', {}, top.map((r) => h('li', {}, h('strong', {}, r.name), ` — ${points(r.points)}`))),
      this.statsEl());
  }

  statsEl() {
    const s = { red: 0, black: 0, draw: 0, bye: 0, forfeit: 0 };
    for (const r of this.roundCache.values()) {
      for (const p of r.pairings || []) {
        if (p.result === '1-0') s.red++;
        else if (p.result === '0-1') s.black++;
        else if (p.result === '1/2-1/2') s.draw++;
        else if (p.result === '+-' || p.result === '-+' || p.result === '0-0') s.forfeit++;
      }
      s.bye += [r.bye].filter(Boolean).length;
    }
    return h('p', { class: 'muted' }, `${t('stat.title')}: ${t('stat.redWins')} ${s.red} · ${t('stat.blackWins')} ${s.black} · ${t('stat.draws')} ${s.draw} · ${t('stat.byes')} ${s.bye} · ${t('stat.forfeits')} ${s.forfeit}`);
  }

  playerCardButton(row) {
    const b = h('button', { type: 'button', class: 'link', 'aria-controls': 'player-card' }, row.name);
    b.addEventListener('click', async () => {
      const card = this.root.querySelector('#player-card');
      const ct = await getAll(`${this.base()}/crosstable`);
      const me = (ct.rows || []).find((r) => r.playerId === row.playerId);
      if (!me || !card) return;
      const close = h('button', { type: 'button', class: 'small' }, t('ui.close'));
      close.addEventListener('click', () => { card.hidden = true; b.focus(); });
      clear(card, h('h3', {}, t('st.card', { name: row.name })),
        h('ul', { class: 'plain' }, me.cells.map((c) => h('li', {}, `${t('ev.roundsOpen', { n: c.round })}: ${this.cellText(c, ct)}`))), close);
      card.hidden = false;
      card.scrollIntoView({ block: 'nearest' });
    });
    return b;
  }

  cellText(c, ct) {
    if (!c.opponent) return t(`ct.${c.mark || 'bye'}`) + (c.points ? ` (${points(c.points)})` : '');
    const opp = (ct.rows || []).find((r) => r.playerId === c.opponent);
    const col = c.colour === 'red' ? t('me.red') : t('me.black');
    const res = c.mark === 'playing' ? '*' : points(c.points);
    return `${t('ct.vs')} ${opp ? opp.name : ''} (${c.opponentNumber ?? ''}, ${col}) ${res}${c.mark && c.mark !== 'playing' ? ` ${t(`ct.${c.mark}`)}` : ''}`;
  }

  async crosstableView() {
    const ev = this.ev;
    if (!ev.round) return h('p', { class: 'muted' }, t('st.none'));
    const q = this.view.group ? `?group=${enc(this.view.group)}` : '';
    const ct = await getAll(`${this.base()}/crosstable${q}`);
    const rounds = Math.max(0, ...(ct.rows || []).map((r) => r.cells.length));
    const head = h('tr', {}, h('th', { scope: 'col' }, t('st.no')), h('th', { scope: 'col' }, t('st.name')),
      Array.from({ length: rounds }, (_, i) => h('th', { scope: 'col' }, String(i + 1))), h('th', { scope: 'col' }, t('st.points')));
    const rows = (ct.rows || []).map((r) => h('tr', {},
      h('td', { class: 'num' }, r.number), h('th', { scope: 'row', class: 'name' }, r.name),
      r.cells.map((c) => h('td', { class: `cell ${c.colour || ''} ${c.mark || ''}`, title: this.cellText(c, ct) }, cellShort(c))),
      h('td', { class: 'num strong' }, points(r.points))));
    return h('div', {},
      h('h2', { class: 'print-title' }, `${ev.name} — ${t('tab.crosstable')}`),
      h('div', { class: 'toolbar no-print' }, h('button', { type: 'button', class: 'small', onclick: () => window.print() }, t('pair.print'))),
      h('div', { class: 'table-wrap' }, h('table', { class: 'crosstable' }, h('thead', {}, head), h('tbody', {}, rows))));
  }

  playersView() {
    const rows = this.players.map((p) => {
      const mine = this.me && this.me.role === 'player' && this.me.id === p.id;
      return h('tr', { class: [mine ? 'mine' : '', p.status !== 'active' ? p.status : ''].join(' ').trim() || null },
        h('td', { class: 'num' }, p.number),
        h('th', { scope: 'row', class: 'name' }, p.name, mine ? t('pl.you') : ''),
        h('td', { class: 'num' }, p.rating || ''),
        h('td', {}, p.club || ''),
        h('td', {}, playerStatus(p.status), p.joinedRound > 1 ? h('small', { class: 'muted' }, ` · ${t('pl.joined', { n: p.joinedRound })}`) : null),
        this.admin ? h('td', { class: 'no-print' }, this.admin.playerActions(p)) : null);
    });
    return h('div', {},
      this.admin ? this.admin.registerForms() : null,
      this.players.length ? h('div', { class: 'table-wrap' }, h('table', { class: 'players' },
        h('thead', {}, h('tr', {}, ['st.no', 'st.name', 'st.rating', 'st.club', 'pl.status'].map((k) => h('th', { scope: 'col' }, t(k))),
          this.admin ? h('th', { scope: 'col', class: 'no-print' }, h('span', { class: 'visually-hidden' }, t('tab.console'))) : null)),
        h('tbody', {}, rows))) : h('p', { class: 'muted' }, t('pl.none')));
  }

  teamsView() {
    const list = this.teams.map((tm) => h('article', { class: 'card team' },
      h('h3', {}, `${tm.number}. ${tm.name}`, tm.status !== 'active' ? h('small', {}, ` · ${playerStatus(tm.status)}`) : null),
      h('ol', {}, (tm.members || []).map((m) => h('li', {}, m.name, m.rating ? ` (${m.rating})` : ''))),
      (tm.substitutes || []).length ? h('p', {}, `${t('teams.subs')}: ${list(tm.substitutes.map((m) => m.name))}`) : null,
      this.admin ? this.admin.teamActions(tm) : null));
    return h('div', {},
      this.admin ? this.admin.teamForms() : null,
      list.length ? h('div', { class: 'team-grid' }, list) : h('p', { class: 'muted' }, t('teams.none')));
  }

  async downloadsView() {
    const ev = this.ev;
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const pgnButton = (label, rounds) => {
      const b = h('button', { type: 'button' }, label);
      b.addEventListener('click', () => act(b, status, async () => {
        const parts = [];
        for (const n of rounds) {
          const r = await this.round(n);
          for (const p of r.pairings || []) parts.push(await get(`/games/${enc(p.gameId)}/record?format=pgn`, { as: 'text' }));
        }
        download(`${ev.name}${rounds.length === 1 ? `-r${rounds[0]}` : ''}.pgn`, parts.join('\n\n'), 'application/x-chess-pgn');
      }));
      return b;
    };
    const all = Array.from({ length: ev.round }, (_, i) => i + 1);
    let exportBtn = null;
    if (this.admin) {
      // The organiser's backup: the whole event as JSON lines, to import into another stack.
      // A large event comes in pages (each page's first line names the next): one file a
      // page, numbered, which the import takes in that order.
      exportBtn = h('button', { type: 'button', id: 'export-event' }, t('dl.export'));
      exportBtn.addEventListener('click', () => act(exportBtn, status, async () => {
        const pages = [];
        let next = `${this.base()}/export`;
        while (next && pages.length < 1000) {
          const text = await get(next, { token: this.token, as: 'text' });
          pages.push(text);
          next = JSON.parse(text.slice(0, text.indexOf('\n'))).next;
        }
        if (pages.length === 1) download(`${ev.name}-${this.tid}.jsonl`, pages[0], 'application/x-ndjson');
        else pages.forEach((text, i) => download(`${ev.name}-${this.tid}-part${i + 1}.jsonl`, text, 'application/x-ndjson'));
      }));
    }
    return h('div', { class: 'downloads' },
      h('h2', {}, t('dl.title')),
      h('ul', { class: 'plain' },
        h('li', {}, h('a', { href: `${this.base()}/standings?format=csv`, download: `${ev.name}-standings.csv`, class: 'button' }, t('dl.standingsCsv'))),
        ev.round ? h('li', {}, pgnButton(t('dl.pgn'), all)) : null,
        all.map((n) => h('li', {}, pgnButton(t('dl.pgnRound', { n }), [n]))),
        exportBtn ? h('li', {}, exportBtn) : null),
      status);
  }

  async tablesView() {
    const mod = await import('./arbiter.js');
    const host = h('div', {});
    mod.mountTables(host, { tid: this.tid, token: this.token });
    return host;
  }
}

/** startsIn says how long until a time: "in 12 minutes", "in 2 hours", or the date when further. */
function startsIn(at) {
  const ms = new Date(at).getTime() - Date.now();
  if (ms < 3600000) return relativeTime(Math.max(1, Math.round(ms / 60000)), 'minute');
  if (ms < 86400000) return relativeTime(Math.round(ms / 3600000), 'hour');
  return formatTime(at);
}

/** cellShort writes a crosstable cell: opponent's number, colour, result (* in play). */
function cellShort(c) {
  if (!c.opponent) return t(`ct.${c.mark || 'bye'}`);
  const mark = c.mark === 'playing' ? '*' : isWin(c) ? (c.mark === 'forfeit' ? '+' : '1') : c.result === '1/2-1/2' ? '½' : (c.mark === 'forfeit' ? '−' : '0');
  return `${c.opponentNumber ?? ''}${c.colour === 'red' ? t('ct.redShort') : t('ct.blackShort')} ${mark}`;
}

function isWin(c) {
  if (!c.result) return false;
  return (c.colour === 'red' && (c.result === '1-0' || c.result === '+-')) || (c.colour === 'black' && (c.result === '0-1' || c.result === '-+'));
}

/** mount draws the event page for tid into root. */
export function mount(root, { tid }) {
  const page = new EventPage(root, tid);
  page.start();
  return page;
}
