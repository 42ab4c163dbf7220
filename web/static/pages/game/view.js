// pages/game/view.js — the game page's controls and move list drawn from
// state.js's models: pure functions from data to virtual nodes, patched into
// the page (core/view.js), so a new game view — the opponent's move, a clock
// press — keeps the focus on the button the reader is on. The board and the
// clocks are drawn by board.js and clock.js, the official's pad by
// official.js.

import { t } from '../../core/i18n.js';
import { v } from '../../core/view.js';

/** confirmView is the ✓/✗ of a move waiting to be confirmed, or "Sending…". */
export function confirmView(m, act) {
  return v('div', { class: 'confirm-bar', hidden: !m.confirm },
    m.confirm === 'ask' ? [
      v('span', {}, t('game.confirmMove')),
      v('button', { type: 'button', class: 'yes', 'aria-label': t('game.confirm'), onclick: act.confirmMove }, '✓'),
      v('button', { type: 'button', class: 'no', 'aria-label': t('game.cancel'), onclick: act.cancelMove }, '✗'),
    ] : m.confirm === 'sending' ? v('span', {}, t('game.sending')) : null);
}

/** offerView is an incoming draw offer (accept or decline), or whose offer is pending. */
export function offerView(m, act) {
  return v('div', { class: 'offer-bar', role: 'status', hidden: !m.offer },
    m.offer === 'incoming' ? [
      v('span', {}, t('game.drawIncoming')),
      v('button', { type: 'button', class: 'yes', onclick: () => act.draw('accept') }, t('game.accept')),
      v('button', { type: 'button', onclick: () => act.draw('decline') }, t('game.decline')),
    ] : m.offer === 'mine' ? v('span', {}, t('game.drawOffered'))
      : m.offer === 'other' ? v('span', {}, `${t(`game.${m.offerBy}`)}: ${t('game.offerDraw')}`) : null);
}

const button = (label, cls, onclick, attrs = {}) => v('button', { type: 'button', class: cls || null, onclick, ...attrs }, label);

// confirmIn asks q in place with ✓/✗ (the draw offer, resignation).
function confirmIn(key, q, yes, no) {
  return v('span', { class: 'confirm-inline', role: 'group', 'aria-label': q, key },
    v('span', {}, q),
    button('✓', 'primary', yes, { 'aria-label': `${q} ${t('game.confirm')}` }),
    button('✗', '', no, { 'aria-label': t('game.cancel') }));
}

/** barView is a player's bar: arrival, the clock press, the draw offer, resignation, claims. */
export function barView(m, act) {
  return v('div', { class: 'game-bar', hidden: !m.bar }, m.bar ? [
    m.arrive ? button(t('game.arrive'), '', act.arrive, { key: 'arrive' }) : null,
    m.press ? button(t('game.press'), 'primary', act.press, { key: 'press' }) : null,
    m.draw === 'armed' ? [v('span', { class: 'armed', key: 'armed' }, t('game.drawArmed')),
      button(t('game.drawArmedCancel'), '', act.disarmDraw, { key: 'disarm' })]
      : m.draw === 'ask' ? confirmIn('ask-draw', t('game.offerDrawConfirm'), act.offerDraw, act.unask)
        : m.draw === 'offer' ? button(t('game.offerDraw'), '', () => act.ask('draw'), { key: 'draw' }) : null,
    m.resign === 'ask' ? confirmIn('ask-resign', t('game.resignConfirm'), act.resign, act.unask)
      : button(t('game.resign'), 'danger', () => act.ask('resign'), { key: 'resign' }),
    v('details', { class: 'claims', key: 'claims' }, v('summary', {}, t('game.claims')),
      v('div', { class: 'form-row' },
        button(t('game.claim.time'), '', () => act.claim('time')),
        button(t('game.claim.noCapture', { n: m.noCaptureLimit }), '', () => act.claim('noCapture')),
        button(t('game.claim.ruling'), '', () => act.claim('ruling')))),
  ] : null);
}

/** movesView is the move list, two plies a line, the last one marked. */
export function movesView(shown) {
  const { moves, chinese } = shown;
  if (!moves.length) return v('ol', { class: 'moves', 'aria-label': t('game.moves') }, v('li', { class: 'moves-empty' }, v('span', { class: 'm' }, t('game.noMoves'))));
  const lines = [];
  for (let i = 0; i < moves.length; i += 2) {
    lines.push(v('li', { key: i }, v('span', { class: 'n' }, `${i / 2 + 1}.`),
      [i, i + 1].map((j) => v('span', { class: `m${j === moves.length - 1 ? ' cur' : ''}`, lang: chinese ? 'zh-Hans' : 'en' }, j < moves.length ? moves[j] : ''))));
  }
  return v('ol', { class: 'moves', 'aria-label': t('game.moves'), tabindex: '0' }, lines);
}
