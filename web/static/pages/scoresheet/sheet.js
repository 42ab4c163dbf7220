// pages/scoresheet/sheet.js — the printable scoresheet of one game, one page,
// laid out as the rule book's record sheet (000 ch.7 §2 第6条: 在记录纸上记录
// 比赛结果及双方所用时间.犯规情况, then 双方棋手和书记当场签字认可): the event,
// round, table and players; the moves by round in the reader's notation; the
// time each side used and its fouls; the result; three signature lines (red,
// black, scribe) with who signed and when, or blank lines awaiting a pen.
// Pure: a function from the game view to DOM, printed by the game page.

import { formatTime, t } from '../../core/i18n.js';
import { reasonText, resultName } from '../../names.js';
import { signatureText, strokesSVG, svgImage } from '../game/signatures.js';
import { h } from '../../ui.js';

/** hms writes ms as h:mm:ss. */
export function hms(ms) {
  const s = Math.max(0, Math.floor((ms || 0) / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * rounds pairs the moves (already written in a notation) by round, with the
 * time each was played when the view has it: [{n, red, black}]. A game
 * Black begins starts with an empty red cell.
 */
export function rounds(moves, redFirst = true) {
  const cells = redFirst ? [...moves] : ['', ...moves];
  const out = [];
  for (let i = 0; i < cells.length; i += 2) out.push({ n: i / 2 + 1, red: cells[i] || '', black: cells[i + 1] || '' });
  return out;
}

/**
 * scoresheet builds the sheet. game is the game view; info: {event, round,
 * table, red, black (names), moves (the moves written in the reader's
 * notation)}.
 */
export function scoresheet(game, info) {
  const redFirst = !/ b /.test(game.startFen || '');
  const list = rounds(info.moves || game.moves || [], redFirst);
  // Two columns of rounds side by side keep a long game on one page.
  const half = Math.ceil(list.length / 2) || 1;
  const table = (part) => h('table', { class: 'sheet-moves' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('sheet.no')), h('th', { scope: 'col' }, t('game.red')), h('th', { scope: 'col' }, t('game.black')))),
    h('tbody', {}, ...part.map((r) => h('tr', {}, h('td', {}, String(r.n)), h('td', {}, r.red), h('td', {}, r.black)))));
  const clocks = game.clocks || {};
  const used = (side) => hms(clocks[side] && clocks[side].usedMs);
  const fouls = game.fouls || { red: 0, black: 0 };
  const result = game.status === 'over' ? `${game.result} ${resultName(game.result)}${game.reason ? ` · ${reasonText(game.reason)}` : ''}` : t('sheet.noResult');
  const sigs = new Map((game.signatures || []).map((s) => [s.line, s]));
  const sigLine = (line, who) => {
    const s = sigs.get(line);
    const svg = s && (s.svg || strokesSVG(s.strokes));
    return h('div', { class: 'sheet-sig', 'data-line': line },
      h('span', { class: 'sheet-sig-who' }, `${t(`sig.line.${line}`)}${who ? ` · ${who}` : ''}`),
      h('span', { class: 'sheet-sig-pen' }, s ? (svg ? svgImage(svg, t('sig.drawn', { name: s.name })) : '') : ''),
      h('span', { class: 'sheet-sig-text' }, s ? signatureText(s) : t('sig.awaitingLine')));
  };
  return h('article', { class: 'scoresheet', 'aria-label': t('sheet.title') },
    h('h1', {}, t('sheet.title')),
    h('dl', { class: 'sheet-head' },
      h('dt', {}, t('sheet.event')), h('dd', {}, info.event || '—'),
      h('dt', {}, t('sheet.roundTable')), h('dd', {}, info.round ? t('game.titleEvent', { round: info.round, table: info.table }) : '—'),
      h('dt', {}, t('sheet.date')), h('dd', {}, game.roundStartsAt ? formatTime(game.roundStartsAt, { dateStyle: 'medium', timeStyle: 'short' }) : '—'),
      h('dt', {}, t('game.red')), h('dd', {}, info.red || '—'),
      h('dt', {}, t('game.black')), h('dd', {}, info.black || '—'),
      h('dt', {}, t('sheet.timeControl')), h('dd', {}, (game.timeControl && game.timeControl.name) || '—')),
    h('div', { class: 'sheet-cols' }, table(list.slice(0, half)), list.length > 1 ? table(list.slice(half)) : null),
    h('table', { class: 'sheet-facts' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, t('sheet.timeUsed')), h('th', { scope: 'col' }, t('sheet.fouls')))),
      h('tbody', {},
        h('tr', {}, h('th', { scope: 'row' }, t('game.red')), h('td', {}, used('red')), h('td', {}, String(fouls.red || 0))),
        h('tr', {}, h('th', { scope: 'row' }, t('game.black')), h('td', {}, used('black')), h('td', {}, String(fouls.black || 0))))),
    h('p', { class: 'sheet-result' }, h('strong', {}, `${t('sheet.result')}: `), result),
    h('p', { class: 'sheet-state' }, sigs.has('closed') ? t('sig.closed', { name: sigs.get('closed').name, at: formatTime(sigs.get('closed').at, { dateStyle: 'short', timeStyle: 'short' }) })
      : game.signed ? t('sig.allSigned') : t('sig.awaiting')),
    h('div', { class: 'sheet-sigs' }, sigLine('red', info.red), sigLine('black', info.black), sigLine('scribe', '')));
}
