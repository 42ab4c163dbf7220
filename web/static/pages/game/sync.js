// pages/game/sync.js — the official's offline scoresheet above the board:
// how many moves wait to be sent (and that the device is offline), and a
// conflict with both versions side by side, for the scribe to choose. The
// queue itself is core/sync.js; this draws it.

import { errorText, t } from '../../core/i18n.js';
import * as sync from '../../core/sync.js';
import { notation as writeMoves } from '../../engine.js';
import { h } from '../../ui.js';

// conflictKey says why the queue stopped, from the refusal.
function conflictKey(c) {
  if (c.code === 'stale_ply' || c.code === 'conflict') return 'sync.conflictPly'; // 409: the game is at another ply
  if (c.code === 'game_over') return 'sync.conflictOver';
  if (c.status === 401 || c.status === 403) return 'sync.conflictToken';
  return 'sync.conflictOther';
}

// written gives the moves from ply `from` on in the reader's notation, by the
// rules engine (offline too); ICCS when it cannot.
async function written(startFen, moves, from, name) {
  if (name === 'iccs') return moves.slice(from);
  try {
    return (await writeMoves(startFen, moves, name)).slice(from);
  } catch {
    return moves.slice(from);
  }
}

/**
 * mountSync draws the queue's panel into host. ctx: {gid, token,
 * serverView(), notation(), onView(view), showError(err)}. It returns
 * {update()}, called when the queue changes.
 */
export function mountSync(host, ctx) {
  const line = h('p', { class: 'sync-line', role: 'status', 'aria-live': 'polite', hidden: '' });
  const box = h('section', { class: 'sync-conflict', role: 'alert', hidden: '' });
  const aside = h('p', { class: 'seat-meta sync-aside', hidden: '' });
  host.replaceChildren(line, box, aside);
  let busy = false;
  let shownConflict = '';

  const drawLine = () => {
    const n = sync.waitingMoves(ctx.gid);
    const all = sync.entries(ctx.gid).length;
    // Offline when the browser says so, or when the last send was lost on
    // the network (core/sync.js unreachable): then the moves wait, they are
    // not being sent.
    const online = (globalThis.navigator ? navigator.onLine !== false : true) && !sync.unreachable(ctx.gid);
    let text = '';
    if (sync.conflict(ctx.gid)) text = t('sync.stopped', { n: all });
    else if (!online) text = n ? t('sync.waiting', { n }) : (all ? t('sync.waitingOther', { n: all }) : t('sync.offlineKept'));
    else if (all) text = t('sync.sending', { n: all });
    line.textContent = text;
    line.hidden = !text;
    line.classList.toggle('offline', !online);
  };

  async function drawConflict() {
    const c = sync.conflict(ctx.gid);
    const id = c ? `${c.id}:${c.at}` : '';
    if (id === shownConflict) return;
    shownConflict = id;
    if (!c) { box.hidden = true; box.replaceChildren(); return; }
    const view = ctx.serverView() || { moves: [], startFen: '' };
    const queued = sync.entries(ctx.gid);
    const mine = queued.filter((e) => e.kind === 'move');
    const from = mine.length ? Math.min(mine[0].ply, view.moves.length) : view.moves.length;
    const name = ctx.notation();
    const serverMoves = await written(view.startFen, view.moves, from, name);
    const mineAll = view.moves.slice(0, from).concat(mine.map((e) => e.body.move));
    const myMoves = await written(view.startFen, mineAll, from, name);
    // Numbered as the move list is: 2. for Red's second move, 1… for Black's first.
    const redFirst = !/ b /.test(view.startFen || '');
    const label = (ply) => { const k = ply + (redFirst ? 0 : 1); return `${Math.floor(k / 2) + 1}${k % 2 ? '…' : '.'}`; };
    const list = (items) => (items.length ? h('ul', { class: 'sync-moves' }, ...items.map((m, i) => h('li', {}, `${label(from + i)} ${m}`))) : h('p', { class: 'seat-meta' }, t('sync.none')));
    const serverBtn = h('button', { type: 'button' }, t('sync.keepServer'));
    const mineBtn = h('button', { type: 'button', class: 'primary' }, t('sync.keepMine'));
    serverBtn.addEventListener('click', () => choose('server'));
    mineBtn.addEventListener('click', () => choose('mine'));
    box.replaceChildren(
      h('h2', {}, t('sync.conflict')),
      h('p', {}, t(conflictKey(c), { move: label(from) }), ' ', h('span', { class: 'seat-meta' }, errorText(c))),
      h('div', { class: 'sync-versions' },
        h('div', { class: 'sync-version', 'data-version': 'server' }, h('h3', {}, t('sync.serverVersion')), list(serverMoves),
          view.status === 'over' ? h('p', { class: 'seat-meta' }, t('sync.serverOver')) : null),
        h('div', { class: 'sync-version', 'data-version': 'mine' }, h('h3', {}, t('sync.myVersion', { n: queued.length })), list(myMoves))),
      h('div', { class: 'form-row' }, serverBtn, mineBtn),
      h('p', { class: 'seat-meta' }, t('sync.keptNote')));
    box.hidden = false;
  }

  async function choose(which) {
    if (busy) return;
    busy = true;
    try {
      if (which === 'server') await sync.keepServer(ctx.gid, ctx.serverView());
      else await sync.keepMine(ctx.gid, ctx.serverView(), ctx.token);
    } catch (err) {
      ctx.showError(err);
    } finally {
      busy = false;
    }
    drawAside();
  }

  async function drawAside() {
    const kept = await sync.setAside(ctx.gid);
    const n = kept.reduce((acc, k) => acc + k.entries.filter((e) => e.kind === 'move').length, 0);
    aside.hidden = !kept.length;
    aside.textContent = kept.length ? t('sync.setAside', { n }) + ' ' + kept.map((k) => k.entries.filter((e) => e.kind === 'move').map((e) => e.body.move).join(' ')).join(' · ') : '';
  }

  const update = () => { drawLine(); drawConflict(); };
  addEventListener('online', update);
  addEventListener('offline', update);
  update();
  drawAside();
  return { update };
}
