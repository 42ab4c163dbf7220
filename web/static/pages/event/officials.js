// pages/event/officials.js — the organiser's list of the event's officials
// in the console, read from the server (GET /tournaments/{tid}/officials) so
// it survives a reload: each arbiter, chief arbiter and scribe with their
// tables, and a button that issues a new link (the old one stops working;
// the server keeps only the token's hash, so a lost link cannot be shown
// again, only replaced).

import { get } from '../../core/http.js';
import { t } from '../../core/i18n.js';
import { act, clear, h, linkBox } from '../../ui.js';

const enc = encodeURIComponent;

/**
 * officialsList returns the list's element and loads it. page: {base(),
 * token, post(path, body), eventLink(token), keepLink(entry)}. The returned
 * element has reload() to read the list again after an appointment.
 */
export function officialsList(page) {
  const list = h('ul', { class: 'plain officials-list' });
  const box = h('div', { class: 'officials' }, h('h4', {}, t('off.listTitle')), list);
  async function reload() {
    let res;
    try {
      res = await get(`${page.base()}/officials`, { token: page.token });
    } catch {
      clear(list, h('li', { class: 'muted' }, t('off.listUnavailable')));
      return;
    }
    const officials = res.officials || [];
    if (!officials.length) { clear(list, h('li', { class: 'muted' }, t('off.listNone'))); return; }
    clear(list, ...officials.map((o) => {
      const status = h('div', { class: 'status', 'aria-live': 'polite' });
      const out = h('div');
      const label = `${o.name} (${t(`adm.role.${o.role}`)})`;
      const btn = h('button', { type: 'button', class: 'small', 'data-official': o.id }, t('off.reissue'));
      btn.addEventListener('click', () => act(btn, status, async () => {
        const r = await page.post(`${page.base()}/officials/${enc(o.id)}/token`, {});
        page.keepLink({ id: o.id, name: label, token: r.token });
        clear(out, h('p', { class: 'muted' }, t('off.reissued')), linkBox(label, page.eventLink(r.token)));
      }));
      return h('li', { 'data-official': o.id }, h('span', {}, label, o.tables && o.tables.length ? ` · ${t('off.tablesOf', { tables: o.tables.join(', ') })}` : ''), ' ', btn, status, out);
    }));
  }
  box.reload = reload;
  reload();
  return box;
}
