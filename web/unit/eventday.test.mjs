// eventday.test.mjs — pure pieces of issue 34's pages: refusals said from
// their params, the crosstable's columns by round, the standings sheet.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorText, useLanguage } from '../static/core/i18n.js';
import { cellOf, roundsOf } from '../static/pages/event/view.js';
import { csvCell } from '../static/pages/event/sheet.js';
import { people, whoText } from '../static/pages/event/links.js';
import { slipList } from '../static/pages/event/slips.js';

const refusal = {
  code: 'unfinished_games', rule: 'P-12', message: '2 game(s) of earlier rounds are unfinished (gabc, gdef); pair anyway with "unfinishedAsDraws": true',
  params: { count: 2, games: [{ round: 1, table: 1 }, { round: 1, table: 3 }], option: 'unfinishedAsDraws' },
};

test('a refusal with params is said in the reader\'s words, in both languages, without ids or field names', () => {
  useLanguage('zh');
  const zh = errorText(refusal);
  assert.match(zh, /第 1 轮第 1 台和第 1 轮第 3 台/);
  assert.match(zh, /未完成的对局按和棋计算后编排/);
  assert.ok(!/[A-Za-z]{3,}/.test(zh), zh);
  useLanguage('en');
  const en = errorText(refusal);
  assert.match(en, /2 games of earlier rounds have no result yet \(round 1 table 1 and round 1 table 3\)/);
  assert.ok(!/gabc|unfinishedAsDraws/.test(en), en);
  // An unknown code, or a known one without params, keeps the server's message.
  assert.match(errorText({ code: 'brand_new', message: 'something new happened' }), /something new happened/);
  assert.match(errorText({ code: 'unfinished_games', message: 'the old message' }), /the old message/);
  // An option the page has no control for is left out, never shown by its JSON name.
  assert.ok(!/secretOption/.test(errorText({ ...refusal, params: { ...refusal.params, option: 'secretOption' } })));
});

test('crosstable columns follow the cells\' rounds: a withdrawn player\'s missing rounds stay empty', () => {
  const cells = [{ round: 1, points: 2 }, { round: 3, points: 1 }];
  assert.equal(roundsOf(cells), 3);
  assert.equal(cellOf(cells, 2), null);
  assert.equal(cellOf(cells, 3).points, 1);
  assert.equal(cellOf([{ points: 2 }], 1).points, 2);
});

test('the sheet quotes what needs quoting; links and slips list everyone once', () => {
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell(2650), '2650');
  const rows = people([{ id: 'p2', number: 2, name: 'B', status: 'active' }, { id: 'p1', number: 1, name: 'A', status: 'active' }, { id: 'p3', number: 3, name: 'C', status: 'withdrawn' }],
    [{ id: 'o1', name: 'S', role: 'scribe', tables: [1, 2] }], [{ id: 'm1', name: 'Team', number: 1, status: 'active' }]);
  assert.deepEqual(rows.map((r) => r.id), ['p1', 'p2', 'o1', 'm1']);
  useLanguage('en');
  assert.equal(whoText(rows[0]), '1 A');
  assert.match(whoText(rows[2]), /S \(Scribe · tables 1, 2\)/);
  const slips = slipList(rows, (id) => `tok-${id}`);
  assert.deepEqual(slips.map((s) => [s.kind, s.number ?? s.table, s.token]),
    [['player', 1, 'tok-p1'], ['player', 2, 'tok-p2'], ['table', 1, 'tok-o1'], ['table', 2, 'tok-o1']]);
});
