// game-official.js — the table pad on the game page for an official (or the
// organiser): a scribe records the moves on the board and the clock
// presses, draws and arrivals for either side; results are entered here;
// an arbiter rules (repetition votes, fouls and penalties, clock
// corrections, results, late forfeits). The API decides who may do what;
// its refusal is shown by the game page (ctx.showError).

import { t } from '../../core/i18n.js';
import { REASONS, RESULTS, reasonText, resultName } from '../../names.js';
import { confirmDialog, h, select as options } from '../../ui.js';
import { mountRuling } from './ruling.js';

let seq = 0;

// labelled is a <select> of [value, label] pairs inside its label.
function labelled(id, pairs, label) {
  const s = options(pairs, { id });
  return { s, row: h('label', { for: id }, label, s) };
}

const sides = () => [['red', t('off.red')], ['black', t('off.black')]];
// A verdict or a result starts empty: nothing is chosen for the official (issue: the select read 红方 / 1-0 before anyone chose).
const noChoice = () => [['', '—']];

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
  const run = async (path, body, opts) => {
    done.textContent = '';
    try {
      await ctx.post(path, body, opts);
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
  const drawSide = labelled(id('dside'), sides(), t('off.side'));
  let last = null; // the latest game view (update)
  const armed = h('span', { class: 'seat-meta', 'aria-live': 'polite' });
  // D-1: an offer is made after one's own move, before the press. With auto-press on the
  // press goes with the move, so an offer for the side to move is armed and sent with its next move.
  const offer = () => {
    const side = drawSide.s.value;
    const justMoved = last && last.clocks && last.clocks.awaitingPress && last.sideToMove !== side;
    if (!justMoved && ctx.armDraw && ctx.autoPress && ctx.autoPress() && last && last.sideToMove === side) {
      ctx.armDraw(side);
      armed.textContent = t('off.drawArmed', { side: t(`off.${side}`) });
      return;
    }
    run('/draw', { action: 'offer', side });
  };
  const drawRow = h('div', { class: 'form-row' }, h('span', {}, t('off.draw')), drawSide.row,
    btn(t('off.draw.offer'), offer),
    ...['accept', 'decline'].map((a) => btn(t(`off.draw.${a}`), () => run('/draw', { action: a, side: drawSide.s.value }))), armed);
  const arriveSide = labelled(id('aside'), sides(), t('off.side'));
  const arriveRow = h('div', { class: 'form-row' }, arriveSide.row, btn(t('off.arrive'), () => run('/arrive', { side: arriveSide.s.value })));

  // results
  const res = labelled(id('result'), [...noChoice(), ...RESULTS.map((r) => [r, `${r} ${resultName(r)}`])], t('off.resultField'));
  res.s.required = true;
  const why = labelled(id('reason'), [['', t('off.none')], ...REASONS.map((r) => [r, reasonText(r)])], t('off.reasonField'));
  const resultForm = h('form', { class: 'form-row' }, res.row, why.row, h('button', { type: 'submit' }, t('off.save')));
  resultForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!res.s.value) { ctx.showError(new Error(t('off.pickResult'))); res.s.focus(); return; }
    const body = { result: res.s.value };
    if (why.s.value) body.reason = why.s.value;
    run('/result', body);
  });

  // rulings
  const kinds = ['repetition', 'foul', 'penalty', 'clock', 'result', 'lateForfeit'];
  const kind = labelled(id('kind'), kinds.map((k) => [k, t(`off.kind.${k}`)]), t('off.kind'));
  const rSide = labelled(id('rside'), sides(), t('off.side'));
  const votes = [1, 2, 3].map((i) => labelled(id(`vote${i}`), [...noChoice(), ...sides()], t('off.vote', { n: i })));
  const penalty = labelled(id('penalty'), ['warning', 'loss', 'expulsion'].map((p) => [p, t(`off.penalty.${p}`)]), t('off.penalty'));
  const remaining = h('input', { id: id('remaining'), inputmode: 'numeric', size: 7, placeholder: '5:00' });
  const remainingRow = h('label', { for: id('remaining') }, t('off.remaining'), remaining);
  const rRes = labelled(id('rresult'), [...noChoice(), ...RESULTS.map((r) => [r, `${r} ${resultName(r)}`])], t('off.resultField'));
  const rWhy = labelled(id('rreason'), [['', t('off.none')], ...REASONS.map((r) => [r, reasonText(r)])], t('off.reasonField'));
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
  rulingForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const k = kind.s.value;
    const body = { kind: k };
    if (k === 'repetition') {
      if (votes.some((v) => !v.s.value)) { ctx.showError(new Error(t('off.pickVotes'))); return; }
      body.votes = votes.map((v) => v.s.value);
    }
    // O-1: a result correction says why and is confirmed before it is sent.
    if (k === 'result') {
      if (!rRes.s.value) { ctx.showError(new Error(t('off.pickResult'))); rRes.s.focus(); return; }
      if (!note.value.trim()) { ctx.showError(new Error(t('off.noteNeeded'))); note.focus(); return; }
      if (!(await confirmDialog(t('off.correctConfirm', { result: rRes.s.value, note: note.value.trim() })))) return;
    }
    if (k === 'clock' && !note.value.trim()) { ctx.showError(new Error(t('off.noteNeeded'))); note.focus(); return; }
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
  sheetForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run('/record', sheet.value, { contentType: 'text/plain; charset=utf-8' });
  });
  const sheetBox = h('details', {}, h('summary', {}, t('off.sheet')), sheetForm);

  const rulingHead = h('h3', {}, t('off.ruling'));
  const movesHint = h('p', { class: 'muted moves-hint', hidden: true }, t('off.movesAreScribes'));
  // The repetition ruling sits at the top of the pad: on a laptop it is the first thing an arbiter sees.
  const ruling = mountRuling(h('div'), ctx);
  host.replaceChildren(h('section', { class: 'official-pad', 'aria-labelledby': id('h') },
    h('h2', { id: id('h') }, t('off.pad')), movesHint, ruling.node, pressRow, drawRow, arriveRow,
    h('h3', {}, t('off.result')), resultForm,
    rulingHead, rulingForm, sheetBox, done));
  let kind0 = '';

  return {
    /** only keeps the tools of one kind of official: "scribe" (no rulings) or "arbiter" (no presses or draws). */
    only(k) {
      kind0 = k;
      // O-1: the moves are the scribe's; an arbiter tapping the board is told why nothing moves.
      movesHint.hidden = k !== 'arbiter';
      rulingHead.hidden = rulingForm.hidden = k === 'scribe';
      drawRow.hidden = pressRow.hidden = k === 'arbiter';
    },
    /** update shows what the current game view allows (the clock press). */
    update(game) {
      if (last && last.ply !== game.ply) armed.textContent = ''; // the armed offer went with the move
      last = game;
      if (kind0 !== 'scribe') ruling.update(game); // the vote is the arbiters' (G-6)
      else ruling.node.hidden = true;
      pressRow.replaceChildren();
      if (kind0 === 'arbiter') return;
      if (game.status === 'playing' && game.clocks && game.clocks.awaitingPress) {
        const mover = game.sideToMove === 'red' ? 'black' : 'red';
        pressRow.append(btn(t('off.press', { side: t(`off.${mover}`) }), () => run('/clock', {}), 'primary'));
      }
    },
  };
}
