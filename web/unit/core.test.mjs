// core.test.mjs — the client's core/ modules in node (no browser): the one
// fetch (ETag revalidation, Accept-Language, ApiError), the outbox (the same
// Idempotency-Key on every retry, back-off, a settled move not resent,
// events), the strings (plurals, lists, errorText), the store's one redraw
// per frame, and the tokens' shapes. The network is a stub (useFetch).

import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, errorFrom, forget, get, request, useFetch } from '../static/core/http.js';
import * as outbox from '../static/core/outbox.js';
import * as db from '../static/core/db.js';
import { errorText, list, t, useLanguage, acceptLanguage } from '../static/core/i18n.js';
import { createStore } from '../static/core/store.js';
import { tokenIn, tokenParts } from '../static/core/tokens.js';
import { mergeGame } from '../static/core/live.js';
import zh from '../static/i18n/zh.js';

/** reply is a Response the stub answers with. */
const reply = (status, body, headers = {}) => new Response(status === 304 ? null : (typeof body === 'string' ? body : JSON.stringify(body)),
  { status, headers: { 'Content-Type': 'application/json', ...headers } });

beforeEach(() => { forget(); useLanguage('en'); outbox.policy.firstMs = 5; outbox.policy.maxMs = 20; });

test('a GET revalidates with its ETag and a 304 answers with the copy held', async () => {
  const seen = [];
  const modes = [];
  useFetch(async (path, init) => {
    seen.push(init.headers);
    modes.push(init.cache);
    return init.headers['If-None-Match'] === '"v1"' ? reply(304) : reply(200, { n: 1 }, { ETag: '"v1"' });
  });
  const a = await get('/tournaments/t1');
  const b = await get('/tournaments/t1');
  assert.equal(a, b, 'the same object: unchanged is a === away');
  assert.equal(seen[0]['If-None-Match'], undefined);
  assert.equal(seen[1]['If-None-Match'], '"v1"');
  assert.deepEqual(modes.slice(0, 2), ['no-cache', 'no-store'], 'the browser\'s cache revalidates; with a held copy, this code does');
  assert.equal(seen[0]['Accept-Language'], acceptLanguage);
  assert.match(seen[0]['Accept-Language'], /^en/);
  useLanguage('zh');
  await get('/tournaments/t1');
  assert.match(seen[2]['Accept-Language'], /^zh/, 'the reader\'s language, not the browser\'s');
  assert.equal(seen[2]['If-None-Match'], undefined, 'a copy in another language is another copy');
  useFetch();
});

test('a refusal is one ApiError with the code, rule, status and Retry-After', async () => {
  useFetch(async () => reply(429, { error: { code: 'throttled', message: 'busy', rule: 'X-1' } }, { 'Retry-After': '2' }));
  const err = await request('POST', '/games', { body: {} }).catch((e) => e);
  assert.ok(err instanceof ApiError);
  assert.deepEqual([err.status, err.code, err.message, err.rule, err.retryAfter, err.retryable], [429, 'throttled', 'busy', 'X-1', 2, true]);
  useFetch(async () => { throw new TypeError('Failed to fetch'); });
  const lost = await request('GET', '/x').catch((e) => e);
  assert.deepEqual([lost.status, lost.code, lost.retryable], [0, 'network', true]);
  const plain = errorFrom(502, 'Bad Gateway', '<html>');
  assert.deepEqual([plain.code, plain.message, plain.retryable], ['', '502 Bad Gateway', true]);
  assert.equal(errorFrom(422, '', JSON.stringify({ error: { code: 'illegal_move', message: 'm' } })).retryable, false);
  useFetch();
});

test('the outbox retries a write lost on the network and a 503 with the same Idempotency-Key, then says it was sent', async () => {
  const keys = [];
  const answers = [() => { throw new TypeError('network down'); }, () => reply(503, { error: { code: 'unavailable', message: 'x' } }), () => reply(201, { id: 'p1' })];
  useFetch(async (path, init) => { keys.push(init.headers['Idempotency-Key']); return answers.shift()(); });
  const seen = [];
  const on = (e) => seen.push([e.type, e.detail.path]);
  for (const ev of ['queued', 'sent', 'refused']) outbox.events.addEventListener(ev, on);
  let queued = 0;
  const res = await outbox.post('/tournaments/t1/players', { name: 'A' }, { token: 'tok', onQueued: () => queued++ });
  assert.deepEqual(res, { id: 'p1' });
  assert.equal(keys.length, 3);
  assert.ok(keys.every((k) => k === keys[0]) && /^[0-9a-f-]{36}$/.test(keys[0]), `one key on every attempt: ${keys}`);
  assert.equal(queued, 2);
  assert.deepEqual(seen, [['queued', '/tournaments/t1/players'], ['queued', '/tournaments/t1/players'], ['sent', '/tournaments/t1/players']]);
  assert.deepEqual(outbox.pending(), []);
  for (const ev of ['queued', 'sent', 'refused']) outbox.events.removeEventListener(ev, on);
  useFetch();
});

test('the outbox gives up on a refusal at once, and says so', async () => {
  let calls = 0;
  useFetch(async () => { calls++; return reply(422, { error: { code: 'registration_closed', message: 'closed', rule: 'S-9' } }); });
  let refused = null;
  const on = (e) => { refused = e.detail.error; };
  outbox.events.addEventListener('refused', on);
  const err = await outbox.post('/tournaments/t1/players', { name: 'A' }).catch((e) => e);
  assert.equal(calls, 1);
  assert.equal(err.code, 'registration_closed');
  assert.equal(refused, err);
  outbox.events.removeEventListener('refused', on);
  useFetch();
});

test('a move whose answer was lost is settled by reading the game, not sent twice', async () => {
  const posts = [];
  let ply = 0;
  useFetch(async (path, init) => {
    if (init.method === 'POST') { posts.push(init.headers['Idempotency-Key']); ply = 1; throw new TypeError('answer lost'); }
    return reply(200, { id: 'g1', ply, status: 'playing' });
  });
  const view = await outbox.post('/games/g1/moves', { move: 'h2e2', ply: 0 }, { settle: { game: 'g1', ply: 0 } });
  assert.equal(posts.length, 1, 'the server had the move: no resend');
  assert.equal(view.ply, 1);
  // A move that never arrived is sent again, under its key.
  const keys = [];
  let fail = true;
  useFetch(async (path, init) => {
    if (init.method !== 'POST') return reply(200, { id: 'g1', ply: 1, status: 'playing' });
    keys.push(init.headers['Idempotency-Key']);
    if (fail) { fail = false; throw new TypeError('request lost'); }
    return reply(200, { id: 'g1', ply: 2, status: 'playing' });
  });
  const after = await outbox.post('/games/g1/moves', { move: 'h9g7', ply: 1 }, { settle: { game: 'g1', ply: 1 } });
  assert.equal(after.ply, 2);
  assert.equal(keys.length, 2);
  assert.equal(keys[0], keys[1]);
  useFetch();
});

test('the outbox stops retrying a failing server after policy.attempts', async () => {
  let calls = 0;
  outbox.policy.attempts = 3;
  useFetch(async () => { calls++; return reply(500, { error: { code: 'internal', message: 'x' } }); });
  const err = await outbox.post('/x', {}).catch((e) => e);
  assert.equal(calls, 3);
  assert.equal(err.code, 'internal');
  outbox.policy.attempts = 8;
  useFetch();
});

test('back-off doubles up to the cap and follows Retry-After', () => {
  outbox.policy.firstMs = 1000; outbox.policy.maxMs = 30000;
  const d = [1, 2, 3, 4, 5, 6, 7].map((n) => outbox.delay(n));
  for (const [i, want] of [1000, 2000, 4000, 8000, 16000, 30000, 30000].entries()) {
    assert.ok(d[i] >= want * 0.75 && d[i] <= want * 1.25, `attempt ${i + 1}: ${d[i]} ms, want about ${want}`);
  }
  const e = new ApiError(429, 'throttled', '');
  e.retryAfter = 7;
  assert.equal(outbox.delay(1, e), 7000);
});

test('plurals, lists and the languages', () => {
  useLanguage('en');
  assert.equal(t('ev.players', { n: 1 }), '1 player');
  assert.equal(t('ev.players', { n: 4 }), '4 players');
  assert.equal(list(['A', 'B', 'C']), 'A, B, and C');
  useLanguage('zh');
  assert.equal(t('ev.players', { n: 1 }), '1 名棋手');
  assert.equal(list(['甲', '乙', '丙']), '甲、乙和丙');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('errorText says every known code in Chinese without the server\'s English message', () => {
  useLanguage('zh');
  for (const key of Object.keys(zh).filter((k) => k.startsWith('err.'))) {
    const code = key.slice(4);
    const err = new ApiError(400, code, 'rating: an English message from the server', 'S-1');
    const text = errorText(err);
    assert.ok(!text.includes('English message'), `${code}: ${text}`);
    assert.match(text, /^被拒绝：[^:]+（规则 S-1）$/);
    assert.ok(text.includes('S-1'), `${code}: the rule is named`);
  }
  // The field is named by its form label, never by its JSON name (issue 34).
  assert.equal(errorText(new ApiError(400, 'invalid_field', 'rating: too high')), '被拒绝：“等级分”一项填写不对');
  assert.equal(errorText(new ApiError(400, 'invalid_field', 'secretField: too high')), '被拒绝：请求的内容不对');
  assert.equal(errorText(new ApiError(400, 'invalid_field', 'move and ply are required')), '被拒绝：请求的内容不对');
  assert.equal(errorText(new ApiError(400, 'brand_new_code', 'something new')), '被拒绝：something new', 'an unknown code keeps the message');
  useLanguage('en');
  assert.equal(errorText(new ApiError(422, 'illegal_move', 'h2h9 is not legal', 'G-2')), 'Refused: h2h9 is not legal (rule G-2)');
  assert.equal(errorText(new ApiError(0, 'network', '')), 'Refused: network error: the server could not be reached');
});

test('the store redraws once per frame however many changes come', async () => {
  const s = createStore({ a: 0 });
  const drawn = [];
  s.subscribe((st) => drawn.push(st.a));
  for (let i = 1; i <= 5; i++) s.set({ a: i });
  s.set((st) => ({ b: st.a * 2 }));
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(drawn, [5]);
  assert.equal(s.get().b, 10);
});

test('tokenParts and tokenIn read a token\'s shape and a pasted link', () => {
  assert.deepEqual(tokenParts('tabc.tabc.s3cret'), { scope: 'tabc', id: 'tabc', kind: 'organiser' });
  assert.deepEqual(tokenParts('tabc.p12.x'), { scope: 'tabc', id: 'p12', kind: 'player' });
  assert.deepEqual(tokenParts('tabc.o1.x').kind, 'official');
  assert.deepEqual(tokenParts('tabc.m3.x').kind, 'team');
  assert.deepEqual(tokenParts('gxyz.red.x'), { scope: 'gxyz', id: 'red', kind: 'seat' });
  assert.deepEqual(tokenParts('nonsense'), { scope: '', id: '', kind: '' });
  assert.equal(tokenIn(' https://x.example/t/tabc#token=tabc.p1.s ') , 'tabc.p1.s');
  assert.equal(tokenIn('tabc.p1.s'), 'tabc.p1.s');
});

test('mergeGame appends the moves of a ?since read to the game held', () => {
  const held = { id: 'g', ply: 2, moves: ['a', 'b'], version: 2 };
  assert.deepEqual(mergeGame(held, { id: 'g', ply: 3, since: 2, moves: ['c'], version: 3 }), { id: 'g', ply: 3, since: 0, moves: ['a', 'b', 'c'], version: 3 });
  const full = { id: 'g', ply: 1, moves: ['x'] };
  assert.equal(mergeGame(held, full), full, 'a full read replaces');
  assert.equal(mergeGame(held, null), held);
});

test('resume sends what an earlier page left in the outbox, under the key it was given', async () => {
  const left = { id: 'left-1', method: 'POST', path: '/tournaments/t1/players', body: { name: 'A' }, token: 'tok', key: 'kept-key',
    contentType: '', as: 'json', headers: null, settle: null, created: 1, attempts: 3 };
  await db.put('outbox', left.id, left);
  const keys = [];
  useFetch(async (path, init) => { keys.push([path, init.headers['Idempotency-Key'], init.headers.Authorization]); return reply(201, { id: 'p1' }); });
  const sent = new Promise((resolve) => outbox.events.addEventListener('sent', (e) => resolve(e.detail), { once: true }));
  await outbox.resume();
  const detail = await sent;
  assert.deepEqual(detail.response, { id: 'p1' });
  assert.deepEqual(keys, [['/tournaments/t1/players', 'kept-key', 'Bearer tok']]);
  assert.deepEqual(await db.all('outbox'), [], 'answered: gone from the outbox');
  useFetch();
});
