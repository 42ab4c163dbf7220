// names.js — the words for the API's values (systems, time controls,
// tie-breaks, statuses, results, reasons), shared by the pages: one
// vocabulary, so a result reads the same on every page.

import { has, t } from './core/i18n.js';

/** SYSTEMS are the pairing systems the API offers (API.md), in menu order. */
export const SYSTEMS = ['swiss', 'roundRobin', 'doubleRoundRobin', 'knockout', 'doubleElimination',
  'swissKnockout', 'swissElimination', 'swissNPlusOne', 'groups'];

/** PRESETS are the time-control presets (C-2). */
export const PRESETS = ['untimed', 'world', '90/40+15/10', '90/40+30/20+15/10', '60/30+10/10', 'rapid-10/40+5/30', 'rapid-5/30'];

/** TIEBREAKS are the ranking criteria the standings may name. */
export const TIEBREAKS = ['points', 'smallPoints', 'wins', 'directEncounter', 'fouls', 'blackGames', 'blackInMutualGame',
  'blackWins', 'firstCyclePoints', 'firstCycleSmallPoints', 'firstCycleWins', 'firstCycleDirectEncounter', 'firstCycleFouls',
  'firstCycleBlackGames', 'firstCycleBlackInMutualGame', 'firstCycleBlackWins', 'matchPoints', 'gamePoints', 'opponentScore',
  'cumulative', 'cumulativeCuts', 'previousRound', 'boardPoints', 'matchWins', 'boardWins', 'placeSum', 'bestPlace', 'secondBestPlace'];

/** systemName names a pairing system in the reader's language. */
export const systemName = (s) => t(`sys.${s}`);

/** tcName names a time control (a preset's words, else its periods). */
export function tcName(tc) {
  if (!tc) return '';
  if (tc.name && t(`tc.${tc.name}`) !== `tc.${tc.name}`) return t(`tc.${tc.name}`);
  if (!tc.periods || tc.periods.length === 0) return t('tc.untimed');
  const parts = tc.periods.map((p) => `${Math.round(p.ms / 60000)}′${p.moves ? `/${p.moves}` : ''}`);
  return parts.join(' + ') + (tc.incrementMs ? ` +${tc.incrementMs / 1000}″` : '');
}

/** tiebreakName names a criterion; tiebreakHelp explains it (for the tooltip). */
export const tiebreakName = (c) => (t(`tb.${c}`) === `tb.${c}` ? c : t(`tb.${c}`));
export function tiebreakHelp(c) {
  if (t(`tbh.${c}`) !== `tbh.${c}`) return t(`tbh.${c}`);
  const base = c.replace(/^firstCycle(.)/, (m, x) => x.toLowerCase());
  if (base !== c && t(`tbh.${base}`) !== `tbh.${base}`) return `${t(`tbh.${base}`)} ${t('tbh.firstCycle')}`;
  return '';
}

/** RESULTS and REASONS are the API's names, in the order forms offer them. */
export const RESULTS = ['1-0', '1/2-1/2', '0-1', '+-', '-+', '0-0'];
export const REASONS = ['checkmate', 'stalemate', 'resignation', 'time', 'agreement', 'noCapture', 'deadPosition',
  'repetitionRuling', 'fouls', 'forfeit', 'arbiter', 'threefold', 'perpetualCheck', 'illegalMove', 'penalty'];

/** reasonText is how a game ended ("checkmate") in words; an unknown reason is shown as sent. */
export const reasonText = (r) => (has(`reason.${r}`) ? t(`reason.${r}`) : r);

/** statusName names an event status; playerStatus a player's; resultName a result. */
export const statusName = (s) => t(`st.${s}`);
export const playerStatus = (s) => t(`ps.${s}`);
export const resultName = (r) => (r ? t(`res.${r}`) : '');

/** points shows a score kept in K-1 units as the event's scoring counts it (2/1/0 as is). */
export function points(v) {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}

/** resultShort writes a result compactly (½-½, + : − for forfeits) for tables. */
export function resultShort(r) {
  if (!r) return '';
  return { '1/2-1/2': '½-½', '+-': '+ : −', '-+': '− : +', '0-0': '− : −' }[r] || r;
}
