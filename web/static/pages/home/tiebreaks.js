// pages/home/tiebreaks.js — the create form's tie-breaks as a picker: the
// chain in order, each criterion by its name (never its API id) with
// buttons to move it up or down or take it out, and a list to add one.
// The chosen ids go into a hidden "tiebreaks" field, comma-separated, which
// the form's eventBody reads as before; an empty chain means the system's
// default.

import { t } from '../../core/i18n.js';
import { TIEBREAKS, tiebreakHelp, tiebreakName } from '../../names.js';
import { clear, h } from '../../ui.js';

/** tiebreakPicker returns the picker's node; its hidden input is named "tiebreaks". */
export function tiebreakPicker() {
  const chain = [];
  const hidden = h('input', { type: 'hidden', name: 'tiebreaks', value: '' });
  const list = h('ol', { class: 'tb-chain', 'aria-live': 'polite' });
  const add = h('select', { id: 'tiebreak-add', 'aria-label': t('home.tb.add') });
  const sync = () => {
    hidden.value = chain.join(',');
    clear(add, h('option', { value: '' }, t('home.tb.add')),
      TIEBREAKS.filter((c) => c !== 'points' && !chain.includes(c)).map((c) => h('option', { value: c }, tiebreakName(c))));
    clear(list, chain.length ? chain.map((c, i) => {
      const btn = (label, aria, fn, off) => {
        const b = h('button', { type: 'button', class: 'small', 'aria-label': `${aria}: ${tiebreakName(c)}`, disabled: off || undefined }, label);
        b.addEventListener('click', () => { fn(); sync(); });
        return b;
      };
      return h('li', { 'data-tiebreak': c, title: tiebreakHelp(c) },
        h('span', { class: 'tb-name' }, tiebreakName(c)),
        btn('↑', t('home.tb.up'), () => chain.splice(i - 1, 0, ...chain.splice(i, 1)), i === 0),
        btn('↓', t('home.tb.down'), () => chain.splice(i + 1, 0, ...chain.splice(i, 1)), i === chain.length - 1),
        btn('✕', t('home.tb.remove'), () => chain.splice(i, 1)));
    }) : h('li', { class: 'muted tb-default' }, t('home.tb.default')));
  };
  add.addEventListener('change', () => {
    if (add.value) chain.push(add.value);
    sync();
    add.focus();
  });
  sync();
  return h('div', { class: 'tb-picker' }, list, add, hidden);
}
