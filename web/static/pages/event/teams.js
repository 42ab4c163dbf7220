// pages/event/teams.js — the event page's team and knockout views: the
// match line (board score, then match points), a knockout tie's label (final,
// third-place match, additional rapid match) and what decided it, the team
// crosstable (team against team), the per-board rankings (台次), the
// bracket and the podium from the bracket's final places. The functions
// above the views are pure and unit-tested (web/unit/teams.test.mjs); the
// views are virtual nodes for pages/event/view.js.

import { lang, t } from '../../core/i18n.js';
import { v } from '../../core/view.js';
import { points } from '../../names.js';

const known = (x) => x !== null && x !== undefined;
// colon is a label's colon in the page's language (full width in Chinese).
const colon = () => (lang === 'zh' ? '：' : ': ');

/**
 * tieLabel names a knockout tie from its bracket id: "F" the final, "3P"
 * the third-place match, "R2-1" round 2's first match, "P5-6" the match
 * for 5th and 6th place; anything else as sent.
 */
export function tieLabel(tie) {
  if (!tie) return '';
  if (tie === 'F') return t('ko.final');
  if (tie === '3P') return t('ko.third');
  let m = /^R(\d+)-(\d+)$/.exec(tie);
  if (m) return t('ko.tie', { r: Number(m[1]), n: Number(m[2]) });
  m = /^P(\d+)-(\d+)/.exec(tie);
  if (m) return t('ko.placing', { a: Number(m[1]), b: Number(m[2]) });
  return tie;
}

/**
 * matchLine writes a team match as `广州队 3½ : ½ 佛山队 (场分 2 : 0)`: the
 * board points in the event's scoring, then the match points, once scored;
 * just the two names before.
 */
export function matchLine(m) {
  if (!known(m.homeBoardPoints)) return t('team.vs', { home: m.homeName, away: m.awayName });
  const line = `${m.homeName} ${points(m.homeBoardPoints)} : ${points(m.awayBoardPoints)} ${m.awayName}`;
  return known(m.homeMatchPoints) ? `${line} (${t('pair.matchPoints', { h: points(m.homeMatchPoints), a: points(m.awayMatchPoints) })})` : line;
}

/**
 * decidedText says who won a knockout match and why: on match points, on
 * the count-back of boards (按台次), or as the additional rapid match.
 */
export function decidedText(m) {
  if (!m.winnerName) return '';
  const why = m.decidedBy === 'boardCount' ? t('ko.byBoards') : m.decidedBy === 'matchPoints' ? t('ko.byMatchPoints') : '';
  const who = m.tie === 'F' ? t('ko.champion', { name: m.winnerName }) : m.tie === '3P' ? t('ko.thirdWinner', { name: m.winnerName }) : t('ko.winner', { name: m.winnerName });
  return who + (why ? ` · ${why}` : '');
}

/**
 * matchTitle is the heading of a match in the pairings: its number, its
 * tie (a knockout's), whether it is an additional rapid match, the line.
 */
export function matchTitle(m, rapidIndex = 0) {
  if (!m.tie && !m.rapid && !known(m.homeBoardPoints)) return t('pair.match', { n: m.number, home: m.homeName, away: m.awayName });
  const parts = [t('team.matchNo', { n: m.number })];
  if (m.tie) parts.push(tieLabel(m.tie));
  if (m.rapid) parts.push(rapidIndex ? t('ko.rapidN', { n: rapidIndex }) : t('ko.rapid'));
  return `${parts.join(' · ')}${colon()}${matchLine(m)}`;
}

/** rapidIndexes numbers each tie's additional rapid matches 1, 2, … in the order given. */
export function rapidIndexes(matches) {
  const seen = new Map();
  const out = new Map();
  for (const m of matches || []) {
    if (!m.rapid) continue;
    const n = (seen.get(m.tie) || 0) + 1;
    seen.set(m.tie, n);
    out.set(m.match, n);
  }
  return out;
}

/** boardLabel is a board game's place: "match.board" (1.3) in a team round, else the table. */
export function boardLabel(p, matches) {
  if (!p.board || !p.match) return String(p.table);
  const m = (matches || []).find((x) => x.match === p.match);
  return m ? `${m.number}.${p.board}` : String(p.table);
}

/**
 * teamCrosstable folds the rounds' matches into a team-against-team table:
 * rows in the teams' order, each cell the matches of that pair of teams
 * (match points and board points from the row team's side), and each row's
 * totals.
 */
export function teamCrosstable(rounds, teams) {
  const rows = teams.map((tm) => ({ id: tm.id, number: tm.number, name: tm.name, cells: new Map(), matchPoints: 0, boardPoints: 0 }));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const r of rounds) {
    for (const m of (r && r.matches) || []) {
      if (!known(m.homeBoardPoints)) continue;
      for (const [me, them, mp, bp, omp, obp] of [[m.home, m.away, m.homeMatchPoints, m.homeBoardPoints, m.awayMatchPoints, m.awayBoardPoints],
        [m.away, m.home, m.awayMatchPoints, m.awayBoardPoints, m.homeMatchPoints, m.homeBoardPoints]]) {
        const row = byId.get(me);
        if (!row) continue;
        const cell = row.cells.get(them) || [];
        cell.push({ round: r.round, mp: mp ?? 0, bp, omp: omp ?? 0, obp });
        row.cells.set(them, cell);
        row.matchPoints += mp ?? 0;
        row.boardPoints += bp;
      }
    }
  }
  return rows;
}

/**
 * boardRankings ranks the players of each board (台次奖) from the boards
 * view's rows: a player belongs to the board they played most often in the
 * rounds given (their roster board when they have not played), each board's
 * players in the rows' order, which is the server's ranking.
 */
export function boardRankings(rows, rounds, teams) {
  const counts = new Map();
  for (const r of rounds) {
    for (const p of (r && r.pairings) || []) {
      if (!p.board) continue;
      for (const id of [p.red, p.black]) {
        const c = counts.get(id) || new Map();
        c.set(p.board, (c.get(p.board) || 0) + 1);
        counts.set(id, c);
      }
    }
  }
  const roster = new Map();
  const teamOf = new Map();
  for (const tm of teams) {
    for (const m of [...(tm.members || []), ...(tm.substitutes || [])]) {
      roster.set(m.id, m.board);
      teamOf.set(m.id, tm.name);
    }
  }
  const boards = new Map();
  for (const row of rows) {
    const c = counts.get(row.playerId);
    let board = roster.get(row.playerId) || 0;
    if (c) board = [...c.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
    if (!board) continue;
    const list0 = boards.get(board) || [];
    list0.push({ ...row, team: teamOf.get(row.playerId) || '' });
    boards.set(board, list0);
  }
  return [...boards.entries()].sort((a, b) => a[0] - b[0]).map(([board, players]) => ({ board, players }));
}

/**
 * bracketOf groups a knockout's rounds by tie: each tie (final, third
 * place, R1-1 …) with its matches or games in round order, the ties of the
 * earliest round first and the final last of its round. Individual
 * knockouts' games name their tie in pairing.match; team knockouts' matches
 * in match.tie.
 */
export function bracketOf(rounds) {
  const ties = new Map();
  for (const r of rounds) {
    if (!r) continue;
    const items = (r.matches || []).length ? r.matches.map((m) => ({ kind: 'match', round: r.round, tie: m.tie || m.match, m }))
      : (r.pairings || []).map((p) => ({ kind: 'game', round: r.round, tie: p.match || `#${r.round}-${p.table}`, p }));
    for (const it of items) {
      const tie = ties.get(it.tie) || { tie: it.tie, round: it.round, items: [] };
      tie.items.push(it);
      ties.set(it.tie, tie);
    }
  }
  const order = (x) => (x.tie === 'F' ? 2 : x.tie === '3P' ? 1 : 0);
  return [...ties.values()].sort((a, b) => a.round - b.round || order(a) - order(b) || a.tie.localeCompare(b.tie, 'en', { numeric: true }));
}

// ---- views ----

/** podium draws the first three places of the bracket's final places (a knockout's overall view). */
export function podiumView(rows) {
  const top = (rows || []).filter((r) => r.place <= 3);
  if (!top.length) return null;
  return v('section', { class: 'card podium', 'aria-label': t('st.podium'), key: 'podium' },
    v('h2', {}, t('st.podium')),
    v('ol', { class: 'plain podium-list' }, top.map((r) => v('li', { class: `place-${r.place}` },
      v('span', { class: 'medal' }, t('ko.place', { n: r.place })), ' ', v('strong', {}, r.name)))));
}

/** placesView draws a knockout's final places in bracket order (the overall view). */
export function placesView(st) {
  return v('div', { class: 'table-wrap' }, v('table', { class: 'standings places' },
    v('thead', {}, v('tr', {}, v('th', { scope: 'col' }, t('st.rank')), v('th', { scope: 'col' }, t('st.no')), v('th', { scope: 'col' }, t('team.name')))),
    v('tbody', {}, (st.rows || []).map((r) => v('tr', { key: `pl-${r.teamId || r.playerId}` },
      v('td', { class: 'num' }, String(r.place)), v('td', { class: 'num' }, r.number ?? ''), v('th', { scope: 'row', class: 'name' }, r.name))))));
}

// cellNodes writes a crosstable cell: match points, the board points under them (narrow on a phone).
function cellNodes(cell) {
  return cell.flatMap((c, i) => [i ? v('br') : null, `${points(c.mp)}:${points(c.omp)}`, v('br'), v('small', {}, `(${points(c.bp)}:${points(c.obp)})`)]);
}

/** teamCrosstableView draws the team-against-team crosstable. */
export function teamCrosstableView(rows) {
  return v('section', { key: 'team-ct', 'aria-labelledby': 'team-ct-h' },
    v('h2', { id: 'team-ct-h' }, t('team.crosstable')),
    v('p', { class: 'muted' }, t('team.crosstableHelp')),
    v('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': 'team-ct-h' }, v('table', { class: 'crosstable team-crosstable' },
      v('thead', {}, v('tr', {}, v('th', { scope: 'col' }, t('st.no')), v('th', { scope: 'col' }, t('team.name')),
        rows.map((r) => v('th', { scope: 'col', title: r.name }, String(r.number))),
        v('th', { scope: 'col' }, t('st.matchPoints')), v('th', { scope: 'col' }, t('st.boardPoints')))),
      v('tbody', {}, rows.map((r) => v('tr', { key: `tc-${r.id}` },
        v('td', { class: 'num' }, String(r.number)), v('th', { scope: 'row', class: 'name team-name' }, r.name),
        rows.map((o) => (o.id === r.id ? v('td', { class: 'cell self', 'aria-label': '—' }, '×')
          : v('td', { class: 'cell', title: r.cells.has(o.id) ? `${r.name} ${t('ct.vs')} ${o.name}` : null }, r.cells.has(o.id) ? cellNodes(r.cells.get(o.id)) : ''))),
        v('td', { class: 'num strong' }, points(r.matchPoints)), v('td', { class: 'num' }, points(r.boardPoints))))))));
}

/** boardRankingsView draws one ranking per board. */
export function boardRankingsView(boards) {
  return v('div', { key: 'board-rankings', class: 'board-rankings' }, boards.map(({ board, players }) => v('section', { key: `b${board}`, 'aria-labelledby': `board-h-${board}` },
    v('h3', { id: `board-h-${board}` }, t('team.board', { n: board })),
    v('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': `board-h-${board}` }, v('table', { class: 'standings board-ranking' },
      v('thead', {}, v('tr', {}, v('th', { scope: 'col' }, t('st.rank')), v('th', { scope: 'col' }, t('st.name')), v('th', { scope: 'col' }, t('team.team')),
        v('th', { scope: 'col' }, t('st.points')), v('th', { scope: 'col' }, t('st.record')))),
      v('tbody', {}, players.map((p, i) => v('tr', { key: `b${board}-${p.playerId}` },
        v('td', { class: 'num' }, String(i + 1)), v('th', { scope: 'row', class: 'name' }, p.name), v('td', { class: 'team-name' }, p.team),
        v('td', { class: 'num strong' }, points(p.points)), v('td', { class: 'num' }, `${p.wins}/${p.draws}/${p.losses}`)))))))));
}

/** gameNo names a knockout game within its tie: the main game, or the n-th additional rapid game (附加快棋). */
export function gameNo(p) {
  return p.board > 1 ? t('ko.rapidGame', { n: p.board - 1 }) : '';
}

function gameLine(p) {
  const res = p.result ? p.result.replace('1/2-1/2', '½-½') : '*';
  return `${p.redName} ${res} ${p.blackName}`;
}

/** bracketView draws the bracket: each tie with its matches (or games), labelled, and who went through and why. */
export function bracketView(ties) {
  let round = 0;
  const out = [];
  for (const tie of ties) {
    if (tie.round !== round) {
      round = tie.round;
      out.push(v('h3', { key: `br-r${round}`, class: 'bracket-round' }, t('ev.roundsOpen', { n: round })));
    }
    const rapid = rapidIndexes(tie.items.filter((x) => x.kind === 'match').map((x) => x.m));
    const decided = tie.items.filter((x) => x.kind === 'match' && x.m.winnerName).pop();
    out.push(v('article', { key: `br-${tie.tie}`, class: `card bracket-tie tie-${tie.tie === 'F' ? 'final' : tie.tie === '3P' ? 'third' : 'other'}`, 'data-tie': tie.tie },
      v('h4', {}, tieLabel(tie.tie)),
      v('ul', { class: 'plain' }, tie.items.map((x) => v('li', {},
        x.kind === 'match'
          ? `${x.m.rapid ? `${t('ko.rapidN', { n: rapid.get(x.m.match) })}${colon()}` : ''}${matchLine(x.m)}`
          : `${x.p.board > 1 ? `${gameNo(x.p)}${colon()}` : ''}${gameLine(x.p)}`))),
      decided ? v('p', { class: 'decided' }, decidedText(decided.m)) : null));
  }
  return v('section', { key: 'bracket', class: 'bracket', 'aria-label': t('tab.bracket') }, out.length ? out : v('p', { class: 'muted' }, t('pair.none')));
}

/** signatureLine is the print layout's line for the chief arbiter's signature under team pairings. */
export function signatureLine() {
  return v('p', { class: 'print-only signature', key: 'signature' }, `${t('team.chiefSignature')}${colon()}`, v('span', { class: 'sign-space' }, ''),
    ` ${t('team.signDate')}${colon()}`, v('span', { class: 'sign-space short' }, ''));
}
