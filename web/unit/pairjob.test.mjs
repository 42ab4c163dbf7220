// pairjob.test.mjs — the console's wait for a big event's round paired as a
// job (static/pages/event/pairjob.js): polled at its status path until
// done, each state said in the reader's language; a failed job is the
// pairing's refusal, said as the synchronous pairing's would be.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorText, useLanguage } from '../static/core/i18n.js';
import { ApiError } from '../static/core/http.js';
import { awaitPairJob, isPairJob, jobText } from '../static/pages/event/pairjob.js';

const accepted = { job: 't1:3', status: '/tournaments/t1/rounds/3/job', round: 3, state: 'queued', queuedAt: '2026-12-02T08:00:00Z', attempt: 0 };

/** polls answers each GET with the next of states, recording the paths asked. */
function polls(...states) {
  const asked = [];
  return {
    asked,
    get: async (path) => { asked.push(path); return { ...accepted, ...states.shift() }; },
  };
}

test('a 202 is told from a round, and the job is polled at its status until done', async () => {
  assert.ok(isPairJob(accepted));
  assert.ok(!isPairJob({ round: 3, pairings: [] }));
  const p = polls({ state: 'running', attempt: 1 }, { state: 'done', attempt: 1, tables: 5000, byes: 0 });
  const seen = [];
  const slept = [];
  const n = await awaitPairJob(accepted, { get: p.get, onState: (j) => seen.push(j.state), sleep: async (ms) => { slept.push(ms); }, pollMs: 7 });
  assert.equal(n, 3);
  assert.deepEqual(seen, ['queued', 'running', 'done']);
  assert.deepEqual(p.asked, [accepted.status, accepted.status]);
  assert.deepEqual(slept, [7, 7]);
});

test('each state is said in both languages', () => {
  useLanguage('zh');
  assert.equal(jobText({ round: 3, state: 'running' }), '第 3 轮正在编排……');
  assert.equal(jobText({ round: 3, state: 'queued' }), '第 3 轮已排队等待编排……');
  useLanguage('en');
  assert.equal(jobText({ round: 3, state: 'running' }), 'Round 3 is being paired…');
  assert.equal(jobText({ round: 3, state: 'done' }), 'Round 3 is paired.');
});

test('a failed job throws the refusal it met, said as any refusal', async () => {
  const p = polls({ state: 'failed', attempt: 1, error: { code: 'unfinished_games', message: 'round 2 has unfinished games', rule: 'P-12' } });
  useLanguage('en');
  await assert.rejects(awaitPairJob(accepted, { get: p.get, sleep: async () => {} }), (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 422);
    assert.equal(err.code, 'unfinished_games');
    assert.equal(err.rule, 'P-12');
    assert.match(errorText(err), /round 2 has unfinished games/);
    return true;
  });
  useLanguage('zh');
  await assert.rejects(awaitPairJob({ ...accepted, state: 'failed', error: { code: 'unfinished_games', message: 'round 2 has unfinished games', rule: 'P-12' } }, { get: p.get }),
    (err) => /P-12/.test(errorText(err)) && !/unfinished/.test(errorText(err))); // the reader's words, not the server's English
});
