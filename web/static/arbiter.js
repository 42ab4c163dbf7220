// arbiter.js — an official's table list: the current round's games (only
// the scribe's own tables when the API says which), each linking to its game
// page, where the official's token (kept for the event) opens the table pad.
// It reads GET /me when the API has it, else the event and its round.

import { ApiError, get } from './core/http.js';
import { errorText, formatTime, t } from './core/i18n.js';
import { getToken } from './core/tokens.js';
import { resultName } from './names.js';
import { h } from './ui.js';

// me asks the API who the token is; null when the API has no such route.
async function me(token) {
  try {
    return await get('/me', { token });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) return null;
    throw err;
  }
}

/**
 * mountTables draws the table list of event tid for an official into host
 * (token: the official's, else the one kept for the event). It returns a
 * function that re-reads the list.
 */
export function mountTables(host, { tid, token = getToken(`event:${tid}`) }) {
  const box = h('section', { class: 'tables-box', 'aria-labelledby': `tables-${tid}` });
  host.append(box);
  const load = async () => {
    try {
      const who = await me(token);
      const ev = (who && who.tournament) || await get(`/tournaments/${encodeURIComponent(tid)}`);
      const n = ev.round || 0;
      const heading = h('h2', { id: `tables-${tid}` }, t('tables.title', { round: n }));
      if (!n) { box.replaceChildren(heading, h('p', {}, t('tables.none'))); return; }
      // A scribe's /me lists its tables' games in the latest round; others read the round.
      const round = who && Array.isArray(who.games) && who.games.length ? { pairings: who.games }
        : await get(`/tournaments/${encodeURIComponent(tid)}/rounds/${n}`);
      const mine = who && Array.isArray(who.tables) && who.tables.length ? new Set(who.tables) : null;
      // A paired round whose start time has not come is not in play (C-1):
      // its tables read "paired, starts at HH:MM" until the round starts. A
      // scribe's games carry no start, so the round is read for it.
      const r = round.started === undefined ? await get(`/tournaments/${encodeURIComponent(tid)}/rounds/${n}`) : round;
      const waiting = r.started === false || (r.startsAt && new Date(r.startsAt).getTime() > Date.now());
      const unplayed = waiting
        ? (r.startsAt ? t('tables.startsAt', { time: formatTime(r.startsAt, { timeStyle: 'short' }) }) : t('tables.paired'))
        : t('tables.playing');
      const list = h('ul', { class: 'tables' });
      for (const p of round.pairings || []) {
        if (mine && !mine.has(p.table)) continue;
        const state = p.result ? resultName(p.result) || p.result : unplayed;
        list.append(h('li', {},
          h('a', { href: `/g/${encodeURIComponent(p.gameId)}` }, t('tables.table', { n: p.table })),
          ` ${p.redName || p.red} – ${p.blackName || p.black} · ${state}`));
      }
      box.replaceChildren(heading, list);
    } catch (err) {
      box.replaceChildren(h('p', { class: 'game-error', role: 'alert' }, errorText(err)));
    }
  };
  load();
  return load;
}
