// pages/enter/page.js — an event's entry page (E-1), phone-first: the
// form, then the player's own link, kept on this device at once (the event
// page opens with it from then on, and with it the player's game).

import { errorText, t } from '../../core/i18n.js';
import { get } from '../../core/http.js';
import * as outbox from '../../core/outbox.js';
import { eventLink, keepLink, saveToken } from '../../core/tokens.js';
import { clear, field, h, linkBox } from '../../ui.js';

/** mount draws the entry page of event tid into root. */
export async function mount(root, { tid }) {
  const ev = await get(`/tournaments/${encodeURIComponent(tid)}`);
  const tour = ev.tournament || ev;
  const entries = tour.entries;
  const title = h('h1', {}, t('enter.title', { name: tour.name }));
  if (!entries || !entries.open) {
    clear(root, title, h('p', { class: 'error', role: 'alert' }, t('err.entries_closed')));
    return;
  }
  const need = new Set(entries.fields || []);
  const name = h('input', { name: 'name', required: true, maxlength: 120, autocomplete: 'name' });
  const club = h('input', { name: 'club', maxlength: 120, required: need.has('club') });
  const rating = h('input', { name: 'rating', type: 'number', min: 0, max: 4000, inputmode: 'numeric', required: need.has('rating') });
  const dup = h('input', { type: 'checkbox', name: 'duplicateOk' });
  const dupBox = h('label', { class: 'checkbox', hidden: true }, dup, ' ', t('enter.duplicateOk'));
  const out = h('div', { class: 'enter-result', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit' }, t('enter.submit'));
  const form = h('form', { class: 'enter-form' },
    field(t('enter.name'), name), field(t('enter.club'), club), field(t('enter.rating'), rating), dupBox, submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { name: name.value.trim() };
    if (club.value.trim()) body.club = club.value.trim();
    if (rating.value !== '') body.rating = Number(rating.value);
    if (dup.checked) body.duplicateOk = true;
    submit.disabled = true;
    try {
      const res = await outbox.post(`/tournaments/${encodeURIComponent(tid)}/entries`, body);
      // Kept at once: this device opens the event as this player from now on.
      saveToken(`event:${tid}`, res.token);
      keepLink(tid, { id: res.id, name: res.player.name, number: res.player.number, token: res.token });
      const link = eventLink(tid, res.token);
      form.hidden = true;
      clear(out,
        h('p', { class: 'ok', role: 'status' }, res.status === 'pending' ? t('enter.pending') : t('enter.done', { number: res.player.number })),
        linkBox(t('enter.link'), link),
        res.qr ? h('figure', { class: 'qr' }, h('img', { src: res.qr, alt: t('enter.qrAlt'), width: 220, height: 220 }), h('figcaption', { class: 'muted' }, t('enter.qr'))) : null,
        h('p', {}, h('a', { href: `/t/${encodeURIComponent(tid)}`, class: 'button' }, t('enter.open'))));
    } catch (err) {
      if (err.code === 'likely_duplicate') dupBox.hidden = false;
      clear(out, h('p', { class: 'error', role: 'alert' }, errorText(err)));
    } finally {
      submit.disabled = false;
    }
  });
  clear(root, title, entries.capacity ? h('p', {}, t('enter.places', { places: entries.places })) : null, form, out);
}
