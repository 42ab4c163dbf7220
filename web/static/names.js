// names.js — the words for the API's values (systems, time controls,
// tie-breaks, statuses, results) in both languages, shared by the pages.

import { addStrings, t } from './i18n.js';

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

addStrings({
  zh: {
    'sys.swiss': '瑞士制', 'sys.roundRobin': '单循环', 'sys.doubleRoundRobin': '双循环', 'sys.knockout': '淘汰赛',
    'sys.doubleElimination': '双败淘汰', 'sys.swissKnockout': '瑞士制＋决赛', 'sys.swissElimination': '瑞士制逐轮淘汰',
    'sys.swissNPlusOne': '瑞士制（N+1）', 'sys.groups': '分组循环＋决赛',
    'tc.untimed': '不计时', 'tc.world': '世界赛制（60 分钟，之后每 10 回合 10 分钟）', 'tc.90/40+15/10': '90 分钟 40 回合，之后 15 分钟 10 回合',
    'tc.90/40+30/20+15/10': '90/40，30/20，之后 15/10', 'tc.60/30+10/10': '60 分钟 30 回合，之后 10 分钟 10 回合',
    'tc.rapid-10/40+5/30': '快棋 10 分钟 40 回合＋5 分钟 30 回合', 'tc.rapid-5/30': '快棋 5 分钟 30 回合', 'tc.custom': '自定义',
    'st.registration': '报名中', 'st.running': '进行中', 'st.finished': '已结束',
    'ps.active': '在赛', 'ps.withdrawn': '退赛', 'ps.paused': '暂停',
    'res.1-0': '红胜', 'res.0-1': '黑胜', 'res.1/2-1/2': '和', 'res.+-': '红胜（对方弃权）', 'res.-+': '黑胜（对方弃权）', 'res.0-0': '双方弃权',
    'tb.points': '积分', 'tb.smallPoints': '小分', 'tb.wins': '胜局', 'tb.directEncounter': '直胜', 'tb.fouls': '犯规',
    'tb.blackGames': '后走局数', 'tb.blackInMutualGame': '对局时后走', 'tb.blackWins': '后手胜局',
    'tb.firstCyclePoints': '第一循环积分', 'tb.firstCycleSmallPoints': '第一循环小分', 'tb.firstCycleWins': '第一循环胜局',
    'tb.firstCycleDirectEncounter': '第一循环直胜', 'tb.firstCycleFouls': '第一循环犯规', 'tb.firstCycleBlackGames': '第一循环后走局数',
    'tb.firstCycleBlackInMutualGame': '第一循环对局时后走', 'tb.firstCycleBlackWins': '第一循环后手胜局',
    'tb.matchPoints': '场分', 'tb.gamePoints': '局分', 'tb.opponentScore': '对手分', 'tb.cumulative': '累进分',
    'tb.cumulativeCuts': '累进分（去尾）', 'tb.previousRound': '前轮名次', 'tb.boardPoints': '局分', 'tb.matchWins': '胜场',
    'tb.boardWins': '胜局', 'tb.placeSum': '名次和', 'tb.bestPlace': '最好名次', 'tb.secondBestPlace': '次好名次',
    'tbh.points': '比赛积分（胜 2、和 1、负 0，或本赛事的计分法）。',
    'tbh.smallPoints': '所胜对手的积分之和，加所和对手积分的一半。',
    'tbh.wins': '胜局数（含对方弃权）。',
    'tbh.directEncounter': '同分者之间的对局积分；三人以上同分时另列小表。',
    'tbh.fouls': '犯规次数，少者列前。',
    'tbh.blackGames': '执黑（后走）的局数，多者列前。',
    'tbh.blackInMutualGame': '两人同分时，两人对局中执黑者列前。',
    'tbh.blackWins': '执黑取胜的局数。',
    'tbh.matchPoints': '每场比赛多得局分得 2、相同得 1、少得 0。',
    'tbh.gamePoints': '各局积分之和。',
    'tbh.opponentScore': '所遇对手的积分之和；轮空按最低非零积分（轮次或人数少时按其一半）计一个对手。',
    'tbh.cumulative': '每轮结束时累计积分之和；轮空计分。',
    'tbh.cumulativeCuts': '累进分，去掉最前几轮。',
    'tbh.previousRound': '上一轮的名次，靠前者列前。',
    'tbh.boardPoints': '队员各台积分之和。',
    'tbh.matchWins': '胜场数。',
    'tbh.boardWins': '队员胜局数。',
    'tbh.placeSum': '队员在个人榜上的名次之和，少者列前。',
    'tbh.bestPlace': '队员在个人榜上的最好名次。',
    'tbh.secondBestPlace': '队员在个人榜上的次好名次。',
    'tbh.firstCycle': '只计双循环的第一个循环。',
  },
  en: {
    'sys.swiss': 'Swiss', 'sys.roundRobin': 'Round robin', 'sys.doubleRoundRobin': 'Double round robin', 'sys.knockout': 'Knockout',
    'sys.doubleElimination': 'Double elimination', 'sys.swissKnockout': 'Swiss then final', 'sys.swissElimination': 'Swiss with elimination',
    'sys.swissNPlusOne': 'Swiss (N+1)', 'sys.groups': 'Groups then finals',
    'tc.untimed': 'Untimed', 'tc.world': 'World (60 min, then 10 moves in 10 min)', 'tc.90/40+15/10': '90 min for 40 moves, then 15 min for 10',
    'tc.90/40+30/20+15/10': '90/40, 30/20, then 15/10', 'tc.60/30+10/10': '60 min for 30 moves, then 10 min for 10',
    'tc.rapid-10/40+5/30': 'Rapid 10 min/40 + 5 min/30', 'tc.rapid-5/30': 'Rapid 5 min/30', 'tc.custom': 'Custom',
    'st.registration': 'Registration', 'st.running': 'Running', 'st.finished': 'Finished',
    'ps.active': 'Active', 'ps.withdrawn': 'Withdrawn', 'ps.paused': 'Paused',
    'res.1-0': 'Red wins', 'res.0-1': 'Black wins', 'res.1/2-1/2': 'Draw', 'res.+-': 'Red wins by forfeit', 'res.-+': 'Black wins by forfeit', 'res.0-0': 'Double forfeit',
    'tb.points': 'Points', 'tb.smallPoints': 'Small points', 'tb.wins': 'Wins', 'tb.directEncounter': 'Direct encounter', 'tb.fouls': 'Fouls',
    'tb.blackGames': 'Games as black', 'tb.blackInMutualGame': 'Black in mutual game', 'tb.blackWins': 'Wins as black',
    'tb.firstCyclePoints': '1st cycle points', 'tb.firstCycleSmallPoints': '1st cycle small points', 'tb.firstCycleWins': '1st cycle wins',
    'tb.firstCycleDirectEncounter': '1st cycle direct encounter', 'tb.firstCycleFouls': '1st cycle fouls', 'tb.firstCycleBlackGames': '1st cycle games as black',
    'tb.firstCycleBlackInMutualGame': '1st cycle black in mutual game', 'tb.firstCycleBlackWins': '1st cycle wins as black',
    'tb.matchPoints': 'Match points', 'tb.gamePoints': 'Game points', 'tb.opponentScore': 'Opponents’ score', 'tb.cumulative': 'Cumulative',
    'tb.cumulativeCuts': 'Cumulative (cut)', 'tb.previousRound': 'Previous round place', 'tb.boardPoints': 'Board points', 'tb.matchWins': 'Match wins',
    'tb.boardWins': 'Board wins', 'tb.placeSum': 'Sum of places', 'tb.bestPlace': 'Best place', 'tb.secondBestPlace': 'Second-best place',
    'tbh.points': 'Game points (2 for a win, 1 for a draw, 0 for a loss, or the event’s scoring).',
    'tbh.smallPoints': 'The scores of the opponents beaten plus half the scores of the opponents drawn.',
    'tbh.wins': 'Games won, forfeits won included.',
    'tbh.directEncounter': 'Points in the games among the players still tied (a mini-table when three or more are tied).',
    'tbh.fouls': 'Fouls recorded against the player; fewer ranks higher.',
    'tbh.blackGames': 'Games played as black (moving second); more ranks higher.',
    'tbh.blackInMutualGame': 'Of exactly two tied players, the one who had black in their own game ranks higher.',
    'tbh.blackWins': 'Games won as black.',
    'tbh.matchPoints': 'Per match: 2 for more game points, 1 for equal, 0 for fewer.',
    'tbh.gamePoints': 'The sum of the game points.',
    'tbh.opponentScore': 'The sum of the opponents’ scores; a bye counts as an opponent with the lowest non-zero score (half of it in short or small events).',
    'tbh.cumulative': 'The sum of the running score after each round; a bye scores.',
    'tbh.cumulativeCuts': 'Cumulative score with the first rounds cut.',
    'tbh.previousRound': 'The place after the previous round; higher ranks higher.',
    'tbh.boardPoints': 'The sum of the members’ game points.',
    'tbh.matchWins': 'Matches won.',
    'tbh.boardWins': 'Games won by the members.',
    'tbh.placeSum': 'The sum of the members’ places in the individual table; lower ranks higher.',
    'tbh.bestPlace': 'The best place of a member in the individual table.',
    'tbh.secondBestPlace': 'The second-best place of a member in the individual table.',
    'tbh.firstCycle': 'Counted over the first cycle of the double round robin only.',
  },
});

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
