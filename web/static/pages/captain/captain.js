// pages/captain/captain.js — the captain's page inside the event page
// (/t/{tid} with a captain's token, tab "lineup"): the lineup for the team's
// match in the latest round, picked board by board from the roster; under
// boards with substitutes (T-2) the roster's order is kept, and a lineup
// that breaks it is refused here, in the page's language, before anything is
// sent (the server refuses it too); the lineup deadline (the round's start,
// T-3) counts down; once both lineups are in the match is set and both
// teams' boards show. Lineups stay private until then (the server shows the
// opponent's only when the match is set), so the captain's own submitted
// lineup is kept in this browser to show while waiting.
//
// The pure functions are unit-tested (web/unit/teams.test.mjs).

import { get } from '../../core/http.js';
import { errorText, formatTime, t } from '../../core/i18n.js';
import * as outbox from '../../core/outbox.js';
import { tokenParts } from '../../core/tokens.js';
import { act, clear, h, select, showError, showOk } from '../../ui.js';

const enc = encodeURIComponent;

/** roster lists a team's players in roster order: members by board, then substitutes. */
export function roster(team) {
  const byBoard = (a, b) => (a.board || 0) - (b.board || 0);
  return [...(team.members || []).slice().sort(byBoard), ...(team.substitutes || []).slice().sort(byBoard)];
}

/**
 * lineupProblem checks a lineup (player ids, board 1 first) against the
 * roster before it is sent: every board filled, nobody twice, and under
 * boardsWithSubstitutes (T-2) the roster's order kept. It returns null or
 * {key, vars} naming the problem for t().
 */
export function lineupProblem(ids, players, format) {
  const at = new Map(players.map((p, i) => [p.id, i]));
  const name = (id) => players[at.get(id)]?.name || id;
  for (let b = 0; b < ids.length; b++) {
    if (!ids[b]) return { key: 'cap.missing', vars: { board: b + 1 } };
    if (ids.indexOf(ids[b]) !== b) return { key: 'cap.twice', vars: { name: name(ids[b]) } };
  }
  if (format === 'boardsWithSubstitutes') {
    for (let b = 1; b < ids.length; b++) {
      if (at.get(ids[b]) < at.get(ids[b - 1])) {
        return { key: 'cap.order', vars: { board: b + 1, name: name(ids[b]), prevBoard: b, prev: name(ids[b - 1]) } };
      }
    }
  }
  return null;
}

/** countdown writes the time left until at: "12:05", "1:02:03", or null once past. */
export function countdown(at, now = Date.now()) {
  const ms = new Date(at).getTime() - now;
  if (!(ms > 0)) return null;
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** myMatch finds the team's match in a round (home or away), or null. */
export function myMatch(round, teamId) {
  return ((round && round.matches) || []).find((m) => m.home === teamId || m.away === teamId) || null;
}

/**
 * boardsOf pairs up a set match's board games from the team's side: board,
 * our player and colour, their player.
 */
export function boardsOf(round, m, teamId) {
  const home = m.home === teamId;
  return ((round && round.pairings) || []).filter((p) => p.match === m.match).sort((a, b) => a.board - b.board).map((p) => {
    // T-6: the first-listed team has red on odd boards.
    const ourRed = home === (p.board % 2 === 1);
    return { board: p.board, ours: ourRed ? p.redName : p.blackName, theirs: ourRed ? p.blackName : p.redName, colour: ourRed ? 'red' : 'black', gameId: p.gameId };
  });
}

const kept = (tid, n, team) => `xqtour:lineup:${tid}:${n}:${team}`;

/**
 * mountCaptain draws the captain's lineup page into host. ctx: {tid, token,
 * state (the event page's EventState), onChange()}.
 */
export function mountCaptain(host, ctx) {
  const { tid, token, state } = ctx;
  const teamId = tokenParts(token).id;
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const clock = h('p', { class: 'deadline', role: 'timer', 'aria-live': 'off' });
  const body = h('div');
  let round = null;
  let timer = 0;
  let poll = 0;

  const team = () => state.teamById(teamId);

  function keptLineup(n) {
    try { return JSON.parse(localStorage.getItem(kept(tid, n, teamId)) || 'null'); } catch { return null; }
  }

  function tick() {
    if (!round || !round.startsAt) { clock.textContent = ''; return; }
    const left = countdown(round.startsAt);
    clock.textContent = left ? t('cap.deadline', { left, at: formatTime(round.startsAt) }) : t('cap.deadlinePassed', { at: formatTime(round.startsAt) });
  }

  async function load() {
    const n = state.ev?.round;
    round = n ? await get(`/tournaments/${enc(tid)}/rounds/${n}`).catch(() => null) : null;
    draw();
  }

  function draw() {
    clearInterval(timer);
    clearTimeout(poll);
    const tm = team();
    const title = h('h2', {}, t('cap.title', { team: tm ? tm.name : '' }));
    if (!round) { clear(body, title, h('p', { class: 'muted' }, t('cap.noRound'))); return; }
    const m = myMatch(round, teamId);
    if (!m) { clear(body, title, h('p', { class: 'muted' }, t('cap.noMatch', { n: round.round }))); return; }
    const opp = m.home === teamId ? m.awayName : m.homeName;
    const head = [title, h('p', { class: 'cap-match' }, t('cap.match', { n: round.round, no: m.number, opp })), clock];
    timer = setInterval(tick, 1000);
    tick();
    if (m.set) {
      const rows = boardsOf(round, m, teamId);
      clear(body, ...head, h('h3', {}, t('cap.both')),
        h('div', { class: 'table-wrap' }, h('table', { class: 'lineups' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('cap.board')), h('th', { scope: 'col' }, tm ? tm.name : ''), h('th', { scope: 'col' }, opp))),
          h('tbody', {}, rows.map((r) => h('tr', { 'data-board': r.board },
            h('td', { class: 'num' }, String(r.board)),
            h('td', { class: `name ${r.colour}` }, r.ours, h('small', { class: 'muted' }, ` (${t(r.colour === 'red' ? 'me.red' : 'me.black')})`)),
            h('td', { class: 'name' }, h('a', { href: `/g/${enc(r.gameId)}` }, r.theirs))))))));
      return;
    }
    const players = tm ? roster(tm) : [];
    const boards = state.ev.boards || 0;
    const mine = keptLineup(round.round);
    const format = state.ev.teamFormat;
    const sels = Array.from({ length: boards }, (_, i) => select([['', '—'], ...players.map((p, j) => [p.id, `${j + 1}. ${p.name}${p.rating ? ` (${p.rating})` : ''}`])],
      { id: `cap-board-${i + 1}`, name: `board${i + 1}`, value: (mine && mine[i]) || '' }));
    const submit = h('button', { type: 'submit', class: 'primary' }, mine ? t('cap.replace') : t('cap.submit'));
    const form = h('form', { id: 'captain-lineup', novalidate: true },
      h('p', { class: 'muted' }, format === 'boardsWithSubstitutes' ? t('cap.orderHelp') : t('cap.freeHelp')),
      sels.map((s, i) => h('div', { class: 'field board-pick' }, h('label', { for: s.id }, t('cap.boardN', { n: i + 1 })), s)),
      h('div', { class: 'row wrap' }, submit), status);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const ids = sels.map((s) => s.value);
      const bad = lineupProblem(ids, players, format);
      if (bad) {
        clear(status, h('p', { class: 'error', role: 'alert' }, t(bad.key, bad.vars)));
        return;
      }
      act(submit, status, async () => {
        await outbox.post(`/tournaments/${enc(tid)}/rounds/${round.round}/lineups`, { lineup: ids }, { token });
        localStorage.setItem(kept(tid, round.round, teamId), JSON.stringify(ids));
        await load();
        showOk(status, t('cap.sent'));
        ctx.onChange();
      }).catch((err) => showError(status, err));
    });
    const waiting = mine ? h('section', { class: 'card cap-waiting' }, h('h3', {}, t('cap.yours')),
      h('ol', {}, mine.map((id) => h('li', {}, players.find((p) => p.id === id)?.name || id))),
      h('p', { class: 'muted' }, t('cap.waiting', { opp }))) : null;
    clear(body, ...head, waiting, form);
    // The opponent's lineup arrives on its own: look again while waiting for it.
    if (mine) poll = setTimeout(() => load().then(() => { if (myMatch(round, teamId)?.set) ctx.onChange(); }), 3000);
  }

  host.replaceChildren(h('section', { class: 'captain', 'aria-label': t('tab.lineup') }, body));
  load().catch((err) => clear(body, h('p', { class: 'error', role: 'alert' }, errorText(err))));
  return { reload: load };
}
