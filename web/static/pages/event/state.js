// pages/event/state.js — the event page's state: what it reads from the
// API (the event, players, teams, rounds, standings, crosstable, the
// reader's own games) and what it derives from that, apart from how it is
// drawn (view.js). load(ui) reads whatever the open tab needs and returns a
// snapshot the view draws synchronously; the exported functions below the
// class are pure and unit-tested (web/unit/event-state.test.mjs).

import { ApiError, get, getAll } from '../../core/http.js';
import { t } from '../../core/i18n.js';
import { tokenFrom, tokenParts } from '../../core/tokens.js';
import { points } from '../../names.js';

const enc = encodeURIComponent;

/** EventState holds one event page's data and reads it from the API. */
export class EventState {
  constructor(tid) {
    this.tid = tid;
    this.token = tokenFrom(`event:${tid}`);
    // rawToken is what the link or this browser gave, kept so a token that
    // is not this event's, or no longer works, is said to be wrong (checkToken).
    this.rawToken = this.token;
    const parts = tokenParts(this.token);
    this.kind = parts.scope === tid ? parts.kind : '';
    // A festival's token (E-3) is kept until the event says whether it is
    // one of the festival's sections (loadCore).
    this.festivalToken = parts.scope !== tid && parts.scope.startsWith('f') ? this.token : '';
    if (parts.scope !== tid) this.token = '';
    this.ev = null;
    this.players = [];
    this.teams = [];
    this.roundCache = new Map();
    this.me = null; // null: not asked yet (or no token)
    this.updatedAt = null;
  }

  base() { return `/tournaments/${enc(this.tid)}`; }

  playerById(id) { return this.players.find((p) => p.id === id); }
  teamById(id) { return this.teams.find((x) => x.id === id); }

  /** loadCore reads the event, its players and (a team event) its teams. */
  async loadCore() {
    const [ev, pl] = await Promise.all([get(this.base()), get(`${this.base()}/players`)]);
    this.ev = ev;
    if (this.festivalToken && ev.festival === tokenParts(this.festivalToken).scope) {
      this.token = this.festivalToken;
      this.kind = tokenParts(this.token).kind;
    }
    this.players = pl.players || [];
    if (ev.teams) this.teams = (await get(`${this.base()}/teams`)).teams || [];
    this.updatedAt = new Date();
  }

  /** round reads round n with its explanations (kept until a change names it). */
  async round(n) {
    if (!n) return null;
    if (this.roundCache.has(n)) return this.roundCache.get(n);
    const r = await get(`${this.base()}/rounds/${n}?explain=true`);
    this.roundCache.set(n, r);
    return r;
  }

  /** standingsRows reads the current standings, every page of them, for the spreadsheet. */
  async standingsRows() {
    return (await getAll(`${this.base()}/standings`)).rows || [];
  }

  /** allRounds reads every paired round (kept in the round cache). */
  async allRounds() {
    return Promise.all(Array.from({ length: this.ev.round }, (_, i) => this.round(i + 1).catch(() => null)));
  }

  /** scoresBefore maps each player to their points before round n. */
  async scoresBefore(n) {
    if (n <= 1) return new Map();
    try {
      const st = await getAll(`${this.base()}/standings?round=${n - 1}${this.ev.teams ? '&view=boards' : ''}`);
      return new Map((st.rows || []).map((r) => [r.playerId, r.points]));
    } catch {
      return new Map();
    }
  }

  /**
   * checkToken says whether the token the page was given works: "none" (no
   * token), "ok", or "bad" — not this event's token's shape, or refused by
   * GET /me (401: mistyped, or replaced by a new link). A bad token is
   * dropped: the page reads as the public's and says why.
   */
  async checkToken() {
    if (!this.rawToken) return 'none';
    let bad = !this.token;
    if (!bad) {
      try {
        await get('/me', { token: this.token });
      } catch (err) {
        bad = err instanceof ApiError && (err.status === 401 || err.status === 403);
        if (!bad && !(err instanceof ApiError && err.status === 404)) throw err;
      }
    }
    if (!bad) return 'ok';
    this.token = '';
    this.kind = '';
    return 'bad';
  }

  /** loadMe asks who the token is (GET /me), else reads it from the token and the round. */
  async loadMe() {
    if (!this.token || this.kind === 'organiser') return null;
    try {
      this.me = await get('/me', { token: this.token });
    } catch (err) {
      // A server without GET /me: a player's token still names the player,
      // and the latest round says where they play.
      if (!(err instanceof ApiError) || err.status !== 404) console.warn(err);
      const r = await this.round(this.ev.round).catch(() => null);
      this.me = meFromRound(tokenParts(this.token), this.players, r);
    }
    return this.me;
  }

  /**
   * refresh re-reads after a change: a push naming a round forgets that
   * round; a poll, a reconnect or a forced redraw forgets them all.
   */
  async refresh(change = {}) {
    const background = change.what === 'poll' || change.what === 'reconnect';
    if (change.what && !background) this.roundCache.delete(change.round);
    if (background || !change.what || change.force) this.roundCache.clear();
    await this.loadCore();
  }

  /**
   * load reads what the open tab (ui.tab) needs and returns the snapshot the
   * view draws: {ev, players, teams, me, kind, updatedAt, current, tab: {…}}.
   */
  async load(ui) {
    const ev = this.ev;
    const current = ev.round ? await this.round(ev.round).catch(() => null) : null;
    const snap = { tid: this.tid, ev, players: this.players, teams: this.teams, me: this.me, kind: this.kind, hasToken: !!this.token,
      updatedAt: this.updatedAt, current, tab: { name: ui.tab } };
    const tab = snap.tab;
    if (ui.tab === 'pairings') {
      tab.n = Math.min(ui.round || ev.round, ev.round);
      if (tab.n) [tab.round, tab.before] = await Promise.all([this.round(tab.n), this.scoresBefore(tab.n)]);
    } else if (ui.tab === 'standings') {
      tab.views = standingsViews(ev);
      tab.view = tab.views.includes(ui.standingsView) ? ui.standingsView : tab.views[0];
      tab.n = ui.standingsRound || ev.round;
      tab.team = tab.view === 'teams' || tab.view === 'teamsByPlaces';
      const q = new URLSearchParams();
      if (tab.view !== (ev.teams ? 'teams' : 'players')) q.set('view', tab.view);
      if (tab.n && tab.n !== ev.round) q.set('round', tab.n);
      if (ui.group) q.set('group', ui.group);
      tab.st = ev.round ? await getAll(`${this.base()}/standings${q.toString() ? `?${q}` : ''}`).catch((err) => {
        // A knockout has its final places once the bracket is decided; until then the table shows.
        if (tab.view !== 'overall') throw err;
        tab.view = tab.views[1];
        return getAll(`${this.base()}/standings${tab.view !== (ev.teams ? 'teams' : 'players') ? `?view=${tab.view}` : ''}`);
      }) : null;
      tab.team = tab.view === 'teams' || tab.view === 'teamsByPlaces';
      tab.overall = tab.view === 'overall';
      if (tab.view === 'boards' && ev.teams) tab.rounds = await this.allRounds();
      if (tab.st && !tab.team && !tab.overall) {
        const cq = new URLSearchParams();
        if (tab.n && tab.n !== ev.round) cq.set('round', tab.n);
        if (ui.group) cq.set('group', ui.group);
        const [ct] = await Promise.all([
          getAll(`${this.base()}/crosstable${cq.toString() ? `?${cq}` : ''}`).catch(() => null),
          ...Array.from({ length: tab.n }, (_, i) => this.round(i + 1).catch(() => null)),
        ]);
        tab.ct = ct;
        tab.games = gamesByRound(this.roundCache, tab.n);
      }
      if (ev.status === 'finished' && !tab.team && !tab.overall) {
        // The statistics count every round's games.
        await Promise.all(Array.from({ length: ev.round }, (_, i) => this.round(i + 1).catch(() => null)));
        tab.stats = stats(this.roundCache.values());
      }
    } else if (ui.tab === 'crosstable' && ev.round) {
      tab.ct = await getAll(`${this.base()}/crosstable${ui.group ? `?group=${enc(ui.group)}` : ''}`);
      if (ev.teams) tab.rounds = await this.allRounds();
    } else if (ui.tab === 'bracket' && ev.round) {
      tab.rounds = await this.allRounds();
      tab.places = await getAll(`${this.base()}/standings?view=overall`).catch(() => null);
    }
    return snap;
  }

  /** card reads a player's rounds for the standings' player card. */
  async card(playerId, name) {
    const ct = await getAll(`${this.base()}/crosstable`);
    const row = (ct.rows || []).find((r) => r.playerId === playerId);
    return row ? { playerId, name, cells: row.cells, ct } : null;
  }

  /** pgn reads the PGN of every game of the rounds given, one after another. */
  async pgn(rounds) {
    const parts = [];
    for (const n of rounds) {
      const r = await this.round(n);
      for (const p of r.pairings || []) parts.push(await get(`/games/${enc(p.gameId)}/record?format=pgn`, { as: 'text' }));
    }
    return parts.join('\n\n');
  }

  /**
   * exportPages reads the organiser's backup, the whole event as JSON lines:
   * a large event comes in pages, each page's first line naming the next.
   */
  async exportPages() {
    const pages = [];
    let next = `${this.base()}/export`;
    while (next && pages.length < 1000) {
      const text = await get(next, { token: this.token, as: 'text' });
      pages.push(text);
      next = JSON.parse(text.slice(0, text.indexOf('\n'))).next;
    }
    return pages;
  }
}

/** tabsOf lists the page's tabs for an event and the reader's kind of token. */
export function tabsOf(ev, kind, admin) {
  const tabs = ['pairings', 'standings', 'crosstable', ev.teams ? 'teams' : 'players', 'downloads'];
  if (ev.system === 'knockout') tabs.splice(1, 0, 'bracket');
  if (kind === 'team') tabs.splice(1, 0, 'lineup'); // a captain's token (tokens.js names it by its team)
  if (admin) tabs.push('console');
  if (kind === 'official') tabs.push('tables');
  return tabs;
}

/** standingsViews lists the tables an event's standings come in. */
export function standingsViews(ev) {
  // A knockout's final places come from the bracket (S-3): that view first.
  const ko = ev.system === 'knockout' ? ['overall'] : [];
  return ev.teams ? [...ko, 'teams', 'boards', 'teamsByPlaces'] : [...ko, 'players', 'teamsByPlaces'];
}

/** meFromRound is the reader as a player's token and the latest round show them (no GET /me). */
export function meFromRound({ kind, id }, players, r) {
  const p = players.find((x) => x.id === id);
  if (kind !== 'player' || !p) return kind === 'official' ? { role: 'official', id } : null;
  const me = { role: 'player', id, name: p.name, player: p, currentGame: null, nextGame: null };
  const pair = r && (r.pairings || []).find((x) => x.red === id || x.black === id);
  if (pair && !pair.result) {
    const red = pair.red === id;
    me.currentGame = { round: r.round, table: pair.table, gameId: pair.gameId, colour: red ? 'red' : 'black',
      opponent: red ? pair.black : pair.red, opponentName: red ? pair.blackName : pair.redName, result: null };
  }
  return me;
}

/** gamesByRound maps "round:player" to the game of that player in that round (rounds 1…n held). */
export function gamesByRound(cache, n) {
  const games = new Map();
  for (let k = 1; k <= n; k++) {
    for (const p of (cache.get(k)?.pairings || [])) {
      games.set(`${k}:${p.red}`, p.gameId);
      games.set(`${k}:${p.black}`, p.gameId);
    }
  }
  return games;
}

/** stats counts the results of the rounds given: red and black wins, draws, byes, forfeits. */
export function stats(rounds) {
  const s = { red: 0, black: 0, draw: 0, bye: 0, forfeit: 0 };
  for (const r of rounds) {
    for (const p of r.pairings || []) {
      if (p.result === '1-0') s.red++;
      else if (p.result === '0-1') s.black++;
      else if (p.result === '1/2-1/2') s.draw++;
      else if (p.result === '+-' || p.result === '-+' || p.result === '0-0') s.forfeit++;
    }
    s.bye += [r.bye].filter(Boolean).length;
  }
  return s;
}

/** playingCount is how many games of a round have no result yet. */
export const playingCount = (r) => ((r && r.pairings) || []).filter((p) => !p.result).length;

/** whyText turns a pairing explanation's reason id into words (an unknown id as sent). */
export function whyText(id) {
  return id ? (t(`why.${id}`) === `why.${id}` ? id : t(`why.${id}`)) : '';
}

/** isWin says whether a crosstable cell is a win of its row's player. */
export function isWin(c) {
  if (!c.result) return false;
  return (c.colour === 'red' && (c.result === '1-0' || c.result === '+-')) || (c.colour === 'black' && (c.result === '0-1' || c.result === '-+'));
}

/** cellShort writes a crosstable cell: opponent's number, colour, result (* in play). */
export function cellShort(c) {
  if (!c.opponent) return t(`ct.${c.mark || 'bye'}`);
  const mark = c.mark === 'playing' ? '*' : isWin(c) ? (c.mark === 'forfeit' ? '+' : '1') : c.result === '1/2-1/2' ? '½' : (c.mark === 'forfeit' ? '−' : '0');
  return `${c.opponentNumber ?? ''}${c.colour === 'red' ? t('ct.redShort') : t('ct.blackShort')} ${mark}`;
}

/** cellText writes a crosstable cell in full: "v Name (3, red) 1". */
export function cellText(c, ct) {
  if (!c.opponent) return t(`ct.${c.mark || 'bye'}`) + (c.points ? ` (${points(c.points)})` : '');
  const opp = ((ct && ct.rows) || []).find((r) => r.playerId === c.opponent);
  const col = c.colour === 'red' ? t('me.red') : t('me.black');
  const res = c.mark === 'playing' ? '*' : points(c.points);
  return `${t('ct.vs')} ${opp ? opp.name : ''} (${c.opponentNumber ?? ''}, ${col}) ${res}${c.mark && c.mark !== 'playing' ? ` ${t(`ct.${c.mark}`)}` : ''}`;
}

/** byeIds lists a round's byes once each (the single bye and a team round's byes). */
export function byeIds(r) {
  return [r.bye, ...(r.byes || [])].filter(Boolean).filter((v, i, a) => a.indexOf(v) === i);
}

/** pairingGroups orders a round's pairings under their matches (a team round), the rest after. */
export function pairingGroups(r) {
  const pairings = (r && r.pairings) || [];
  if (!(r && r.matches && r.matches.length)) return [{ match: null, pairings }];
  const byMatch = new Map();
  for (const p of pairings) if (p.match) (byMatch.get(p.match) || byMatch.set(p.match, []).get(p.match)).push(p);
  const groups = r.matches.map((m) => ({ match: m, pairings: byMatch.get(m.match) || [] }));
  const loose = pairings.filter((x) => !x.match);
  if (loose.length) groups.push({ match: null, pairings: loose });
  return groups;
}
