// game-official.js — the table pad on the game page for an official (or the
// organiser): a scribe records the moves on the board and the clock
// presses, draws and arrivals for either side; results are entered here;
// an arbiter rules (repetition votes, fouls and penalties, clock
// corrections, results, late forfeits). The API decides who may do what
// and its refusal is shown as it is.

import { ApiError, newKey } from './api.js';
import { addStrings, t } from './i18n.js';
import { h, RESULTS, REASONS, resultText, reasonText } from './game-text.js';

addStrings({
  zh: {
    'off.pad': '裁判台',
    'off.press': '按钟（{side}）',
    'off.side': '一方',
    'off.red': '红方', 'off.black': '黑方',
    'off.draw': '和棋',
    'off.draw.offer': '提和', 'off.draw.accept': '同意', 'off.draw.decline': '拒绝',
    'off.arrive': '到场',
    'off.result': '登记结果',
    'off.resultField': '结果', 'off.reasonField': '原因', 'off.none': '（无）',
    'off.save': '提交',
    'off.ruling': '裁决',
    'off.kind': '类型',
    'off.kind.repetition': '重复局面（三位裁判投票）',
    'off.kind.foul': '犯规',
    'off.kind.penalty': '处罚',
    'off.kind.clock': '校正时钟',
    'off.kind.result': '判定结果',
    'off.kind.lateForfeit': '迟到判负',
    'off.vote': '第 {n} 票',
    'off.penalty': '处罚', 'off.penalty.warning': '警告', 'off.penalty.loss': '判负', 'off.penalty.expulsion': '除名',
    'off.remaining': '剩余时间（分:秒）',
    'off.late': '迟到方',
    'off.note': '备注',
    'off.done': '已提交',
    'off.badTime': '时间写作 分:秒，例如 5:00',
    'off.sheet': '录入记录纸（PGN）',
    'off.sheetLabel': 'PGN 棋谱',
    'off.sheetLoad': '载入',
  },
  en: {
    'off.pad': 'Table pad',
    'off.press': 'Press clock ({side})',
    'off.side': 'Side',
    'off.red': 'Red', 'off.black': 'Black',
    'off.draw': 'Draw',
    'off.draw.offer': 'Offer', 'off.draw.accept': 'Accept', 'off.draw.decline': 'Decline',
    'off.arrive': 'Arrived',
    'off.result': 'Enter the result',
    'off.resultField': 'Result', 'off.reasonField': 'Reason', 'off.none': '(none)',
    'off.save': 'Submit',
    'off.ruling': 'Ruling',
    'off.kind': 'Kind',
    'off.kind.repetition': 'Repetition (three arbiters vote)',
    'off.kind.foul': 'Foul',
    'off.kind.penalty': 'Penalty',
    'off.kind.clock': 'Clock correction',
    'off.kind.result': 'Result',
    'off.kind.lateForfeit': 'Late forfeit',
    'off.vote': 'Vote {n}',
    'off.penalty': 'Penalty', 'off.penalty.warning': 'warning', 'off.penalty.loss': 'loss', 'off.penalty.expulsion': 'expulsion',
    'off.remaining': 'Time left (m:ss)',
    'off.late': 'Late',
    'off.note': 'Note',
    'off.done': 'Done',
    'off.badTime': 'Write the time as m:ss, e.g. 5:00',
    'off.sheet': 'Load a scoresheet (PGN)',
    'off.sheetLabel': 'PGN record',
    'off.sheetLoad': 'Load',
  },
});

let seq = 0;

function select(id, options, label) {
  const s = h('select', { id }, ...options.map(([v, l]) => h('option', { value: v }, l)));
  return { s, row: h('label', { for: id }, label, s) };
}

const sides = () => [['red', t('off.red')], ['black', t('off.black')]];

/** parseClock reads "m:ss" or "h:mm:ss" (or plain seconds) as ms; NaN when it cannot. */
export function parseClock(s) {
  const parts = String(s).trim().split(':');
  if (!parts.length || parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return NaN;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0) * 1000;
}

/**
 * mountOfficial draws the pad into host. ctx: {gid, post(path, body),
 * showError(err), refresh()}. It returns {update(game)}.
 */
export function mountOfficial(host, ctx) {
  const n = ++seq;
  const id = (s) => `off${n}-${s}`;
  const done = h('p', { class: 'seat-meta', role: 'status', 'aria-live': 'polite' });
  const run = async (path, body) => {
    done.textContent = '';
    try {
      await ctx.post(path, body);
      done.textContent = t('off.done');
    } catch (err) {
      ctx.showError(err);
      ctx.refresh();
    }
  };
  const btn = (label, onClick, cls = '') => {
    const b = h('button', { type: 'button', class: cls }, label);
    b.addEventListener('click', onClick);
    return b;
  };

  // scribe: press, draw for a side, arrival
  const pressRow = h('div', { class: 'form-row' });
  const drawSide = select(id('dside'), sides(), t('off.side'));
  const drawRow = h('div', { class: 'form-row' }, h('span', {}, t('off.draw')), drawSide.row,
    ...['offer', 'accept', 'decline'].map((a) => btn(t(`off.draw.${a}`), () => run('/draw', { action: a, side: drawSide.s.value }))));
  const arriveSide = select(id('aside'), sides(), t('off.side'));
  const arriveRow = h('div', { class: 'form-row' }, arriveSide.row, btn(t('off.arrive'), () => run('/arrive', { side: arriveSide.s.value })));

  // results
  const res = select(id('result'), RESULTS.map((r) => [r, `${r} ${resultText(r)}`]), t('off.resultField'));
  const why = select(id('reason'), [['', t('off.none')], ...REASONS.map((r) => [r, reasonText(r)])], t('off.reasonField'));
  const resultForm = h('form', { class: 'form-row' }, res.row, why.row, h('button', { type: 'submit' }, t('off.save')));
  resultForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const body = { result: res.s.value };
    if (why.s.value) body.reason = why.s.value;
    run('/result', body);
  });

  // rulings
  const kinds = ['repetition', 'foul', 'penalty', 'clock', 'result', 'lateForfeit'];
  const kind = select(id('kind'), kinds.map((k) => [k, t(`off.kind.${k}`)]), t('off.kind'));
  const rSide = select(id('rside'), sides(), t('off.side'));
  const votes = [1, 2, 3].map((i) => select(id(`vote${i}`), sides(), t('off.vote', { n: i })));
  const penalty = select(id('penalty'), ['warning', 'loss', 'expulsion'].map((p) => [p, t(`off.penalty.${p}`)]), t('off.penalty'));
  const remaining = h('input', { id: id('remaining'), inputmode: 'numeric', size: 7, placeholder: '5:00' });
  const remainingRow = h('label', { for: id('remaining') }, t('off.remaining'), remaining);
  const rRes = select(id('rresult'), RESULTS.map((r) => [r, `${r} ${resultText(r)}`]), t('off.resultField'));
  const rWhy = select(id('rreason'), [['', t('off.none')], ...REASONS.map((r) => [r, reasonText(r)])], t('off.reasonField'));
  const lateBoxes = ['red', 'black'].map((s) => {
    const c = h('input', { type: 'checkbox', id: id(`late-${s}`), value: s });
    return { c, row: h('label', { for: id(`late-${s}`) }, c, t(`off.${s}`)) };
  });
  const lateRow = h('span', { role: 'group', 'aria-label': t('off.late') }, t('off.late'), ...lateBoxes.map((b) => b.row));
  const note = h('input', { id: id('note'), maxlength: 500 });
  const fields = {
    repetition: [...votes.map((v) => v.row)],
    foul: [rSide.row],
    penalty: [rSide.row, penalty.row],
    clock: [rSide.row, remainingRow],
    result: [rRes.row, rWhy.row],
    lateForfeit: [lateRow],
  };
  const fieldRow = h('div', { class: 'form-row' });
  // C-5, O-1: a clock or result correction says why (the note)
  const showFields = () => {
    fieldRow.replaceChildren(...fields[kind.s.value]);
    note.required = kind.s.value === 'clock' || kind.s.value === 'result';
  };
  kind.s.addEventListener('change', showFields);
  showFields();
  const rulingForm = h('form', {}, h('div', { class: 'form-row' }, kind.row), fieldRow,
    h('div', { class: 'form-row' }, h('label', { for: id('note') }, t('off.note')), note, h('button', { type: 'submit' }, t('off.save'))));
  rulingForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const k = kind.s.value;
    const body = { kind: k };
    if (k === 'repetition') body.votes = votes.map((v) => v.s.value);
    if (k === 'foul' || k === 'penalty' || k === 'clock') body.side = rSide.s.value;
    if (k === 'penalty') body.penalty = penalty.s.value;
    if (k === 'clock') {
      const ms = parseClock(remaining.value);
      if (Number.isNaN(ms)) { ctx.showError(new Error(t('off.badTime'))); remaining.focus(); return; }
      body.remainingMs = ms;
    }
    if (k === 'result') {
      body.result = rRes.s.value;
      if (rWhy.s.value) body.reason = rWhy.s.value;
    }
    if (k === 'lateForfeit') body.late = lateBoxes.filter((b) => b.c.checked).map((b) => b.c.value);
    if (note.value.trim()) body.note = note.value.trim();
    run('/rulings', body);
  });

  // a paper scoresheet typed or pasted as PGN replaces the moves entered
  // (POST /games/{gid}/record takes the PGN text itself, not JSON)
  const sheet = h('textarea', { id: id('sheet'), rows: 5, spellcheck: 'false' });
  const sheetForm = h('form', {}, h('label', { for: id('sheet') }, t('off.sheetLabel')), sheet,
    h('div', { class: 'form-row' }, h('button', { type: 'submit' }, t('off.sheetLoad'))));
  sheetForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    done.textContent = '';
    const res = await fetch(`/games/${encodeURIComponent(ctx.gid)}/record`, {
      method: 'POST', cache: 'no-store', body: sheet.value,
      headers: { Authorization: `Bearer ${ctx.token}`, 'Idempotency-Key': newKey(), 'Content-Type': 'text/plain; charset=utf-8', Accept: 'application/json' },
    }).catch(() => null);
    if (!res) { ctx.showError(new ApiError(0, 'network', 'network error')); return; }
    const body = await res.json().catch(() => null);
    if (!res.ok) {
      const e = (body && body.error) || {};
      ctx.showError(new ApiError(res.status, e.code, e.message || `HTTP ${res.status}`, e.rule, body));
      return;
    }
    done.textContent = t('off.done');
    if (ctx.setView && body) ctx.setView(body);
  });
  const sheetBox = h('details', {}, h('summary', {}, t('off.sheet')), sheetForm);

  const rulingHead = h('h3', {}, t('off.ruling'));
  host.replaceChildren(h('section', { class: 'official-pad', 'aria-labelledby': id('h') },
    h('h2', { id: id('h') }, t('off.pad')), pressRow, drawRow, arriveRow,
    h('h3', {}, t('off.result')), resultForm,
    rulingHead, rulingForm, sheetBox, done));
  let kind0 = '';

  return {
    /** only keeps the tools of one kind of official: "scribe" (no rulings) or "arbiter" (no presses or draws). */
    only(k) {
      kind0 = k;
      rulingHead.hidden = rulingForm.hidden = k === 'scribe';
      drawRow.hidden = pressRow.hidden = k === 'arbiter';
    },
    /** update shows what the current game view allows (the clock press). */
    update(game) {
      pressRow.replaceChildren();
      if (kind0 === 'arbiter') return;
      if (game.status === 'playing' && game.clocks && game.clocks.awaitingPress) {
        const mover = game.sideToMove === 'red' ? 'black' : 'red';
        pressRow.append(btn(t('off.press', { side: t(`off.${mover}`) }), () => run('/clock', {}), 'primary'));
      }
    },
  };
}
