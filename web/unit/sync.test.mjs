// sync.test.mjs — the offline scoresheet's queue (core/sync.js) in node,
// the network a stub: writes go out one at a time in the order made, a
// write lost on the network is retried under its own Idempotency-Key, a
// refusal stops the queue with what comes after it kept, and keeping the
// server's version sets the device's writes aside; the record "keep mine"
// sends; the printable sheet's rounds and times (pages/scoresheet/sheet.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFetch } from '../static/core/http.js';
import * as sync from '../static/core/sync.js';
import { hms, rounds } from '../static/pages/scoresheet/sheet.js';

const reply = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const until = async (ok) => { for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5)); assert.ok(ok(), 'in time'); };

test('the queue sends in order, one at a time, a lost write again under its key; a refusal stops it and nothing is lost', async () => {
  sync.policy.firstMs = 5;
  sync.policy.maxMs = 10;
  const seen = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let failNext = 1; // the first attempt is lost on the network
  useFetch(async (path, init) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 2));
    inFlight--;
    const body = JSON.parse(init.body);
    seen.push({ move: body.move, key: init.headers['Idempotency-Key'] });
    if (failNext-- > 0) throw new TypeError('Failed to fetch');
    if (body.move === 'b0c2') return reply(409, { error: { code: 'conflict', message: 'the game is at ply 3, not 2' } });
    return reply(200, { id: 'g1', ply: body.ply + 1, moves: [] });
  });
  const sent = [];
  const onSent = (ev) => sent.push(ev.detail.entry.body.move);
  sync.events.addEventListener('sent', onSent);
  for (const [ply, move] of ['h2e2', 'h9g7', 'b0c2', 'b9c8'].entries()) {
    await sync.enqueue('g1', { kind: 'move', path: '/moves', body: { move, ply }, ply, token: 'tok' });
  }
  assert.equal(sync.waitingMoves('g1'), 4 - sent.length);
  await until(() => sync.conflict('g1'));
  assert.deepEqual(sent, ['h2e2', 'h9g7'], 'sent in the order made');
  assert.equal(maxInFlight, 1, 'one write at a time');
  assert.equal(seen[0].key, seen[1].key, 'the lost write was sent again under the same key');
  assert.notEqual(seen[1].key, seen[2].key, 'each write its own key');
  assert.deepEqual(seen.map((s) => s.move), ['h2e2', 'h2e2', 'h9g7', 'b0c2'], 'nothing after the refusal was sent');
  const c = sync.conflict('g1');
  assert.equal(c.code, 'conflict');
  assert.equal(c.ply, 2);
  assert.deepEqual(sync.entries('g1').map((e) => e.body.move), ['b0c2', 'b9c8'], 'the refused write and the next wait');

  const server = { moves: ['h2e2', 'h9g7', 'h0g2'], startFen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' };
  assert.equal(sync.mineOver(server, sync.entries('g1')),
    `[Game "Chinese Chess"]\n[FEN "${server.startFen}"]\n[Format "ICCS"]\n[Result "*"]\n\n1. H2-E2 H9-G7 2. B0-C2 B9-C8 *\n`,
    'keep mine: the server\'s moves before the conflict, then this device\'s');
  await sync.keepServer('g1', server);
  assert.equal(sync.conflict('g1'), null);
  assert.deepEqual(sync.entries('g1'), []);
  const kept = await sync.setAside('g1');
  assert.deepEqual(kept.map((k) => k.entries.map((e) => e.body.move)), [['b0c2', 'b9c8']], 'set aside, not dropped');
  assert.deepEqual(kept[0].serverMoves, server.moves);
  sync.events.removeEventListener('sent', onSent);
  useFetch();
});

test('a send lost on the network marks the queue unreachable until one lands, and says so', async () => {
  sync.policy.firstMs = 5;
  sync.policy.maxMs = 10;
  let down = true;
  useFetch(async (path, init) => {
    if (down) throw new TypeError('Failed to fetch');
    const body = JSON.parse(init.body);
    return reply(200, { id: 'g2', ply: body.ply + 1, moves: [] });
  });
  const changes = [];
  const onChange = (ev) => { if (ev.detail.gid === 'g2') changes.push(sync.unreachable('g2')); };
  sync.events.addEventListener('change', onChange);
  assert.equal(sync.unreachable('g2'), false, 'nothing tried yet');
  await sync.enqueue('g2', { kind: 'move', path: '/moves', body: { move: 'h2e2', ply: 0 }, ply: 0, token: 'tok' });
  await until(() => sync.unreachable('g2'));
  assert.ok(changes.includes(true), 'the page is told when the queue becomes unreachable');
  assert.equal(sync.waitingMoves('g2'), 1, 'the move waits, kept');
  down = false;
  await until(() => sync.entries('g2').length === 0);
  assert.equal(sync.unreachable('g2'), false, 'a send that lands clears it');
  sync.events.removeEventListener('change', onChange);
  useFetch();
});

test('the scoresheet: rounds of two moves (Black first leaves Red\'s cell empty), time as h:mm:ss', () => {
  assert.deepEqual(rounds(['炮二平五', '马8进7', '马二进三']), [{ n: 1, red: '炮二平五', black: '马8进7' }, { n: 2, red: '马二进三', black: '' }]);
  assert.deepEqual(rounds(['马8进7'], false), [{ n: 1, red: '', black: '马8进7' }]);
  assert.equal(hms(3723999), '1:02:03');
  assert.equal(hms(undefined), '0:00:00');
});
