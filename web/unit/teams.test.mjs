// teams.test.mjs — the pure functions of the team, knockout and arbiter
// pages in node: knockout tie labels and why a tie went as it did, the match
// line, board numbers inside a match, the team crosstable, per-board
// rankings and the bracket's order (pages/event/teams.js); the captain's
// roster order, the T-2 check and the deadline (pages/captain/captain.js);
// the repetition pad's cycle and G-6 facts (pages/game/ruling.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLanguage } from '../static/core/i18n.js';
import { boardLabel, boardRankings, bracketOf, decidedText, matchLine, matchTitle, rapidIndexes, teamCrosstable, tieLabel } from '../static/pages/event/teams.js';
import { boardsOf, countdown, lineupProblem, myMatch, roster } from '../static/pages/captain/captain.js';
import { cycleMoves, shows, sideFacts } from '../static/pages/game/ruling.js';

const match = (over) => ({ match: 'M1', number: 1, home: 'gz', away: 'fs', homeName: '广州队', awayName: '佛山队', set: true, ...over });

test('the match line: board points in the event\'s scoring, then match points; names alone before a score', () => {
  useLanguage('zh');
  assert.equal(matchLine(match({ homeBoardPoints: 3.5, awayBoardPoints: 0.5, homeMatchPoints: 2, awayMatchPoints: 0 })), '广州队 3.5 : 0.5 佛山队 (场分 2 : 0)');
  assert.equal(matchLine(match({ homeBoardPoints: null })), '广州队 对 佛山队');
  assert.equal(matchTitle(match({})), '第 1 场：广州队 对 佛山队');
  useLanguage('en');
  assert.equal(matchTitle(match({ tie: 'F', rapid: true, homeBoardPoints: 2, awayBoardPoints: 2, homeMatchPoints: 1, awayMatchPoints: 1 }), 2),
    'Match 1 · Final · Additional rapid match 2: 广州队 2 : 2 佛山队 (Match points 1 : 1)');
});

test('knockout ties: labels, why each was decided, rapid matches numbered per tie', () => {
  useLanguage('zh');
  assert.equal(tieLabel('F'), '决赛');
  assert.equal(tieLabel('3P'), '三四名决赛');
  assert.equal(tieLabel('R1-2'), '第 1 轮第 2 组');
  assert.equal(tieLabel('P5-6'), '第 5–6 名排位赛');
  assert.equal(tieLabel('W2-1'), 'W2-1');
  assert.match(decidedText(match({ tie: 'R1-1', winnerName: '甲队', decidedBy: 'boardCount' })), /^甲队 胜出 · 按台次/);
  assert.equal(decidedText(match({ tie: 'F', winnerName: '甲队', decidedBy: 'matchPoints' })), '甲队 夺冠 · 按场分');
  assert.equal(decidedText(match({ tie: '3P', winnerName: '丙队', decidedBy: 'matchPoints' })), '丙队 获第三名 · 按场分');
  assert.equal(decidedText(match({})), '');
  const ms = [match({ match: 'M1', tie: 'F' }), match({ match: 'M1-R1', tie: 'F', rapid: true }), match({ match: 'M2-R1', tie: '3P', rapid: true }), match({ match: 'M1-R2', tie: 'F', rapid: true })];
  assert.deepEqual([...rapidIndexes(ms)], [['M1-R1', 1], ['M2-R1', 1], ['M1-R2', 2]]);
});

test('board numbers inside a match (1.3), venue tables otherwise', () => {
  const matches = [match({ match: 'M2', number: 2 })];
  assert.equal(boardLabel({ table: 7, board: 3, match: 'M2' }, matches), '2.3');
  assert.equal(boardLabel({ table: 7 }, matches), '7');
  assert.equal(boardLabel({ table: 7, board: 1, match: 'R1-1' }, null), '7');
});

test('the team crosstable folds matches team against team, from each row\'s side, with totals', () => {
  const teams = [{ id: 'gz', number: 1, name: '广州队' }, { id: 'fs', number: 2, name: '佛山队' }, { id: 'sz', number: 3, name: '深圳队' }];
  const rounds = [
    { round: 1, matches: [match({ homeBoardPoints: 3, awayBoardPoints: 1, homeMatchPoints: 2, awayMatchPoints: 0 })] },
    { round: 2, matches: [match({ home: 'sz', homeName: '深圳队', away: 'gz', awayName: '广州队', homeBoardPoints: 2, awayBoardPoints: 2, homeMatchPoints: 1, awayMatchPoints: 1 }),
      match({ match: 'M2', home: 'fs', away: 'sz', homeBoardPoints: null, awayBoardPoints: null })] },
  ];
  const rows = teamCrosstable(rounds, teams);
  const gz = rows[0];
  assert.deepEqual(gz.cells.get('fs'), [{ round: 1, mp: 2, bp: 3, omp: 0, obp: 1 }]);
  assert.deepEqual(gz.cells.get('sz'), [{ round: 2, mp: 1, bp: 2, omp: 1, obp: 2 }]);
  assert.equal(gz.matchPoints, 3);
  assert.equal(gz.boardPoints, 5);
  assert.deepEqual(rows[1].cells.get('gz'), [{ round: 1, mp: 0, bp: 1, omp: 2, obp: 3 }]);
  assert.equal(rows[1].cells.has('sz'), false, 'an unscored match has no cell');
});

test('per-board rankings: each player on the board played most, keeping the server\'s order', () => {
  const teams = [{ name: 'A', members: [{ id: 'a1', board: 1 }, { id: 'a2', board: 2 }], substitutes: [{ id: 'a3', board: 3 }] },
    { name: 'B', members: [{ id: 'b1', board: 1 }, { id: 'b2', board: 2 }] }];
  // a3 (a substitute) played board 2 twice; a2 played board 1 once and sat out once.
  const rounds = [{ pairings: [{ board: 1, red: 'a2', black: 'b1' }, { board: 2, red: 'b2', black: 'a3' }] }, { pairings: [{ board: 2, red: 'a3', black: 'b2' }] }];
  const rows = [{ playerId: 'a3', points: 2 }, { playerId: 'b1', points: 1 }, { playerId: 'a2', points: 1 }, { playerId: 'b2', points: 0 }, { playerId: 'a1', points: 0 }];
  const boards = boardRankings(rows, rounds, teams);
  assert.deepEqual(boards.map((b) => [b.board, b.players.map((p) => p.playerId)]), [[1, ['b1', 'a2', 'a1']], [2, ['a3', 'b2']]]);
  assert.equal(boards[1].players[0].team, 'A');
});

test('the bracket: ties by round, the third-place match before the final; individual games by their tie', () => {
  const ties = bracketOf([
    { round: 1, matches: [match({ match: 'M2', tie: 'R1-2' }), match({ match: 'M1', tie: 'R1-1' })] },
    { round: 2, matches: [match({ match: 'M1', tie: 'F' }), match({ match: 'M2', tie: '3P' }), match({ match: 'M1-R1', tie: 'F', rapid: true })] },
  ]);
  assert.deepEqual(ties.map((x) => [x.tie, x.items.length]), [['R1-1', 1], ['R1-2', 1], ['3P', 1], ['F', 2]]);
  const games = bracketOf([{ round: 1, pairings: [{ table: 1, match: 'R1-1', board: 1 }, { table: 2, match: 'R1-2', board: 1 }, { table: 3, match: 'R1-1', board: 2 }] }]);
  assert.deepEqual(games.map((x) => [x.tie, x.items.map((i) => i.p.table)]), [['R1-1', [1, 3]], ['R1-2', [2]]]);
});

test('captain: roster order, the T-2 check in the page\'s words, the countdown, the match and both lineups', () => {
  useLanguage('zh');
  const team = { members: [{ id: 'm2', name: '吕钦', board: 2 }, { id: 'm1', name: '许银川', board: 1 }], substitutes: [{ id: 's1', name: '黄海林', board: 3 }] };
  const players = roster(team);
  assert.deepEqual(players.map((p) => p.id), ['m1', 'm2', 's1']);
  assert.equal(lineupProblem(['m1', 's1'], players, 'boardsWithSubstitutes'), null);
  const bad = lineupProblem(['s1', 'm1'], players, 'boardsWithSubstitutes');
  assert.deepEqual(bad, { key: 'cap.order', vars: { board: 2, name: '许银川', prevBoard: 1, prev: '黄海林' } });
  assert.equal(lineupProblem(['s1', 'm1'], players, 'lineupPerMatch'), null, 'T-3 lineups take any order');
  assert.deepEqual(lineupProblem(['m1', ''], players, 'boardsWithSubstitutes'), { key: 'cap.missing', vars: { board: 2 } });
  assert.deepEqual(lineupProblem(['m1', 'm1'], players, 'lineupPerMatch'), { key: 'cap.twice', vars: { name: '许银川' } });
  const now = Date.parse('2026-12-02T10:00:00Z');
  assert.equal(countdown('2026-12-02T10:12:05Z', now), '12:05');
  assert.equal(countdown('2026-12-02T11:02:03Z', now), '1:02:03');
  assert.equal(countdown('2026-12-02T09:59:59Z', now), null);
  const round = { matches: [match({ match: 'M1' }), match({ match: 'M2', home: 'x', away: 'y' })],
    pairings: [{ match: 'M1', board: 2, redName: 'F2', blackName: 'G2', gameId: 'g2' }, { match: 'M1', board: 1, redName: 'G1', blackName: 'F1', gameId: 'g1' }, { match: 'M2', board: 1 }] };
  assert.equal(myMatch(round, 'fs').match, 'M1');
  assert.equal(myMatch(round, 'zz'), null);
  // T-6: the first-listed team (home, 广州) has red on odd boards; from 佛山's side black on board 1, red on board 2.
  assert.deepEqual(boardsOf(round, round.matches[0], 'fs').map((b) => [b.board, b.ours, b.theirs, b.colour]), [[1, 'F1', 'G1', 'black'], [2, 'F2', 'G2', 'red']]);
});

test('repetition pad: the cycle\'s moves and each side\'s G-6 facts', () => {
  useLanguage('en');
  const game = { status: 'pendingRuling', moves: ['a', 'h0g2', 'h9g7', 'g2h0', 'g7h9'], repetition: { cycles: 6, cycleLength: 4,
    couldBreak: { red: true, black: false }, breakingMove: { red: 'e0e1', black: null }, perpetualCheck: { red: false, black: true }, perpetualChase: { red: false, black: false } } };
  assert.deepEqual(cycleMoves(game), ['h0g2', 'h9g7', 'g2h0', 'g7h9']);
  assert.deepEqual(cycleMoves({ ...game, moves: ['x'] }), []);
  assert.deepEqual(sideFacts(game.repetition, 'red'), ['could have broken the cycle, e.g. with e0e1']);
  assert.deepEqual(sideFacts(game.repetition, 'black'), ['could not have broken the cycle without losing', 'perpetual check']);
  assert.equal(shows(game), true);
  assert.equal(shows({ status: 'playing', repetition: { warning: false } }), false);
  assert.equal(shows({ status: 'over', repetition: { ruling: { loser: 'red' } } }), true);
});
