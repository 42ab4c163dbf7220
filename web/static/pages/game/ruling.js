// pages/game/ruling.js — the repetition ruling on an arbiter's pad (G-6):
// the cycle (how many times, how many moves, the moves themselves), the facts
// the server finds for each side (could it have broken the cycle, with which
// move; perpetual check or chase), and this arbiter's own sealed vote. The
// seed's procedure (000 ch.3 巡回裁判员 5, ch.8 请裁制度) has three arbiters
// each find the root of the cycle and show their verdicts at the same
// moment: each votes from their own device (POST /games/{gid}/votes); the pad
// says how many of the three are in and never shows a side before the third,
// and the server rules when it arrives. Before that the players may agree a
// draw (议和): one confirmed step. Once ruled, the verdicts, who cast them
// and their notes stay on the pad (and in the game's log).
//
// The pure functions are unit-tested (web/unit/teams.test.mjs).

import { t } from '../../core/i18n.js';
import { tokenParts } from '../../core/tokens.js';
import { clear, confirmDialog, h } from '../../ui.js';

const side = (c) => t(c === 'red' ? 'off.red' : 'off.black');

/**
 * cycleMoves is the last cycle's moves (ICCS) from a game view's move list
 * (moves since `since`; the whole list when since is 0), or [] when they
 * are not all held.
 */
export function cycleMoves(game) {
  const n = (game.repetition && game.repetition.cycleLength) || 0;
  const moves = game.moves || [];
  if (!n || moves.length < n) return [];
  return moves.slice(moves.length - n);
}

/**
 * sideFacts are the G-6 facts about one side, as lines for the pad: whether
 * it could have broken the cycle (and with which move), perpetual check,
 * perpetual chase.
 */
export function sideFacts(rep, c) {
  const lines = [];
  if (rep.couldBreak && rep.couldBreak[c]) {
    const m = rep.breakingMove && rep.breakingMove[c];
    lines.push(m ? t('rul.couldBreakWith', { move: m }) : t('rul.couldBreak'));
  } else {
    lines.push(t('rul.couldNotBreak'));
  }
  if (rep.perpetualCheck && rep.perpetualCheck[c]) lines.push(t('rul.perpetualCheck'));
  if (rep.perpetualChase && rep.perpetualChase[c]) lines.push(t('rul.perpetualChase'));
  return lines;
}

/** shows says whether the pad has a repetition to show: a warning, a pending position or a ruling. */
export function shows(game) {
  const rep = game.repetition || {};
  return !!(rep.ruling || game.status === 'pendingRuling' || rep.warning);
}

/**
 * mountRuling draws the repetition section into host. ctx: the pad's
 * {token, post(path, body), showError(err), refresh()}. It returns
 * {update(game)}.
 */
export function mountRuling(host, ctx, { readOnly = false } = {}) {
  const me = tokenParts(ctx.token || '').id;
  const note = h('input', { id: 'rul-note', maxlength: 500, autocomplete: 'off' });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const section = h('section', { class: 'card ruling', id: readOnly ? 'repetition-ruling-public' : 'repetition-ruling',
    'aria-labelledby': readOnly ? 'rul-h-public' : 'rul-h', hidden: true });
  let busy = false;

  async function send(path, body) {
    if (busy) return;
    busy = true;
    clear(status);
    try {
      await ctx.post(path, body);
      note.value = '';
    } catch (err) {
      ctx.showError(err);
    } finally {
      busy = false;
      ctx.refresh();
    }
  }

  const voteBtn = (c) => {
    const b = h('button', { type: 'button', class: c === 'red' ? 'vote-red' : 'vote-black', 'data-vote': c }, t('rul.voteFor', { side: side(c) }));
    b.addEventListener('click', async () => {
      if (!(await confirmDialog(t('rul.voteConfirm', { side: side(c) })))) return;
      const body = { side: c };
      if (note.value.trim()) body.note = note.value.trim();
      send('/votes', body);
    });
    return b;
  };
  const drawBtn = h('button', { type: 'button', id: 'rul-agreed' }, t('rul.agreedDraw'));
  drawBtn.addEventListener('click', async () => {
    if (!(await confirmDialog(t('rul.agreedConfirm')))) return;
    send('/result', { result: '1/2-1/2', reason: 'agreement' });
  });

  function facts(rep, game) {
    // The cycle in the reader's notation when the move list has it, else in ICCS.
    const texts = ctx.moveTexts ? ctx.moveTexts() : null;
    const cyc = cycleMoves(texts && texts.length === (game.moves || []).length ? { ...game, moves: texts } : game);
    return [
      h('p', {}, t('rul.cycles', { n: rep.cycles, len: rep.cycleLength })),
      cyc.length ? h('p', { class: 'cycle' }, t('rul.cycle'), ' ', h('code', {}, cyc.join(' '))) : null,
      rep.requested && rep.requestedBy ? h('p', {}, t('rul.requestedBy', { side: side(rep.requestedBy) })) : null,
      h('div', { class: 'facts' }, ['red', 'black'].map((c) => h('div', { class: `fact ${c}`, 'data-side': c },
        h('h4', {}, side(c)), h('ul', {}, sideFacts(rep, c).map((l) => h('li', {}, l)))))),
    ];
  }

  function ruled(r) {
    return [
      h('p', { class: 'ruled', role: 'status' }, t('rul.ruled', { side: side(r.loser) })),
      h('p', {}, t('rul.votes', { votes: r.votes.map(side).join(' · ') })),
      r.cast && r.cast.length ? h('ol', { class: 'vote-list' }, r.cast.map((v) => h('li', {},
        `${t(`rul.by.${v.by === 'chiefArbiter' || v.by === 'organiser' ? v.by : 'arbiter'}`)}: ${side(v.side)}`,
        v.note ? h('span', { class: 'muted' }, ` — ${v.note}`) : null))) : null,
      r.note ? h('p', { class: 'muted' }, `${t('off.note')}: ${r.note}`) : null,
    ];
  }

  return {
    update(game) {
      const rep = game.repetition || {};
      // Players and spectators see the ruling and the count of sealed votes, not the arbiters' tools.
      section.hidden = readOnly ? !(rep.ruling || game.status === 'pendingRuling') : !shows(game);
      if (section.hidden) return;
      const pending = game.status === 'pendingRuling';
      const votes = rep.votes || { cast: 0, needed: 3, by: [] };
      const voted = votes.by.includes(me);
      const parts = [h('h3', { id: readOnly ? 'rul-h-public' : 'rul-h' }, t('rul.title')), ...(readOnly ? [] : facts(rep, game))];
      if (rep.ruling) parts.push(...ruled(rep.ruling));
      else if (pending && readOnly) parts.push(h('p', { class: 'sealed', 'data-cast': String(votes.cast) }, t('rul.sealed', { n: votes.cast, of: votes.needed })));
      else if (pending) {
        parts.push(h('p', { class: 'sealed', 'data-cast': String(votes.cast) }, t('rul.sealed', { n: votes.cast, of: votes.needed })));
        if (voted) parts.push(h('p', { class: 'ok' }, t('rul.youVoted')));
        else {
          parts.push(h('p', { class: 'muted' }, t('rul.voteHelp')),
            h('div', { class: 'field' }, h('label', { for: 'rul-note' }, t('rul.root')), note),
            h('div', { class: 'row wrap' }, voteBtn('red'), voteBtn('black')));
        }
        parts.push(h('div', { class: 'row wrap' }, drawBtn));
      } else {
        parts.push(h('p', { class: 'muted' }, t('rul.warning')));
      }
      parts.push(status);
      const focused = section.contains(document.activeElement) ? document.activeElement : null;
      clear(section, ...parts);
      if (focused && focused.isConnected) focused.focus();
    },
    node: section,
  };
}
