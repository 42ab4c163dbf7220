// pages/festival/page.js — a festival's front page, /f/{fid} (E-3): its
// sections side by side (a column each on a wide screen, one under the
// other on a phone), each with its system, status, round, players and its
// links: the section's page and, while it takes entries, its entry page —
// the entrant picks a section here.

import { get } from '../../core/http.js';
import { t } from '../../core/i18n.js';
import { statusName, systemName } from '../../names.js';
import { clear, h } from '../../ui.js';

const enc = encodeURIComponent;

// roundText is a section's round as the event page's header says it (a
// round robin's rounds follow from its field: none said before the draw).
function roundText(s) {
  if (!s.rounds) return s.round ? t('ev.roundsOpen', { n: s.round }) : t('pair.none');
  return s.round ? t('ev.round', { n: s.round, of: s.rounds }) : t('ev.roundNone', { of: s.rounds });
}

/** mount draws festival fid's page into root. */
export async function mount(root, { fid }) {
  const f = await get(`/festivals/${enc(fid)}`);
  document.title = `${f.name} · xqtour`;
  const cards = f.sections.map((s) => h('article', { class: 'card section-card', 'data-section': s.id },
    h('h2', {}, h('a', { href: `/t/${enc(s.id)}` }, s.name)),
    h('p', { class: 'muted' }, systemName(s.system) + (s.teams ? ` · ${t('tab.teams')}` : '')),
    h('ul', { class: 'event-meta' },
      h('li', {}, statusName(s.status)),
      h('li', {}, roundText(s)),
      h('li', {}, t('ev.players', { n: s.players }))),
    h('p', {},
      h('a', { class: 'button', href: `/t/${enc(s.id)}` }, t('fest.open')), ' ',
      s.enter ? h('a', { class: 'button primary', href: s.enter }, s.entries.capacity ? t('fest.enter', { places: s.entries.places }) : t('fest.enterAny')) : null)));
  clear(root,
    h('h1', {}, f.name),
    h('p', { class: 'muted' }, t('fest.lead', { n: f.sections.length })),
    cards.length ? h('div', { class: 'sections' }, cards) : h('p', { class: 'muted' }, t('fest.none')));
}
