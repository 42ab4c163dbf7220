// game-text.js — small pieces the game pages share: a DOM builder, the
// words for results and reasons, and the game stylesheet's link.

import { addStrings, t } from './i18n.js';

addStrings({
  zh: {
    'result.1-0': '红胜', 'result.0-1': '黑胜', 'result.1/2-1/2': '和棋',
    'result.+-': '红方不战而胜', 'result.-+': '黑方不战而胜', 'result.0-0': '双方均负',
    'reason.checkmate': '将死', 'reason.stalemate': '困毙', 'reason.resignation': '认输', 'reason.time': '超时',
    'reason.agreement': '协议和棋', 'reason.noCapture': '限着未吃子', 'reason.deadPosition': '双方无子力可胜',
    'reason.repetitionRuling': '重复局面裁决', 'reason.fouls': '犯规', 'reason.forfeit': '弃权', 'reason.arbiter': '裁判判定',
    'reason.threefold': '三次重复', 'reason.perpetualCheck': '长将', 'reason.illegalMove': '违例着法', 'reason.penalty': '处罚', 'reason.record': '据记录纸',
  },
  en: {
    'result.1-0': 'Red wins', 'result.0-1': 'Black wins', 'result.1/2-1/2': 'Draw',
    'result.+-': 'Red wins by forfeit', 'result.-+': 'Black wins by forfeit', 'result.0-0': 'Both lose',
    'reason.checkmate': 'checkmate', 'reason.stalemate': 'stalemate', 'reason.resignation': 'resignation', 'reason.time': 'time',
    'reason.agreement': 'agreement', 'reason.noCapture': 'no-capture rule', 'reason.deadPosition': 'no mating material',
    'reason.repetitionRuling': 'repetition ruling', 'reason.fouls': 'fouls', 'reason.forfeit': 'forfeit', 'reason.arbiter': 'arbiter’s decision',
    'reason.threefold': 'threefold repetition', 'reason.perpetualCheck': 'perpetual check', 'reason.illegalMove': 'illegal move', 'reason.penalty': 'penalty', 'reason.record': 'from the scoresheet',
  },
});

/** RESULTS and REASONS are the API's names, in the order forms offer them. */
export const RESULTS = ['1-0', '0-1', '1/2-1/2', '+-', '-+', '0-0'];
export const REASONS = ['checkmate', 'stalemate', 'resignation', 'time', 'agreement', 'noCapture', 'deadPosition',
  'repetitionRuling', 'fouls', 'forfeit', 'arbiter', 'threefold', 'perpetualCheck', 'illegalMove', 'penalty'];

/** resultText is a result ("1-0") in words. */
export const resultText = (r) => (r ? t(`result.${r}`) : '');
/** reasonText is a reason ("checkmate") in words; an unknown one is shown as sent. */
export const reasonText = (r) => { const s = t(`reason.${r}`); return s === `reason.${r}` ? r : s; };

/**
 * h builds an element: h('button', {type: 'button', class: 'x'}, 'text', child…).
 * An attribute whose value is null, undefined or false is left out.
 */
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** ensureStyles links the board and game stylesheet once (unless the shell already does). */
export function ensureStyles() {
  if (document.querySelector('link[data-xq-board], link[href*="/assets/board"]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/assets/board.css';
  link.setAttribute('data-xq-board', '');
  document.head.appendChild(link);
}
