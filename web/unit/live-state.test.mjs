// live-state.test.mjs — the broadcast page's pure state (pages/live/state.js):
// boards made from a round and its games in table order, the round
// channel's move/result/clock messages applied to the one board they name
// (older plies ignored, a clock message repeating a ply updating the
// clocks), the running clock counted down, the venue screen's pages, and
// the page's query.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMessage, boardFromGame, boardsOf, clockMs, cycleSlice, optionsOf, sideToMove } from '../static/pages/live/state.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const AFTER = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 1 1';
const clocks = (red, black, running) => ({ red: { remainingMs: red }, black: { remainingMs: black }, running });

const round = {
  round: 2,
  pairings: [
    { table: 2, gameId: 'g2', redName: 'Hong Zhi', blackName: 'Xu Yinchuan' },
    { table: 1, gameId: 'g1', redName: '王天一', blackName: '郑惟桐' },
    { table: 3, gameId: '', redName: 'Bye', blackName: '' },
  ],
};
const games = [
  { id: 'g2', fen: START, moves: [], ply: 0, clocks: clocks(300000, 300000, 'red'), status: 'playing' },
  { id: 'g1', fen: AFTER, moves: ['h2e2'], ply: 1, clocks: clocks(298000, 300000, 'black'), status: 'playing' },
  null,
];

test('boardsOf: one board per game of the round, in table order, with names, position, last move and clocks', () => {
  const b = boardsOf(round, games, 1000);
  assert.deepEqual(b.map((x) => [x.table, x.gid, x.red, x.black, x.ply, x.move]),
    [[1, 'g1', '王天一', '郑惟桐', 1, 'h2e2'], [2, 'g2', 'Hong Zhi', 'Xu Yinchuan', 0, '']]);
  assert.equal(b[0].fen, AFTER);
  assert.equal(b[0].at, 1000);
  assert.equal(sideToMove(b[0]), 'black');
  assert.equal(sideToMove(b[1]), 'red');
  // A game that could not be read still has its board, empty until a message comes.
  const partial = boardsOf(round, [null, games[1], null], 0);
  assert.deepEqual(partial.map((x) => [x.gid, x.fen, x.status]), [['g1', AFTER, 'playing'], ['g2', '', 'playing']]);
  assert.deepEqual(boardsOf(null, [], 0), []);
});

test('applyMessage: a move changes only its board; an older ply is ignored; a clock message with the same ply updates the clocks', () => {
  const b0 = boardsOf(round, games, 0);
  const move = { type: 'move', tournament: 't', round: 2, table: 2, game: 'g2', ply: 1, move: 'b2e2', fen: AFTER,
    clocks: clocks(299000, 300000, 'black'), status: 'playing', serverTime: 5, receivedAt: 7000 };
  const b1 = applyMessage(b0, move);
  assert.notEqual(b1, b0);
  assert.equal(b1[0], b0[0], 'the other board is the same object (nothing to redraw)');
  assert.deepEqual([b1[1].ply, b1[1].move, b1[1].fen, b1[1].at, b1[1].clocks.running], [1, 'b2e2', AFTER, 7000, 'black']);
  // The same move again, and a stale ply 0 message: nothing changes that matters.
  assert.equal(applyMessage(b1, { ...move, ply: 0, move: 'h2e2', fen: START }), b1);
  // The press after the move: a clock message repeating ply 1.
  const press = { type: 'clock', game: 'g2', ply: 1, clocks: clocks(299000, 300000, 'black'), status: 'playing', receivedAt: 8000 };
  const b2 = applyMessage(b1, { ...press, clocks: clocks(298500, 300000, 'black') });
  assert.deepEqual([b2[1].ply, b2[1].move, b2[1].clocks.red.remainingMs, b2[1].at], [1, 'b2e2', 298500, 8000]);
  // An unknown game or message type changes nothing.
  assert.equal(applyMessage(b2, { ...move, game: 'elsewhere' }), b2);
  assert.equal(applyMessage(b2, { type: 'tournament', what: 'result' }), b2);
  assert.equal(applyMessage(b2, null), b2);
});

test('applyMessage: a result ends the board with its result and reason', () => {
  const b0 = boardsOf(round, games, 0);
  const b1 = applyMessage(b0, { type: 'result', game: 'g1', ply: 1, result: '0-1', reason: 'resignation', status: 'finished',
    clocks: clocks(290000, 300000, ''), receivedAt: 9 });
  assert.deepEqual([b1[0].result, b1[0].reason, b1[0].status, b1[0].move], ['0-1', 'resignation', 'finished', 'h2e2']);
  // A later re-read of the game (a poll) replaces the board's view.
  const g = { fen: START, moves: [], ply: 0, clocks: clocks(300000, 300000, 'red'), status: 'playing', result: '' };
  const b = boardFromGame(b1[0], g, 10);
  assert.deepEqual([b.ply, b.move, b.result, b.status, b.at, b.table], [0, '', '', 'playing', 10, 1]);
});

test('clockMs: the running side counts down from the reading; the other stays; untimed is null', () => {
  const [b] = boardsOf(round, games, 1000); // black to move, black running, 300 s
  assert.equal(clockMs(b, 'black', 1000), 300000);
  assert.equal(clockMs(b, 'black', 4500), 296500);
  assert.equal(clockMs(b, 'red', 4500), 298000);
  assert.equal(clockMs(b, 'black', 1000 + 400000), 0, 'never below zero');
  assert.equal(clockMs({ ...b, status: 'finished' }, 'black', 4500), 300000, 'a finished game stops its clocks');
  assert.equal(clockMs({ ...b, clocks: { untimed: true } }, 'red', 0), null);
  assert.equal(clockMs({ ...b, clocks: null }, 'red', 0), null);
  assert.equal(clockMs({ ...b, clocks: { redMs: 5000, blackMs: 6000 } }, 'black', 0), 6000, 'the flat form of the clocks');
});

test('cycleSlice: pages of boards in table order, wrapping round; optionsOf reads ?cycle=1&per=&every= within bounds', () => {
  assert.deepEqual(cycleSlice(10, 4, 0), { start: 0, end: 4, page: 0, pages: 3 });
  assert.deepEqual(cycleSlice(10, 4, 2), { start: 8, end: 10, page: 2, pages: 3 });
  assert.deepEqual(cycleSlice(10, 4, 3), { start: 0, end: 4, page: 0, pages: 3 });
  assert.deepEqual(cycleSlice(0, 8, 5), { start: 0, end: 0, page: 0, pages: 1 });
  assert.deepEqual(cycleSlice(3, 0, 1), { start: 1, end: 2, page: 1, pages: 3 }, 'perPage below 1 counts as 1');
  assert.deepEqual(optionsOf(''), { cycle: false, per: 8, every: 15 });
  assert.deepEqual(optionsOf('?cycle=1&per=2&every=3'), { cycle: true, per: 2, every: 3 });
  assert.deepEqual(optionsOf('?cycle=yes&per=0&every=1'), { cycle: false, per: 8, every: 15 }, 'out of bounds: the defaults');
  assert.deepEqual(optionsOf('?per=abc&every=9999'), { cycle: false, per: 8, every: 15 });
});
