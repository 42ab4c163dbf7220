// pages/event/sheet.js — the standings as a spreadsheet file for people:
// a UTF-8 byte-order mark (without it Excel reads Chinese names as
// mojibake), column heads in the reader's language rather than the API's
// field ids, and each player's rating and club beside their name. The
// API's own ?format=csv stays the machine format it documents.

import { t } from '../../core/i18n.js';
import { points, tiebreakName } from '../../names.js';

/** csvCell quotes a cell when it holds a separator, a quote or a line break. */
export function csvCell(v) {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** standingsSheet writes standings rows (GET …/standings) and the players as the spreadsheet's text. */
export function standingsSheet(rows, players) {
  const byId = new Map((players || []).map((p) => [p.id, p]));
  const tbs = rows.length ? (rows[0].tiebreaks || []).map((x) => x.name) : [];
  const head = [t('sheet.rank'), t('sheet.number'), t('sheet.name'), t('sheet.rating'), t('sheet.club'), t('sheet.points'),
    ...tbs.map(tiebreakName), t('sheet.games'), t('sheet.wins'), t('sheet.draws'), t('sheet.losses')];
  const lines = [head];
  for (const r of rows) {
    const p = byId.get(r.playerId) || {};
    lines.push([r.rank, r.number, r.name, p.rating ?? '', p.club ?? '', points(r.points),
      ...(r.tiebreaks || []).map((x) => x.value), r.games, r.wins, r.draws, r.losses]);
  }
  return `\uFEFF${lines.map((l) => l.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
