// pages/event/links.js — the console's links, which can always be had
// again: every player and captain of the event (officials: officials.js), with the link this
// browser keeps (if it keeps one) and "New link", which asks the server for
// a new token (the old link stops working) — so an organiser on any device
// holding the organiser link can hand a player their link. "Print link
// slips" opens slips.js. Nothing here is shown to anyone but the organiser.

import { t } from '../../core/i18n.js';
import { act, clear, confirmDialog, h, linkBox } from '../../ui.js';

const enc = encodeURIComponent;

/**
 * people lists whoever holds a link of the event: players (by number),
 * officials, then captains; each {kind, id, number, name, detail, path}
 * where path is the reissue route under the event.
 */
export function people(players, officials, teams) {
  const out = [];
  for (const p of [...players].sort((a, b) => (a.number ?? 0) - (b.number ?? 0))) {
    if (p.status === 'withdrawn') continue;
    out.push({ kind: 'player', id: p.id, number: p.number, name: p.name, detail: p.club || '', path: `/players/${enc(p.id)}/token` });
  }
  for (const o of officials) {
    out.push({ kind: 'official', id: o.id, number: null, name: o.name, role: o.role, tables: o.tables || [], path: `/officials/${enc(o.id)}/token` });
  }
  for (const m of teams) {
    if (m.status === 'withdrawn') continue;
    out.push({ kind: 'captain', id: m.id, number: m.number, name: m.name, detail: '', path: `/teams/${enc(m.id)}/token` });
  }
  return out;
}

/** whoText says who a row is for: "3 王天一", "Arb (Scribe · tables 1, 2)", "Team A (captain)". */
export function whoText(x) {
  if (x.kind === 'official') {
    const role = t(`adm.role.${x.role}`);
    return x.tables && x.tables.length ? `${x.name} (${role} · ${t('lnk.tables', { tables: x.tables.join(', ') })})` : `${x.name} (${role})`;
  }
  if (x.kind === 'captain') return t('lnk.captainOf', { name: x.name });
  return `${x.number ?? ''} ${x.name}`.trim();
}

/**
 * linksSection draws the console's links card. ctx: {tid, base(), token,
 * players, teams, links(), keepLink(entry), eventLink(token), post(path,
 * body), openSlips()}.
 */
export function linksSection(ctx) {
  const box = h('div', { class: 'links-list' }, h('p', { class: 'muted' }, t('ui.loading')));
  const slipsBtn = h('button', { type: 'button', id: 'print-slips' }, t('lnk.slips'));
  const slipsStatus = h('div', { class: 'status', 'aria-live': 'polite' });
  slipsBtn.addEventListener('click', () => act(slipsBtn, slipsStatus, () => ctx.openSlips(slipsStatus)));
  const section = h('section', { class: 'card', id: 'links' },
    h('h3', {}, t('lnk.title')),
    h('p', { class: 'muted' }, t('lnk.lead')),
    h('div', { class: 'row wrap' }, slipsBtn), slipsStatus, box);
  // The officials have their own list with "New link" under "Arbiters and
  // scribes" (officials.js); the slips still print the scribes' tables.
  const rows = people(ctx.players, [], ctx.teams);
  if (!rows.length) clear(box, h('p', { class: 'muted' }, t('lnk.none')));
  else clear(box, h('ul', { class: 'plain links' }, rows.map((x) => row(ctx, x))));
  return section;
}

function row(ctx, x) {
  const kept = ctx.links().find((l) => l.id === x.id);
  const slot = h('div', { class: 'link-slot' }, kept ? linkBox(whoText(x), ctx.eventLink(kept.token)) : h('p', { class: 'muted small' }, t('lnk.notHere')));
  const status = h('span', { class: 'status inline', 'aria-live': 'polite' });
  const btn = h('button', { type: 'button', class: 'small new-link', 'data-id': x.id, 'aria-label': `${t('lnk.new')}: ${whoText(x)}` }, t('lnk.new'));
  btn.addEventListener('click', async () => {
    if (!(await confirmDialog(t('lnk.confirm', { name: whoText(x) }), { yes: t('lnk.new') }))) return;
    act(btn, status, async () => {
      const token = await reissue(ctx, x);
      clear(slot, linkBox(whoText(x), ctx.eventLink(token)));
      clear(status, h('span', { class: 'ok', role: 'status' }, t('lnk.made')));
    });
  });
  return h('li', { class: 'link-row', 'data-kind': x.kind, 'data-id': x.id },
    h('div', { class: 'link-head' }, h('strong', {}, whoText(x)), btn, status), slot);
}

/** reissue asks for a new token for x (its old one stops working), keeps it in this browser and returns it. */
export async function reissue(ctx, x) {
  const res = await ctx.post(`${ctx.base()}${x.path}`, {});
  await ctx.keepLink({ id: x.id, name: whoText(x), number: x.number ?? undefined, token: res.token });
  return res.token;
}
