// pages.test.mjs — the pages' pure functions in node: the CSV reader (quoted
// separators, doubled quotes, line breaks inside quotes), the event page's
// derivations (state.js: crosstable cells, statistics, byes, match groups,
// the reader from a token and a round), the game page's derivations
// (pages/game/state.js: the reader's role, the status line, the player's
// bar, a waiting move after a new view, sounds, the move list), the
// official's clock field, the home page's request bodies and event reference.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLanguage } from '../static/core/i18n.js';
import { parseCSV } from '../static/ui.js';
import { byeIds, cellShort, cellText, gamesByRound, isWin, meFromRound, pairingGroups, playingCount, stats, tabsOf, whyText } from '../static/pages/event/state.js';
import { headerItems, startsIn } from '../static/pages/event/view.js';
import { barModel, canMove, checkSide, factsText, movesShown, parseRecord, pendingAfter, roleOf, simplify, soundOf, statusKey } from '../static/pages/game/state.js';
import { parseClock } from '../static/pages/game/official.js';
import { eventBody, eventIdFrom, tcBody } from '../static/pages/home/state.js';
import { csvPlayers, parseMembers, tableList } from '../static/pages/event/admin.js';

test('parseCSV: separators, quotes, doubled quotes, line breaks inside quotes, blank lines, BOM', () => {
  assert.deepEqual(parseCSV('\uFEFFname,rating\n"Zheng, Weitong",2600\r\n\n Hong Zhi , 2500 \n'),
    [['name', 'rating'], ['Zheng, Weitong', '2600'], ['Hong Zhi', '2500']]);
  assert.deepEqual(parseCSV('"He said ""hi""",1'), [['He said "hi"', '1']]);
  assert.deepEqual(parseCSV('"Line one\nline two",Club\nNext,2'), [['Line one\nline two', 'Club'], ['Next', '2']],
    'a quoted line break stays in its cell (the old parser split lines first)');
  assert.deepEqual(parseCSV('a\tb\tc\n1\t2\t3'), [['a', 'b', 'c'], ['1', '2', '3']]);
  assert.deepEqual(parseCSV('王天一;2650;杭州'), [['王天一', '2650', '杭州']]);
  assert.deepEqual(parseCSV('王天一，2650，杭州'), [['王天一', '2650', '杭州']]);
  assert.deepEqual(parseCSV('a,,c\n'), [['a', '', 'c']]);
  assert.deepEqual(parseCSV('"unterminated,1'), [['unterminated,1']]);
  assert.deepEqual(parseCSV(''), []);
});

test('crosstable cells: short and long forms, wins by colour', () => {
  useLanguage('en');
  const win = { round: 1, opponent: 'p2', opponentNumber: 2, colour: 'red', result: '1-0', points: 2 };
  assert.equal(isWin(win), true);
  assert.equal(isWin({ ...win, colour: 'black' }), false);
  assert.equal(isWin({ ...win, colour: 'black', result: '-+' }), true);
  assert.equal(cellShort(win), '2r 1');
  assert.equal(cellShort({ ...win, colour: 'black', result: '1/2-1/2', points: 1 }), '2b ½');
  assert.equal(cellShort({ ...win, mark: 'forfeit', result: '+-' }), '2r +');
  assert.equal(cellShort({ ...win, mark: 'playing', result: '' }), '2r *');
  assert.equal(cellShort({ round: 2, mark: 'bye' }), 'bye');
  const ct = { rows: [{ playerId: 'p2', name: 'Bo' }] };
  assert.equal(cellText(win, ct), 'v Bo (2, red) 2');
  assert.equal(cellText({ round: 2, mark: 'bye', points: 2 }, ct), 'bye (2)');
  useLanguage('zh');
  assert.equal(cellShort(win), '2红 1');
  useLanguage('en');
});

test('a round: statistics, byes once, playing games, match groups, games by round', () => {
  const r1 = { round: 1, bye: 'p5', byes: ['p5'], pairings: [
    { table: 1, red: 'p1', black: 'p2', result: '1-0', gameId: 'g1' },
    { table: 2, red: 'p3', black: 'p4', result: '1/2-1/2', gameId: 'g2' }] };
  const r2 = { round: 2, pairings: [{ table: 1, red: 'p2', black: 'p3', result: '-+', gameId: 'g3' }, { table: 2, red: 'p4', black: 'p5', result: '', gameId: 'g4' }] };
  assert.deepEqual(stats([r1, r2]), { red: 1, black: 0, draw: 1, bye: 1, forfeit: 1 });
  assert.deepEqual(byeIds(r1), ['p5']);
  assert.equal(playingCount(r2), 1);
  assert.equal(playingCount(null), 0);
  const games = gamesByRound(new Map([[1, r1], [2, r2]]), 2);
  assert.equal(games.get('1:p2'), 'g1');
  assert.equal(games.get('2:p5'), 'g4');
  const team = { matches: [{ match: 'm1', number: 1 }], pairings: [{ match: 'm1', table: 1 }, { match: 'm1', table: 1, board: 2 }, { table: 9 }] };
  const groups = pairingGroups(team);
  assert.equal(groups.length, 2);
  assert.equal(groups[0].match.match, 'm1');
  assert.equal(groups[0].pairings.length, 2);
  assert.deepEqual(groups[1], { match: null, pairings: [{ table: 9 }] });
  assert.deepEqual(pairingGroups(r1), [{ match: null, pairings: r1.pairings }]);
});

test('the reader from a player token and the round; the tabs each reader gets', () => {
  const players = [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Bo' }];
  const r = { round: 3, pairings: [{ table: 4, red: 'p2', black: 'p1', redName: 'Bo', blackName: 'Ann', gameId: 'g9' }] };
  const me = meFromRound({ kind: 'player', id: 'p1' }, players, r);
  assert.deepEqual(me.currentGame, { round: 3, table: 4, gameId: 'g9', colour: 'black', opponent: 'p2', opponentName: 'Bo', result: null });
  assert.equal(meFromRound({ kind: 'player', id: 'p1' }, players, { round: 3, pairings: [{ ...r.pairings[0], result: '1-0' }] }).currentGame, null);
  assert.deepEqual(meFromRound({ kind: 'official', id: 'o1' }, players, r), { role: 'official', id: 'o1' });
  assert.equal(meFromRound({ kind: 'player', id: 'p7' }, players, r), null);
  assert.deepEqual(tabsOf({ teams: false }, '', null), ['pairings', 'standings', 'crosstable', 'players', 'downloads']);
  assert.deepEqual(tabsOf({ teams: true }, 'official', null), ['pairings', 'standings', 'crosstable', 'teams', 'downloads', 'tables']);
  assert.deepEqual(tabsOf({ teams: false }, 'organiser', {}).at(-1), 'console');
});

test('the header: round of rounds, plural counts, a start time to come', () => {
  useLanguage('en');
  const now = Date.parse('2026-05-01T10:00:00Z');
  const ev = { round: 2, rounds: 7, system: 'swiss', status: 'running', players: 1, timeControl: { name: 'rapid-5/30' } };
  const items = headerItems(ev, { startsAt: '2026-05-01T10:12:00Z', pairings: [] }, now).map(([text]) => text);
  assert.deepEqual(items, ['Swiss', 'Round 2 of 7', 'Rapid 5 min/30', 'Running', '1 player', 'Round starts in 12 minutes']);
  const playing = headerItems({ ...ev, players: 8 }, { pairings: [{}, { result: '1-0' }, {}] }, now).map(([text]) => text);
  assert.deepEqual(playing.slice(-2), ['8 players', '2 games in play']);
  assert.equal(startsIn('2026-05-01T13:00:00Z', now), 'in 3 hours');
  assert.equal(whyText('floatDown'), 'floated down');
  assert.equal(whyText('somethingNew'), 'somethingNew');
});

test('parseRecord reads a record\'s moves; parseClock reads m:ss; eventIdFrom reads an id or link', () => {
  assert.deepEqual(parseRecord('1. 炮二平五 马8进7\n2. 马二进三 …\n1-0 (checkmate)'), ['炮二平五', '马8进7', '马二进三']);
  assert.deepEqual(parseRecord(''), []);
  assert.equal(parseClock('5:00'), 300000);
  assert.equal(parseClock('1:02:03'), 3723000);
  assert.equal(parseClock('90'), 90000);
  assert.ok(Number.isNaN(parseClock('5:xx')));
  assert.deepEqual(eventIdFrom('https://x.example/t/tabc123#token=tabc123.tabc123.s'), { id: 'tabc123', token: 'tabc123.tabc123.s' });
  assert.deepEqual(eventIdFrom('tabc1234'), { id: 'tabc1234', token: '' });
  assert.equal(eventIdFrom('hello'), null);
});

const START = 'rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w';
const game = (over = {}) => ({ id: 'g1', ply: 0, status: 'playing', fen: START, startFen: START, sideToMove: 'red', moves: [],
  clocks: { awaitingPress: false }, ...over });

test('roleOf: seats of a standalone game, an event\'s players, officials and organiser', () => {
  const ev = game({ tournament: { id: 't1', red: 'p1', black: 'p2' } });
  assert.deepEqual(roleOf({ kind: 'seat', scope: 'g1', id: 'black' }, game(), 'g1'), { role: 'player', side: 'black' });
  assert.deepEqual(roleOf({ kind: 'seat', scope: 'g9', id: 'black' }, game(), 'g1'), { role: 'viewer', side: '' }, 'another game\'s seat');
  assert.deepEqual(roleOf({ kind: 'player', scope: 't1', id: 'p2' }, ev, 'g1'), { role: 'player', side: 'black' });
  assert.deepEqual(roleOf({ kind: 'player', scope: 't1', id: 'p3' }, ev, 'g1'), { role: 'viewer', side: '' }, 'a player of another table');
  assert.deepEqual(roleOf({ kind: 'official', scope: 't1', id: 'o1' }, ev, 'g1').role, 'official');
  assert.deepEqual(roleOf({ kind: 'organiser', scope: 't1', id: 't1' }, ev, 'g1').role, 'organiser');
  assert.deepEqual(roleOf({ kind: 'organiser', scope: 't2', id: 't2' }, ev, 'g1').role, 'viewer');
  assert.deepEqual(roleOf(null, ev, 'g1').role, 'viewer');
});

test('the status line, check, who may move, the facts', () => {
  useLanguage('en');
  assert.deepEqual(statusKey(game(), 'player', 'red'), ['game.yourMove', null]);
  assert.deepEqual(statusKey(game(), 'player', 'black'), ['game.theirMove', null]);
  assert.deepEqual(statusKey(game(), 'viewer', ''), ['game.toMove', { side: 'Red' }]);
  assert.deepEqual(statusKey(game({ started: false }), 'viewer', ''), ['game.notStarted', null]);
  assert.deepEqual(statusKey(game({ status: 'pendingRuling' }), 'viewer', '')[0], 'game.pendingRuling');
  assert.deepEqual(statusKey(game({ status: 'over' }), 'viewer', '')[0], '');
  assert.equal(checkSide(game({ inCheck: true })), 'red');
  assert.equal(checkSide(game({ status: 'over', reason: 'checkmate', sideToMove: 'black' })), 'black');
  assert.equal(checkSide(game()), '');
  assert.equal(canMove(game(), 'player', 'red'), true);
  assert.equal(canMove(game(), 'player', 'black'), false);
  assert.equal(canMove(game(), 'player', 'red', { pending: {} }), false, 'not while a move waits');
  assert.equal(canMove(game(), 'official', '', { officialKind: 'scribe' }), true);
  assert.equal(canMove(game(), 'official', '', { officialKind: 'arbiter' }), false);
  assert.equal(canMove(game({ started: false }), 'player', 'red'), false);
  assert.equal(factsText(game({ noCapture: { moves: 12, limit: 60 }, fouls: { red: 1, black: 0 } })), 'No capture: 12/60 · Fouls: Red 1 · Black 0');
});

test('a waiting move after a new view; the sounds of a change', () => {
  const waiting = { move: 'h2e2', ply: 0, state: 'retry' };
  assert.equal(pendingAfter(waiting, game()), waiting, 'the game still stands at its ply');
  assert.equal(pendingAfter(waiting, game({ ply: 1 })), null, 'it landed (or the game went on)');
  assert.equal(pendingAfter({ ...waiting, state: 'confirm' }, game({ status: 'over' })), null);
  const sending = { ...waiting, state: 'sending' };
  assert.equal(pendingAfter(sending, game()), sending, 'a move being sent waits for its answer');
  assert.equal(pendingAfter(sending, game({ ply: 1 })), null, 'a view showing it played (pushed before the answer) frees the board');
  assert.equal(soundOf(-1, '', null, game()), '', 'the first view is silent');
  assert.equal(soundOf(0, 'playing', 32, game({ ply: 1 })), 'move');
  assert.equal(soundOf(0, 'playing', 32, game({ ply: 1, fen: START.replace('RHEAKAEHR', 'RHEAKAEH1') })), 'capture');
  assert.equal(soundOf(0, 'playing', 32, game({ ply: 1, inCheck: true })), 'check');
  assert.equal(soundOf(4, 'playing', 30, game({ ply: 5, status: 'over' })), 'end');
});

test('the player\'s bar: arrival, press, draw (offer, ask, armed), resignation', () => {
  const ev = game({ tournament: { id: 't1' } });
  const ui = { pending: null, ask: '', drawArmed: false, arrived: false };
  const m = barModel(ev, 'player', 'red', ui);
  assert.deepEqual([m.bar, m.arrive, m.press, m.draw, m.resign, m.claims, m.confirm, m.offer], [true, true, false, 'offer', 'resign', true, '', '']);
  const pressed = barModel(game({ ply: 1, sideToMove: 'black', clocks: { awaitingPress: true } }), 'player', 'red', ui);
  assert.equal(pressed.press, true);
  assert.equal(barModel(game(), 'player', 'red', { ...ui, ask: 'draw' }).draw, 'ask');
  assert.equal(barModel(game(), 'player', 'red', { ...ui, drawArmed: true }).draw, 'armed');
  assert.equal(barModel(game(), 'player', 'red', { ...ui, ask: 'resign' }).resign, 'ask');
  const offered = game({ drawOffer: { pending: true, by: 'black' } });
  assert.equal(barModel(offered, 'player', 'red', ui).offer, 'incoming');
  assert.equal(barModel(offered, 'player', 'red', ui).draw, '', 'no second offer while one is pending');
  assert.deepEqual([barModel(offered, 'official', '', ui).offer, barModel(offered, 'official', '', ui).offerBy], ['other', 'black']);
  assert.equal(barModel(offered, 'viewer', '', ui).offer, '');
  assert.equal(barModel(game(), 'viewer', '', ui).bar, false);
  assert.equal(barModel(game({ status: 'over' }), 'player', 'red', { ...ui, pending: { state: 'confirm' } }).confirm, 'ask');
});

test('the move list: the record in the reader\'s notation when it fits, simplified', () => {
  const g = game({ ply: 2, moves: ['h2e2', 'h9g7'] });
  assert.deepEqual(movesShown(g, { notation: 'chinese', ply: 2, moves: ['炮二平五', '馬8進7'] }, 'chinese'), { moves: ['炮二平五', '马8进7'], chinese: true, named: true });
  assert.deepEqual(movesShown(g, { notation: 'chinese', ply: 1, moves: ['炮二平五'] }, 'chinese'), { moves: ['h2e2', 'h9g7'], chinese: false, named: false }, 'a record of another ply is not shown');
  assert.deepEqual(movesShown(g, { notation: '', ply: -1, moves: [] }, 'iccs').named, true);
  assert.equal(simplify('俥一進１'), '车一进1');
});

// The create form's values as formValues reads them, with nothing changed.
const DEFAULTS = { name: ' Club Open ', system: 'swiss', rounds: '5', tc: 'rapid-10/40+5/30', tcMinutes: '15', tcMoves: '0', tcIncrement: '10',
  teams: false, boards: '4', substitutes: '0', teamFormat: '', keepEntryOrder: false, scoring: '2-1-0', tiebreaks: '', firstRound: 'positional',
  avoidSameClub: false, gamesPerMatch: '', playoff: false, startsAt: '', numbering: '', elFromRound: '', elPerRound: '', elKeep: '',
  grCount: '2', grFinals: 'samePlace', koThirdPlace: false, koReset: true, koFinalists: '', koTieBreak: '', lateUntil: '', lateMissed: 'zero',
  rRepetition: '', rIllegal: '', rNoCapture: '', rDrawLimit: '', rLateMin: '', rDead: false, rArrivals: false };

test('eventBody: the defaults are left out, each system\'s options only for that system', () => {
  assert.deepEqual(eventBody(DEFAULTS), { name: 'Club Open', system: 'swiss', timeControl: 'rapid-10/40+5/30', rounds: 5 });
  assert.deepEqual(eventBody({ ...DEFAULTS, system: 'roundRobin', rounds: '', numbering: 'rating', tiebreaks: 'wins，smallPoints directEncounter' }),
    { name: 'Club Open', system: 'roundRobin', timeControl: 'rapid-10/40+5/30', numbering: 'rating', tiebreaks: ['wins', 'smallPoints', 'directEncounter'] });
  const teams = eventBody({ ...DEFAULTS, teams: true, substitutes: '2', keepEntryOrder: true, lateUntil: '3' });
  assert.deepEqual([teams.teams, teams.boards, teams.substitutes, teams.keepEntryOrder, teams.lateEntries], [true, 4, 2, true, undefined], 'no late entries in a team event');
  assert.deepEqual(eventBody({ ...DEFAULTS, lateUntil: '3', lateMissed: 'draw' }).lateEntries, { untilRound: 3, missedRounds: 'draw' });
  assert.deepEqual(eventBody({ ...DEFAULTS, system: 'doubleElimination', koReset: false }).knockout, { reset: false });
  assert.deepEqual(eventBody({ ...DEFAULTS, system: 'groups', grCount: '4', grFinals: 'cross', koTieBreak: 'rapid-5/30' }).groups, { count: 4, finals: 'cross' });
  assert.deepEqual(eventBody({ ...DEFAULTS, rNoCapture: '50', rLateMin: '1.5', rDead: true }).rules, { noCaptureMoves: 50, lateForfeitMs: 90000, deadPositionDraw: true });
  assert.equal(eventBody({ ...DEFAULTS, system: 'knockout', koThirdPlace: true }).knockout.thirdPlace, true);
  assert.equal(eventBody({ ...DEFAULTS, system: 'swiss', koThirdPlace: true }).knockout, undefined);
});

test('tcBody: a preset by name, a custom control as one period and an increment', () => {
  assert.equal(tcBody(DEFAULTS), 'rapid-10/40+5/30');
  assert.deepEqual(tcBody({ ...DEFAULTS, tc: 'custom', tcMinutes: '25', tcMoves: '40', tcIncrement: '5' }), { periods: [{ moves: 40, ms: 1500000 }], incrementMs: 5000 });
  assert.deepEqual(tcBody({ ...DEFAULTS, tc: 'custom', tcMinutes: '', tcMoves: '', tcIncrement: '' }), { periods: [{ moves: 0, ms: 60000 }], incrementMs: 0 });
});

test('the console reads pasted players, team members and an official\'s tables', () => {
  assert.deepEqual(csvPlayers('姓名,等级分,单位\n王天一,2650,杭州\n,2600,\n"Zheng, Weitong",n/a,Beijing'),
    [{ line: 1, name: '王天一', rating: 2650, club: '杭州' }, { line: 3, name: 'Zheng, Weitong', rating: undefined, club: 'Beijing' }]);
  assert.deepEqual(csvPlayers('Wang Tianyi\nHong Zhi, 2500'), [{ line: 1, name: 'Wang Tianyi', rating: undefined, club: undefined }, { line: 2, name: 'Hong Zhi', rating: 2500, club: undefined }]);
  assert.deepEqual(parseMembers('A, 2400, Club\nB\n\n'), [{ name: 'A', rating: 2400, club: 'Club' }, { name: 'B' }]);
  assert.deepEqual(tableList('1, 2 3，4'), [1, 2, 3, 4]);
  assert.deepEqual(tableList(''), []);
});
