// pages/event/view.js — the event page drawn from a snapshot of its state
// (state.js load()), the reader's choices (ui) and the page's actions (act):
// pure, no I/O — view(snap, ui, act, admin) returns virtual nodes that
// core/view.js patches into the page, so a live redraw keeps focus, scroll
// and half-typed fields. The organiser's controls (event-admin.js) are DOM
// islands the admin keeps across redraws.
//
// Public: header, pairings by round (台 | 号 | 红方 | 分 | 结果 | 分 | 黑方 | 号,
// each pair's explanation one tap away), standings in every view the API
// has, crosstable, players or teams, downloads; the reader's own games.

import { formatTime, list, relativeTime, t } from '../../core/i18n.js';
import { island, v } from '../../core/view.js';
import { playerStatus, points, resultName, resultShort, statusName, systemName, tcName, tiebreakHelp, tiebreakName } from '../../names.js';
import { byeIds, cellShort, cellText, pairingGroups, playingCount, tabsOf, whyText } from './state.js';
import {
  boardLabel, boardRankings, boardRankingsView, bracketOf, bracketView, decidedText, gameNo, matchTitle, placesView, podiumView,
  rapidIndexes, signatureLine, teamCrosstable, teamCrosstableView, tieLabel,
} from './teams.js';

const enc = encodeURIComponent;

/** startsIn says how long until a time: "in 12 minutes", "in 2 hours", or the date when further. */
export function startsIn(at, now = Date.now()) {
  const ms = new Date(at).getTime() - now;
  if (ms < 3600000) return relativeTime(Math.max(1, Math.round(ms / 60000)), 'minute');
  if (ms < 86400000) return relativeTime(Math.round(ms / 3600000), 'hour');
  return formatTime(at);
}

/** headerItems are the event's facts under its name: [text, class]. */
export function headerItems(ev, current, now = Date.now(), teamCount = undefined) {
  let roundText = ev.round ? t('ev.round', { n: ev.round, of: ev.rounds }) : t('ev.roundNone', { of: ev.rounds });
  if (!ev.rounds) roundText = ev.round ? t('ev.roundsOpen', { n: ev.round }) : t('pair.none');
  const items = [
    [systemName(ev.system) + (ev.teams ? ` · ${t('tab.teams')}` : ''), 'system'],
    [roundText, 'round'],
    [tcName(ev.timeControl), 'tc'],
    [statusName(ev.status), `status st-${ev.status}`],
    [ev.teams && teamCount !== undefined ? t('ev.teamCount', { n: teamCount }) : t('ev.players', { n: ev.players }), 'count'],
  ];
  if (current && ev.status === 'running') {
    const playing = playingCount(current);
    if (current.startsAt && new Date(current.startsAt).getTime() > now) items.push([t('ev.startsIn', { time: startsIn(current.startsAt, now) }), 'starts']);
    else if (current.started === false) items.push([t('ev.notStarted', { n: current.round }), 'starts']);
    else if (playing) items.push([t('ev.inPlay', { n: playing }), 'inplay']);
  }
  return items;
}

const printButton = (act) => v('button', { type: 'button', class: 'small', onclick: act.print }, t('pair.print'));

function roundPicker(ev, current, onPick, key) {
  if (ev.round <= 1) return null;
  return v('select', { key, 'aria-label': t('pair.round'), onchange: (e) => onPick(Number(e.target.value)) },
    Array.from({ length: ev.round }, (_, i) => v('option', { value: String(i + 1), selected: i + 1 === current }, t('ev.roundsOpen', { n: i + 1 }))));
}

function header(s) {
  return v('header', { class: 'event-header', key: 'header' },
    v('h1', {}, s.ev.name),
    v('ul', { class: 'event-meta' }, headerItems(s.ev, s.current, Date.now(), s.teams.length).map(([text, cls]) => v('li', { class: cls }, text))),
    v('p', { class: 'updated muted' }, t('ev.updated', { time: formatTime(s.updatedAt, { timeStyle: 'medium' }) })),
    // The broadcast page: every board of the round in play (pages/live).
    s.ev.round ? v('p', { class: 'live-link no-print' }, v('a', { class: 'button', href: `/t/${enc(s.tid)}/live` }, t('live.link'))) : null);
}

function meCard(s, act) {
  const me = s.me;
  if (!me) return v('div', { class: 'me', key: 'me' });
  // "(you play Red)": a bare "(red)" after the opponent's name read as theirs.
  const colour = (c) => t(c === 'red' ? 'me.youRed' : 'me.youBlack');
  const parts = [];
  if (me.role === 'player') {
    if (me.currentGame) {
      const g = me.currentGame;
      parts.push(v('a', { class: 'button primary big', href: `/g/${enc(g.gameId)}` }, t('me.playing')),
        v('p', {}, t('me.current', { round: g.round, table: g.table, name: g.opponentName, colour: colour(g.colour) })));
    }
    if (me.nextGame) {
      const g = me.nextGame;
      parts.push(v('p', {}, v('a', { href: `/g/${enc(g.gameId)}` }, t('me.next', { round: g.round, table: g.table, name: g.opponentName, colour: colour(g.colour) }))));
    }
    const ci = checkInPart(s, act);
    if (ci) parts.push(ci);
    parts.push(v('p', { class: 'muted' }, t('me.player', { name: me.name || '' })));
  } else if (me.role === 'captain') {
    parts.push(v('p', { class: 'muted' }, t('me.captain', { name: me.name || '' })));
  } else if (me.role === 'arbiter' || me.role === 'chiefArbiter' || me.role === 'scribe') {
    parts.push(v('p', { class: 'muted' }, t(me.role === 'scribe' ? 'me.scribe' : 'me.official', { name: me.name || '' })));
  }
  return v('div', { class: 'me', key: 'me' }, v('div', { class: 'card me-card' }, parts,
    v('button', { type: 'button', class: 'link small', onclick: act.forget }, t('me.forget'))));
}

// checkInPart is the player's check-in for the next round (E-2): a button
// while its window is open, "checked in" once done.
function checkInPart(s, act) {
  const { ev, me } = s;
  if (!ev.checkIn || ev.status === 'finished' || (ev.rounds && ev.round >= ev.rounds) || me.player?.status !== 'active') return null;
  const n = ev.round + 1;
  if ((me.player.checkedIn || 0) >= n) return v('p', { class: 'ok checked-in', key: 'ci' }, `✓ ${t('me.checkedIn', { round: n })}`);
  if (ev.checkInOpensAt && new Date(ev.checkInOpensAt).getTime() > Date.now()) {
    return v('p', { class: 'muted', key: 'ci' }, t('me.checkInOpens', { round: n, time: formatTime(ev.checkInOpensAt) }));
  }
  return v('button', { type: 'button', class: 'primary big', id: 'check-in', key: 'ci', onclick: () => act.checkIn(n) }, t('me.checkIn', { round: n }));
}

const isMine = (me, ...ids) => !!(me && me.role === 'player' && ids.includes(me.id));

function pairRow(s, ui, act, admin, p, n, before, matches) {
  const num = (id) => s.players.find((x) => x.id === id)?.number ?? '';
  const x = p.explanation;
  const id = `why-${p.table}-${p.board || 0}`;
  const open = ui.openWhy.has(id);
  const res = p.result
    ? v('a', { href: `/g/${enc(p.gameId)}`, title: resultName(p.result) + (p.reason ? ` · ${p.reason}` : '') }, resultShort(p.result))
    : v('a', { href: `/g/${enc(p.gameId)}`, class: 'playing', title: t('pair.playing') }, '*');
  const rows = [v('tr', { key: `p-${id}`, class: isMine(s.me, p.red, p.black) ? 'mine' : null, 'data-table': p.table },
    v('td', { class: 'num', title: p.board && p.match && matches ? t('team.venueTable', { n: p.table }) : null }, boardLabel(p, matches),
      !matches && p.match ? v('small', { class: 'ko-tie' }, ` ${tieLabel(p.match)}${p.board > 1 ? ` · ${gameNo(p)}` : ''}`) : null),
    v('td', { class: 'num col-no' }, num(p.red)),
    v('td', { class: 'name red' }, p.redName),
    v('td', { class: 'num' }, points(before.get(p.red) ?? 0)),
    v('td', { class: 'result' }, res, admin ? island(`res-${p.gameId}`, admin.resultControl(p, n), 'span') : null),
    v('td', { class: 'num' }, points(before.get(p.black) ?? 0)),
    v('td', { class: 'name black' }, p.blackName),
    v('td', { class: 'num col-no' }, num(p.black)),
    v('td', { class: 'why no-print' }, x ? v('button', {
      type: 'button', class: 'small why-btn', 'aria-expanded': String(open), 'aria-controls': id,
      'aria-label': t('pair.whyFor', { table: p.table }), onclick: () => act.toggleWhy(id),
    }, '?') : null))];
  if (x) {
    rows.push(v('tr', { key: `w-${id}`, class: 'why-row', id, hidden: !open },
      v('td', { colspan: 9 },
        v('strong', {}, t('pair.whyFor', { table: p.table })),
        v('p', {}, x.opponent),
        v('p', {}, `${whyText(x.opponentReason)} · ${t('pair.colour', { why: whyText(x.colourReason) })}`),
        x.scoreGroup !== undefined ? v('p', { class: 'muted' }, t('pair.scoreGroup', { g: points(x.scoreGroup) })) : null)));
  }
  return rows;
}

function pairings(s, ui, act, admin) {
  const { ev } = s;
  const { n, round: r, before } = s.tab;
  const latest = n === ev.round ? r : s.current;
  const started = !latest || latest.started !== false;
  const adminTop = admin ? island(`round-controls-${ev.round}-${ev.status}-${started}`, admin.roundControls(n, started)) : null;
  if (!n) return v('div', { key: 'pairings' }, adminTop, v('p', { class: 'muted' }, t('pair.none')));
  const rows = [];
  const rapid = rapidIndexes(r.matches);
  const matches = (r.matches || []).length ? r.matches : null;
  for (const g of pairingGroups(r)) {
    if (g.match) {
      const m = g.match;
      const decided = decidedText(m);
      rows.push(v('tr', { class: 'match-row', key: `m-${m.match}` }, v('th', { colspan: 9, scope: 'rowgroup' },
        matchTitle(m, rapid.get(m.match)) + (m.set ? '' : ` · ${t('pair.lineupPending')}`),
        decided ? v('small', { class: 'decided' }, ` · ${decided}`) : null)));
    }
    for (const p of g.pairings) rows.push(...pairRow(s, ui, act, admin, p, n, before, matches));
  }
  for (const id of byeIds(r)) {
    const who = s.players.find((x) => x.id === id)?.name || s.teams.find((x) => x.id === id)?.name || id;
    const no = s.players.find((x) => x.id === id)?.number ?? '';
    rows.push(v('tr', { class: 'bye-row', key: `bye-${id}` }, v('td', { class: 'num' }, ''), v('td', { class: 'num col-no' }, no),
      v('td', { class: 'name', colspan: 7 }, t('pair.byeRow', { name: who }))));
  }
  const elim = (r.eliminated || []).map((id) => s.players.find((x) => x.id === id)?.name || id);
  const change = admin ? admin.changeForm(n, r) : null;
  return v('div', { key: 'pairings' },
    adminTop,
    v('h2', { class: 'print-title' }, `${ev.name} — ${t('ev.roundsOpen', { n })}`, r.startsAt ? v('small', {}, ` · ${formatTime(r.startsAt)}`) : null),
    v('div', { class: 'toolbar no-print' }, roundPicker(ev, n, act.pickRound, 'pair-round'), printButton(act)),
    v('div', { class: 'table-wrap' }, v('table', { class: 'pairings' },
      v('thead', {}, v('tr', {},
        ['pair.table', 'pair.no', 'pair.red', 'pair.score', 'pair.result', 'pair.score', 'pair.black', 'pair.no'].map((k) => v('th', { scope: 'col', class: k === 'pair.no' ? 'col-no' : null }, t(k))),
        v('th', { scope: 'col', class: 'no-print' }, v('span', { class: 'visually-hidden' }, t('pair.why'))))),
      v('tbody', {}, rows))),
    elim.length ? v('p', { class: 'muted' }, t('pair.eliminated', { names: list(elim) })) : null,
    ev.teams ? signatureLine() : null,
    change ? island(`change-${n}`, change) : null);
}

function abbr(title, text) {
  return v('abbr', { title, tabindex: '0' }, text);
}

function standings(s, ui, act) {
  const { ev } = s;
  const { views, view, n, st, team, ct, games, stats } = s.tab;
  const groups = ev.system === 'groups' ? ['', ...Array.from({ length: ev.groups?.count || 2 }, (_, i) => String.fromCharCode(65 + i))] : null;
  const tools = v('div', { class: 'toolbar no-print' },
    views.length > 1 ? v('select', { key: 'st-view', 'aria-label': t('st.view'), onchange: (e) => act.setUi({ standingsView: e.target.value }) },
      views.map((x) => v('option', { value: x, selected: x === view }, t(`st.view.${x}`)))) : null,
    // The picker shows the round the standings are after (the API's
    // round: the last complete one), as the heading below does.
    roundPicker(ev, (st && st.round) || n, (r) => act.setUi({ standingsRound: r }), 'st-round'),
    groups ? v('select', { key: 'st-group', 'aria-label': t('st.group'), onchange: (e) => act.setUi({ group: e.target.value }) },
      groups.map((g) => v('option', { value: g, selected: g === ui.group }, g || t('st.group.all')))) : null,
    printButton(act));
  if (!st || !(st.rows || []).length) return v('div', { key: 'standings' }, tools, v('p', { class: 'muted' }, t('st.none')));
  if (s.tab.overall) {
    return v('div', { key: 'standings' }, podiumView(st.rows),
      v('h2', { class: 'print-title' }, `${ev.name} — ${t('st.view.overall')}`), tools,
      v('p', { class: 'muted no-print' }, t('ko.placesHelp')), placesView(st));
  }
  if (ev.teams && view === 'boards') {
    return v('div', { key: 'standings' }, v('h2', { class: 'print-title' }, `${ev.name} — ${t('st.view.boards')}`), tools,
      v('p', { class: 'muted no-print' }, t('team.boardsHelp')), boardRankingsView(boardRankings(st.rows, s.tab.rounds || [], s.teams)));
  }
  // The team table shows match and board points in their own columns; the chain repeats neither.
  const chain = (st.chain || []).filter((c) => c !== 'points' && c !== 'matchPoints' && !(team && c === 'boardPoints'));
  const cells = new Map(((ct && ct.rows) || []).map((r) => [r.playerId, r.cells]));
  const rounds = team ? 0 : Math.max(0, ...[...cells.values()].map(roundsOf));
  const roundCell = (playerId, c) => {
    const gid = games.get(`${c.round}:${playerId}`);
    const text = cellShort(c);
    return v('td', { class: `cell col-round ${c.colour || ''} ${c.mark || ''}`, title: cellText(c, ct) },
      gid && c.opponent ? v('a', { href: `/g/${enc(gid)}` }, text) : text);
  };
  const head = v('tr', {},
    v('th', { scope: 'col' }, t('st.rank')), v('th', { scope: 'col' }, t('st.no')), v('th', { scope: 'col' }, team ? t('team.name') : t('st.name')),
    team ? null : v('th', { scope: 'col', class: 'col-rating' }, t('st.rating')),
    Array.from({ length: rounds }, (_, i) => v('th', { scope: 'col', class: 'col-round' }, t('st.roundCol', { n: i + 1 }))),
    team ? v('th', { scope: 'col' }, abbr(tiebreakHelp('matchPoints'), t('st.matchPoints'))) : null,
    v('th', { scope: 'col' }, team ? abbr(tiebreakHelp('boardPoints'), t('st.boardPoints')) : abbr(tiebreakHelp('points'), t('st.points'))),
    chain.map((c) => v('th', { scope: 'col' }, abbr(tiebreakHelp(c) || tiebreakName(c), tiebreakName(c)))),
    team ? null : v('th', { scope: 'col' }, t('st.record')));
  const rows = st.rows.map((row) => {
    const p = team ? null : s.players.find((x) => x.id === row.playerId);
    const flags = [row.shared ? t('st.shared') : '', row.playoff && ev.status === 'finished' ? t('st.playoff') : '', row.withdrawn ? t('st.withdrawn') : ''].filter(Boolean).join(' · ');
    const tb = new Map((row.tiebreaks || []).map((x) => [x.name, x.value]));
    const name = team ? row.name : v('button', { type: 'button', class: 'link', 'aria-controls': 'player-card', 'data-player': row.playerId,
      onclick: () => act.openCard(row.playerId, row.name) }, row.name);
    return v('tr', { key: `r-${row.playerId || row.name}`, class: [isMine(s.me, row.playerId) ? 'mine' : '', row.withdrawn ? 'withdrawn' : ''].join(' ').trim() || null },
      v('td', { class: 'num' }, row.rank),
      v('td', { class: 'num' }, row.number ?? ''),
      v('th', { scope: 'row', class: 'name' }, name, flags ? v('small', { class: 'flag' }, ` ${flags}`) : null),
      team ? null : v('td', { class: 'num col-rating' }, p?.rating || ''),
      team ? null : Array.from({ length: rounds }, (_, i) => {
        const c = cellOf(cells.get(row.playerId) || [], i + 1);
        return c ? roundCell(row.playerId, c) : v('td', { class: 'col-round' }, '');
      }),
      team ? v('td', { class: 'num strong' }, points(row.matchPoints)) : null,
      v('td', { class: 'num strong' }, points(team ? row.boardPoints : row.points)),
      chain.map((c) => v('td', { class: 'num' }, tb.has(c) ? points(tb.get(c)) : '')),
      team ? null : v('td', { class: 'num' }, `${row.wins}/${row.draws}/${row.losses}`));
  });
  const card = ui.card;
  return v('div', { key: 'standings' },
    stats ? v('section', { class: 'card podium', 'aria-label': t('st.podium') },
      v('h2', {}, t('st.podium')),
      v('ol', {}, st.rows.slice(0, 3).map((r) => v('li', {}, v('strong', {}, r.name), ` — ${points(r.points)}`))),
      v('p', { class: 'muted' }, `${t('stat.title')}: ${t('stat.redWins')} ${stats.red} · ${t('stat.blackWins')} ${stats.black} · ${t('stat.draws')} ${stats.draw} · ${t('stat.byes')} ${stats.bye} · ${t('stat.forfeits')} ${stats.forfeit}`)) : null,
    v('h2', { class: 'print-title' }, `${ev.name} — ${t('tab.standings')} · ${t('st.afterRound', { n: st.round })}`),
    tools,
    v('p', { class: 'muted no-print' }, t('st.afterRound', { n: st.round })),
    v('div', { class: 'table-wrap' }, v('table', { class: 'standings' }, v('thead', {}, head), v('tbody', {}, rows))),
    v('div', { id: 'player-card', class: 'player-card', hidden: !card, 'aria-live': 'polite' }, card ? [
      v('h3', {}, t('st.card', { name: card.name })),
      v('ul', { class: 'plain' }, card.cells.map((c) => v('li', {}, `${t('ev.roundsOpen', { n: c.round })}: ${cellText(c, card.ct)}`))),
      v('button', { type: 'button', class: 'small', onclick: act.closeCard }, t('ui.close'))] : null));
}

/** roundsOf is how many round columns a crosstable row's cells need. */
export const roundsOf = (cells) => Math.max(cells.length, ...cells.map((c) => c.round || 0));

/** cellOf is a row's cell of round n (by its round; by position when cells carry none). */
export const cellOf = (cells, n) => cells.find((c) => c.round === n) || (cells.some((c) => c.round) ? null : cells[n - 1]);

function crosstable(s, act) {
  const { ev } = s;
  const ct = s.tab.ct;
  if (!ev.round || !ct) return v('p', { class: 'muted', key: 'crosstable' }, t('st.none'));
  // A cell sits under its round, so a player who sat a round out keeps the columns aligned; where a
  // round holds several games of a player (a knockout tie's rapid games) the cells follow one another.
  const oneARound = (ct.rows || []).every((r) => r.cells.every((c) => c.round) && new Set(r.cells.map((c) => c.round)).size === r.cells.length);
  const rounds = Math.max(0, ...(ct.rows || []).flatMap((r) => (oneARound ? r.cells.map((c) => c.round) : [r.cells.length])));
  const byRound = (cells) => (oneARound ? Array.from({ length: rounds }, (_, i) => cells.find((c) => c.round === i + 1)) : cells);
  return v('div', { key: 'crosstable' },
    v('h2', { class: 'print-title' }, `${ev.name} — ${t('tab.crosstable')}`),
    v('div', { class: 'toolbar no-print' }, printButton(act)),
    ev.teams ? teamCrosstableView(teamCrosstable(s.tab.rounds || [], s.teams)) : null,
    ev.teams ? v('h2', { class: 'ct-players' }, t('team.playersCrosstable')) : null,
    v('div', { class: 'table-wrap' }, v('table', { class: 'crosstable' },
      v('thead', {}, v('tr', {}, v('th', { scope: 'col' }, t('st.no')), v('th', { scope: 'col' }, t('st.name')),
        Array.from({ length: rounds }, (_, i) => v('th', { scope: 'col' }, String(i + 1))), v('th', { scope: 'col' }, t('st.points')))),
      v('tbody', {}, (ct.rows || []).map((r) => v('tr', { key: r.playerId },
        v('td', { class: 'num' }, r.number), v('th', { scope: 'row', class: 'name' }, r.name),
        byRound(r.cells).map((c) => (c ? v('td', { class: `cell ${c.colour || ''} ${c.mark || ''}`, title: cellText(c, ct) }, cellShort(c)) : v('td', { class: 'cell' }, ''))),
        v('td', { class: 'num strong' }, points(r.points))))))));
}

function players(s, admin) {
  const rows = s.players.map((p) => {
    const mine = isMine(s.me, p.id);
    return v('tr', { key: p.id, class: [mine ? 'mine' : '', p.status !== 'active' ? p.status : ''].join(' ').trim() || null },
      v('td', { class: 'num' }, p.number),
      v('th', { scope: 'row', class: 'name' }, p.name, mine ? t('pl.you') : '', p.club ? v('small', { class: 'club-sub' }, p.club) : null),
      v('td', { class: 'num' }, p.rating || ''),
      v('td', { class: 'col-club' }, p.club || ''),
      v('td', {}, playerStatus(p.status), p.joinedRound > 1 ? v('small', { class: 'muted' }, ` · ${t('pl.joined', { n: p.joinedRound })}`) : null),
      admin ? v('td', { class: 'no-print' }, island(`pa-${p.id}-${p.status}`, admin.playerActions(p))) : null);
  });
  const forms = admin ? admin.registerForms() : null;
  return v('div', { key: 'players' },
    forms ? island('register', forms) : null,
    s.players.length ? v('div', { class: 'table-wrap' }, v('table', { class: 'players' },
      v('thead', {}, v('tr', {}, ['st.no', 'st.name', 'st.rating', 'st.club', 'pl.status'].map((k) => v('th', { scope: 'col', class: k === 'st.club' ? 'col-club' : null }, t(k))),
        admin ? v('th', { scope: 'col', class: 'no-print' }, v('span', { class: 'visually-hidden' }, t('tab.console'))) : null)),
      v('tbody', {}, rows))) : v('p', { class: 'muted' }, t('pl.none')));
}

function teams(s, admin) {
  const cards = s.teams.map((tm) => v('article', { class: 'card team', key: tm.id },
    v('h3', {}, `${tm.number}. ${tm.name}`, tm.status !== 'active' ? v('small', {}, ` · ${playerStatus(tm.status)}`) : null),
    v('ol', {}, (tm.members || []).map((m) => v('li', {}, m.name, m.rating ? ` (${m.rating})` : ''))),
    (tm.substitutes || []).length ? v('p', {}, `${t('teams.subs')}: ${list(tm.substitutes.map((m) => m.name))}`) : null,
    admin && tm.status !== 'withdrawn' ? island(`ta-${tm.id}-${tm.status}`, admin.teamActions(tm)) : null));
  return v('div', { key: 'teams' },
    admin ? island('team-forms', admin.teamForms()) : null,
    // T-1: under fixed boards the server orders each roster by rating; say so rather than re-sort silently.
    s.ev.teamFormat === 'fixedBoards' || !s.ev.teamFormat ? v('p', { class: 'muted' }, t('team.ratingOrder')) : null,
    cards.length ? v('div', { class: 'team-grid' }, cards) : v('p', { class: 'muted' }, t('teams.none')));
}

function downloads(s, ui, act, admin) {
  const { ev } = s;
  const all = Array.from({ length: ev.round }, (_, i) => i + 1);
  const busy = !!ui.busy;
  const pgn = (label, rounds, key) => v('button', { type: 'button', key, disabled: busy, onclick: () => act.downloadPgn(rounds) }, label);
  return v('div', { class: 'downloads', key: 'downloads' },
    v('h2', {}, t('dl.title')),
    v('ul', { class: 'plain' },
      v('li', {}, v('button', { type: 'button', id: 'standings-csv', disabled: busy, onclick: act.downloadStandings }, t('dl.standingsCsv'))),
      ev.round ? v('li', {}, pgn(t('dl.pgn'), all, 'all')) : null,
      all.map((n) => v('li', { key: `r${n}` }, pgn(t('dl.pgnRound', { n }), [n], `r${n}`))),
      admin ? v('li', {}, v('button', { type: 'button', id: 'export-event', disabled: busy, onclick: act.exportEvent }, t('dl.export'))) : null),
    v('div', { class: 'status', 'aria-live': 'polite' }, ui.error ? v('p', { class: 'error', role: 'alert' }, ui.error) : null));
}

// tokenWrong says, at the top of the page, that the link's token does not
// work here, and what to do.
function tokenWrong(ui) {
  if (!ui.tokenWrong) return v('div', { key: 'token-wrong' });
  return v('div', { key: 'token-wrong', class: 'card token-wrong no-print', role: 'alert' },
    v('p', {}, v('strong', {}, t('tok.wrong'))), v('p', {}, t('tok.wrongWhat')));
}

function tokenPaste(s, ui, act) {
  if (s.hasToken) return null;
  return v('details', { class: 'token-paste no-print', key: 'token-paste', open: ui.tokenWrong || undefined }, v('summary', {}, t('tok.paste')),
    v('form', { class: 'token-form', onsubmit: act.pasteToken },
      v('div', { class: 'field' }, v('label', { for: 'token-input' }, t('tok.label')),
        v('input', { id: 'token-input', type: 'password', autocomplete: 'off', name: 'token' })),
      v('button', { type: 'submit' }, t('tok.use')),
      v('div', { class: 'status', 'aria-live': 'polite' }, ui.tokenBad ? v('p', { class: 'error', role: 'alert' }, t('tok.bad')) : null)));
}

/**
 * view draws the whole page. snap: state.js load()'s snapshot (or null
 * while loading); ui: {tab, round, standingsView, standingsRound, group,
 * openWhy:Set, card, busy, error, tokenBad, loadError}; act: the page's
 * handlers; admin: the organiser's console (event-admin.js) or null; tables:
 * an official's table list node, or null.
 */
export function view(snap, ui, act, admin, tables, lineup) {
  if (ui.loadError) {
    return v('div', { key: 'missing' }, v('h1', {}, t('ev.notFound')), v('p', { class: 'error', role: 'alert' }, ui.loadError),
      v('p', {}, v('a', { href: '/' }, t('nav.home'))));
  }
  if (!snap) return v('p', { class: 'muted', key: 'loading' }, t('ui.loading'));
  const tabs = tabsOf(snap.ev, snap.kind, admin);
  const tab = tabs.includes(ui.tab) ? ui.tab : 'pairings';
  const shown = snap.tab.name === tab;
  const panel = !shown ? null
    : tab === 'pairings' ? pairings(snap, ui, act, admin)
      : tab === 'standings' ? standings(snap, ui, act)
        : tab === 'crosstable' ? crosstable(snap, act)
          : tab === 'players' ? players(snap, admin)
            : tab === 'bracket' ? v('div', { key: 'bracket-tab' }, snap.tab.places ? podiumView(snap.tab.places.rows) : null,
              v('h2', { class: 'print-title' }, `${snap.ev.name} — ${t('tab.bracket')}`), bracketView(bracketOf(snap.tab.rounds || [])))
              : tab === 'lineup' ? island('captain', lineup)
            : tab === 'teams' ? teams(snap, admin)
              : tab === 'downloads' ? downloads(snap, ui, act, admin)
                : tab === 'console' ? island('console', admin.consoleView())
                  : island('tables', tables);
  return [
    tokenWrong(ui),
    header(snap),
    meCard(snap, act),
    v('nav', { class: 'tabs', role: 'tablist', 'aria-label': snap.ev.name, key: 'tabs' }, tabs.map((name) => v('button', {
      key: name, type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': 'panel', class: 'tab', 'data-tab': name,
      'aria-selected': String(name === tab), tabindex: name === tab ? '0' : '-1',
      onclick: () => act.selectTab(name), onkeydown: (e) => act.tabKey(e, tabs, tab),
    }, t(`tab.${name}`)))),
    v('div', { class: 'status', 'aria-live': 'polite', key: 'status' }, ui.refreshError ? v('p', { class: 'error', role: 'alert' }, ui.refreshError) : null),
    v('section', { id: 'panel', role: 'tabpanel', class: 'panel', tabindex: '0', 'aria-labelledby': `tab-${tab}`, key: 'panel' }, panel),
    tokenPaste(snap, ui, act),
  ];
}
