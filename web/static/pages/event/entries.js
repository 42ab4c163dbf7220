// pages/event/entries.js — the organiser's console for open events: the
// entry terms (open, close, capacity, approval, required fields) with the
// entry page's link, the list of entries with approve / reject and likely
// duplicates flagged (E-1), and the check-in desk for the next round (E-2):
// who is checked in, a button to check a player in at the desk.

import { get } from '../../core/http.js';
import { t } from '../../core/i18n.js';
import * as outbox from '../../core/outbox.js';
import { playerStatus } from '../../names.js';
import { act, checkbox, clear, field, h, linkBox, showError } from '../../ui.js';

/** entriesSection is the console's card of entries for the event page's admin (page: tid, token, base, ev, refresh). */
export function entriesSection(page) {
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const list = h('div', { class: 'entry-list' });
  const capacity = h('input', { type: 'number', name: 'capacity', min: 0, max: 20000, inputmode: 'numeric', placeholder: '0' });
  const approval = checkbox(t('ent.approval'), { name: 'approval' });
  const needClub = checkbox(t('ent.needClub'), { name: 'needClub' });
  const needRating = checkbox(t('ent.needRating'), { name: 'needRating' });
  const openBtn = h('button', { type: 'submit', id: 'entries-open' }, t('ent.open'));
  const closeBtn = h('button', { type: 'button', id: 'entries-close' }, t('ent.close'));
  const terms = h('p', { class: 'muted entry-terms' });
  const post = (path, body) => outbox.post(path, body, { token: page.token });
  const form = h('form', { novalidate: true, class: 'inline-fields', id: 'entries-form' },
    field(t('ent.capacity'), capacity, t('ent.capacityHint')), approval, needClub, needRating, openBtn, closeBtn);
  const enterLink = `${location.origin}/t/${encodeURIComponent(page.tid)}/enter`;

  async function load() {
    try {
      const res = await get(`${page.base()}/entries`, { token: page.token });
      const e = res.entries;
      terms.textContent = e.open ? t('ent.isOpen', { places: e.places, pending: e.pending }) : t('ent.isClosed');
      closeBtn.disabled = !e.open;
      // The form shows the terms in force; sending it again changes them.
      openBtn.textContent = e.open ? t('ent.update') : t('ent.open');
      if (e.open && document.activeElement?.form !== form) {
        capacity.value = e.capacity ? String(e.capacity) : '';
        approval.querySelector('input').checked = e.approval;
        needClub.querySelector('input').checked = e.fields.includes('club');
        needRating.querySelector('input').checked = e.fields.includes('rating');
      }
      drawRows(res.rows);
    } catch (err) {
      showError(status, err);
    }
  }

  function drawRows(rows) {
    if (!rows.length) { clear(list, h('p', { class: 'muted' }, t('ent.none'))); return; }
    const body = rows.map((r) => {
      const actions = [];
      if (r.status === 'pending') {
        const yes = h('button', { type: 'button', class: 'small primary', 'data-approve': r.id }, t('ent.approve'));
        const no = h('button', { type: 'button', class: 'small', 'data-reject': r.id }, t('ent.reject'));
        yes.addEventListener('click', () => act(yes, status, async () => { await post(`${page.base()}/players/${r.id}/approve`, {}); await load(); page.refresh({ what: 'players', force: true }); }));
        no.addEventListener('click', () => act(no, status, async () => { await post(`${page.base()}/players/${r.id}/reject`, {}); await load(); }));
        actions.push(yes, ' ', no);
      }
      return h('tr', { class: r.duplicates.length ? 'duplicate' : null, 'data-entry': r.id },
        h('td', { class: 'num' }, r.number || ''),
        h('td', { class: 'name' }, r.name, r.duplicates.length ? h('small', { class: 'flag' }, ` ${t('ent.duplicate')}`) : null),
        h('td', {}, r.club || ''),
        h('td', { class: 'num' }, r.rating || ''),
        h('td', {}, r.status === 'pending' ? t('ent.pending') : playerStatus(r.status)),
        h('td', { class: 'no-print' }, actions));
    });
    clear(list, h('div', { class: 'table-wrap' }, h('table', { class: 'entries' },
      h('thead', {}, h('tr', {}, ['ent.no', 'ent.name', 'ent.club', 'ent.rating', 'ent.status', 'ent.actions'].map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, body))));
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    act(openBtn, status, async () => {
      const body = { approval: approval.querySelector('input').checked };
      if (capacity.value) body.capacity = Number(capacity.value);
      const fields = [];
      if (needClub.querySelector('input').checked) fields.push('club');
      if (needRating.querySelector('input').checked) fields.push('rating');
      if (fields.length) body.fields = fields;
      await post(`${page.base()}/entries/open`, body);
      await load();
    });
  });
  closeBtn.addEventListener('click', () => act(closeBtn, status, async () => { await post(`${page.base()}/entries/close`, {}); await load(); }));
  load();
  return h('section', { class: 'card', id: 'entries' }, h('h3', {}, t('ent.title')), terms, linkBox(t('ent.link'), enterLink), form, status, list);
}

/** deskSection is the check-in desk for the next round (E-2). */
export function deskSection(page) {
  const n = page.ev.round + 1;
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const count = h('p', { class: 'desk-count' });
  const list = h('ul', { class: 'desk-list' });
  const reload = h('button', { type: 'button', class: 'small' }, t('desk.reload'));
  async function load() {
    try {
      const res = await get(`${page.base()}/rounds/${n}/checkin`, { token: page.token });
      count.textContent = t('desk.count', { n: res.checkedIn, of: res.players.filter((p) => p.status === 'active').length, round: n });
      clear(list, res.players.map((p) => {
        const li = h('li', { class: p.checkedIn ? 'in' : 'out', 'data-player': p.id },
          h('span', { class: 'num' }, p.number), ' ', h('span', { class: 'name' }, p.name), p.club ? h('small', { class: 'muted' }, ` ${p.club}`) : null, ' ');
        if (p.checkedIn) li.append(h('span', { class: 'ok' }, `✓ ${t('desk.in')}`));
        else if (p.status === 'active' && res.open) {
          const b = h('button', { type: 'button', class: 'small', 'data-checkin': p.id }, t('desk.checkIn'));
          b.addEventListener('click', () => act(b, status, async () => {
            await outbox.post(`${page.base()}/rounds/${n}/checkin`, { player: p.id }, { token: page.token });
            await load();
          }));
          li.append(b);
        } else li.append(h('span', { class: 'muted' }, playerStatus(p.status)));
        return li;
      }));
    } catch (err) {
      showError(status, err);
    }
  }
  reload.addEventListener('click', load);
  load();
  return h('section', { class: 'card', id: 'checkin-desk' }, h('h3', {}, t('desk.title', { round: n })), count, reload, status, list);
}
