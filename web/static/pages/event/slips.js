// pages/event/slips.js — link slips to print and cut: one per player (name,
// number, event, a QR code of the player's link) and one per table kept by
// a scribe (the scribe's link), for a venue where each person scans their
// slip. Links this browser keeps are used as they are; for everyone else a
// new link is issued first (after one confirmation, since each old link
// stops working). The QR codes are made by the server (POST
// /tournaments/{tid}/qr, go-qrcode), never drawn here.

import { get } from '../../core/http.js';
import { t } from '../../core/i18n.js';
import { clear, confirmDialog, h } from '../../ui.js';
import { people, reissue } from './links.js';

/**
 * slipList turns the event's people into slips: [{kind, who, number, table,
 * token}], a player slip per player, a table slip per table a scribe keeps.
 */
export function slipList(rows, tokenOf) {
  const out = [];
  for (const x of rows) {
    if (x.kind === 'player') out.push({ kind: 'player', who: x.name, number: x.number, token: tokenOf(x.id), id: x.id });
    if (x.kind === 'official' && x.role === 'scribe') {
      for (const table of x.tables) out.push({ kind: 'table', who: x.name, table, token: tokenOf(x.id), id: x.id });
    }
  }
  return out;
}

/**
 * openSlips gathers the links (issuing the missing ones), asks the server
 * for their QR codes and shows the printable sheet over the page. ctx is
 * links.js's; status shows progress.
 */
export async function openSlips(ctx, status) {
  const officials = (await get(`${ctx.base()}/officials`, { token: ctx.token })).officials || [];
  const rows = people(ctx.players, officials, []).filter((x) => x.kind === 'player' || (x.kind === 'official' && x.role === 'scribe' && x.tables.length));
  if (!rows.length) { clear(status, h('p', { class: 'muted' }, t('lnk.none'))); return; }
  const kept = new Map(ctx.links().map((l) => [l.id, l.token]));
  const missing = rows.filter((x) => !kept.has(x.id));
  if (missing.length && !(await confirmDialog(t('lnk.slipsConfirm', { n: missing.length }), { yes: t('lnk.slipsGo') }))) return;
  for (const [i, x] of missing.entries()) {
    clear(status, h('p', { class: 'muted', role: 'status' }, t('lnk.issuing', { i: i + 1, n: missing.length })));
    kept.set(x.id, await reissue(ctx, x));
  }
  const slips = slipList(rows, (id) => kept.get(id));
  const res = await ctx.post(`${ctx.base()}/qr`, { texts: slips.map((s) => ctx.eventLink(s.token)) });
  clear(status);
  showSheet(ctx, slips, res.svgs || []);
}

// svgNode parses one of the server's SVG documents into a node (no markup
// is inserted as HTML: the parser makes an SVG element or nothing).
function svgNode(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const el = doc.documentElement;
  if (!el || el.nodeName !== 'svg') return h('span', {}, '');
  el.setAttribute('class', 'qr');
  el.setAttribute('role', 'img');
  return document.importNode(el, true);
}

function showSheet(ctx, slips, svgs) {
  document.querySelector('.slips-sheet')?.remove();
  const close = h('button', { type: 'button', id: 'slips-close' }, t('lnk.close'));
  const print = h('button', { type: 'button', class: 'primary', id: 'slips-print' }, t('pair.print'));
  const sheet = h('div', { class: 'slips-sheet', role: 'dialog', 'aria-label': t('lnk.slipsTitle') },
    h('div', { class: 'slips-bar no-print' }, h('h2', {}, t('lnk.slipsTitle')), h('p', { class: 'muted' }, t('lnk.slipsLead')), h('div', { class: 'row' }, print, close)),
    h('div', { class: 'slips' }, slips.map((s, i) => {
      const qr = svgNode(svgs[i] || '');
      qr.setAttribute('aria-label', t('lnk.qrOf', { who: s.kind === 'table' ? t('lnk.tableN', { n: s.table }) : s.who }));
      return h('div', { class: `slip slip-${s.kind}`, 'data-id': s.id },
        h('p', { class: 'slip-event' }, ctx.eventName),
        s.kind === 'table'
          ? h('p', { class: 'slip-who' }, h('strong', {}, t('lnk.tableN', { n: s.table })), ` · ${t('lnk.scribe', { name: s.who })}`)
          : h('p', { class: 'slip-who' }, h('strong', { class: 'slip-no' }, t('err.p.player', { n: s.number })), ` ${s.who}`),
        qr,
        h('p', { class: 'slip-hint' }, t(s.kind === 'table' ? 'lnk.scanScribe' : 'lnk.scanPlayer')));
    })));
  document.body.classList.add('printing-slips');
  close.addEventListener('click', () => { sheet.remove(); document.body.classList.remove('printing-slips'); });
  print.addEventListener('click', () => window.print());
  document.body.append(sheet);
  close.focus();
}
