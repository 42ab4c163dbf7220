// offline.test.mjs — the scribe's scoresheet without a network (#33): the
// page installs its service worker; offline, the scribe records moves with
// legal targets from the rules engine in the browser, reloads (the page comes
// from the cache), records more, and back online the queue sends them in
// order, each once. A second device recording the same ply while the first is
// offline stops the queue and shows both versions, losing nothing. At the end
// both players and the scribe sign on the scribe's device (one offline), and
// the game view and the PGN show the three.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, checkA11y, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

const point = (page, sq) => page.locator(`.xq-point[data-square="${sq}"]`);
const atPly = (page, ply) => page.locator(`.game-page[data-ply="${ply}"]`).waitFor();

async function clickMove(page, move) {
  await point(page, move.slice(0, 2)).click();
  await page.locator('.xq-dot, .xq-capture-hint').first().waitFor();
  await point(page, move.slice(2)).click();
}

// A started event game at table 1 with a scribe for it.
async function eventGame(name) {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name, system: 'swiss', rounds: 3, timeControl: 'rapid-10/40+5/30' } });
  for (const p of ['甲', '乙']) await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name: p, rating: 1600 } });
  const scribe = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { name: 'Scribe', role: 'scribe', tables: [1] } });
  const round = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: { startsAt: new Date(Date.now() - 5000).toISOString() } });
  return { ev, scribe, gid: round.pairings[0].gameId };
}

// openPad opens the scribe's page online and waits until the service worker
// controls it (so a reload offline comes from its cache) and the engine is loaded.
async function openPad(gid, token, opts) {
  const page = await newPage(browser, opts);
  await page.goto(`${server.base}/g/${gid}#token=${token}`);
  await page.locator('.game-page[data-ply]').waitFor();
  await page.waitForFunction(() => navigator.serviceWorker && navigator.serviceWorker.controller, null, { timeout: 20000 });
  await page.waitForFunction(async () => (await caches.keys()).some((k) => k.startsWith('xqtour-')), null, { timeout: 20000 });
  return page;
}

// Offline, Chromium logs every request it could not make; the page expects
// those (it polls, and the queue retries), so only other errors count.
function assertNoOtherErrors(page, label) {
  page.errors = page.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e));
  assertNoErrors(page, label);
}

const serverMoves = async (gid) => (await apiCall(server.base, 'GET', `/games/${gid}`)).moves;

const SIX = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7'];
const TWO = ['b0c2', 'b7b3'];

test('offline: six moves, a reload from the cache, two more; back online the server has all eight in order, once each', async () => {
  const { scribe, gid } = await eventGame('Offline Open');
  const pad = await openPad(gid, scribe.token, { width: 390, locale: 'zh-CN' });
  const ctx = pad.context();
  const posts = [];
  pad.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith(`/games/${gid}/moves`)) posts.push(r.headers()['idempotency-key']); });

  await ctx.setOffline(true);
  for (let i = 0; i < SIX.length; i++) {
    await clickMove(pad, SIX[i]); // the targets come from the engine: no server to ask
    await atPly(pad, i + 1);
  }
  await pad.locator('.sync-line', { hasText: '6 步棋等待发送' }).waitFor();
  await pad.locator('.moves .m', { hasText: '马2进3' }).waitFor(); // the move list in Chinese, written by the engine offline
  await screenshot(pad, 'offline-390-zh-waiting');
  assert.deepEqual(await serverMoves(gid), [], 'nothing reached the server while offline');

  await pad.reload(); // still offline: the shell and the modules come from the service worker's cache
  await atPly(pad, 6);
  await pad.locator('.sync-line', { hasText: '6 步棋等待发送' }).waitFor();
  for (let i = 0; i < TWO.length; i++) {
    await clickMove(pad, TWO[i]);
    await atPly(pad, 7 + i);
  }
  await pad.locator('.sync-line', { hasText: '8 步棋等待发送' }).waitFor();
  assert.deepEqual(await checkA11y(pad), []);

  const back = Date.now();
  await ctx.setOffline(false);
  for (;;) {
    const moves = await serverMoves(gid);
    if (moves.length >= 8) { assert.deepEqual(moves, [...SIX, ...TWO], 'the eight moves in order, each once'); break; }
    assert.ok(Date.now() - back < 15000, `within 15 s the server has the eight moves (has ${moves.length})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await pad.locator('.sync-line').waitFor({ state: 'hidden' });
  // Every POST of a move carried its own key; a resend reused it (no key twice for two moves).
  const seen = new Set(posts);
  assert.ok(seen.size === 8, `eight Idempotency-Keys for eight moves (${seen.size} in ${posts.length} requests)`);
  console.log(`offline: the server had the 8 moves ${Date.now() - back} ms after the network came back`);
  assertNoOtherErrors(pad, 'offline pad');
  await ctx.close();
});

test('offline: another device records the same ply; the conflict shows both versions and nothing is lost', async () => {
  const { ev, scribe, gid } = await eventGame('Conflict Open');
  const pad = await openPad(gid, scribe.token, { width: 1280, locale: 'en-US' });
  const ctx = pad.context();
  await clickMove(pad, 'h2e2');
  await atPly(pad, 1);
  for (;;) { if ((await serverMoves(gid)).length === 1) break; await new Promise((r) => setTimeout(r, 100)); }

  await ctx.setOffline(true);
  await clickMove(pad, 'h9g7'); // this device: 马8进7 at ply 1
  await atPly(pad, 2);
  await clickMove(pad, 'h0g2');
  await atPly(pad, 3);
  // The other device (an arbiter's pad, say the chief's) records 炮8平5 at ply 1.
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { name: 'Second', role: 'scribe', tables: [1] } });
  await apiCall(server.base, 'POST', `/games/${gid}/moves`, { token: arb.token, body: { move: 'h7e7', ply: 1, press: true } });

  await ctx.setOffline(false);
  const box = pad.locator('.sync-conflict');
  await box.waitFor({ timeout: 15000 });
  assert.match(await box.innerText(), /Someone else recorded a move at ply 2/);
  assert.match(await box.locator('[data-version="server"]').innerText(), /C8=5/);
  assert.match(await box.locator('[data-version="mine"]').innerText(), /H8\+7|h9g7/);
  assert.match(await box.locator('[data-version="mine"]').innerText(), /H2\+3|h0g2/);
  await pad.locator('.sync-line', { hasText: 'Stopped: 2 entries' }).waitFor();
  await screenshot(pad, 'offline-1280-en-conflict');
  assert.deepEqual(await checkA11y(pad), []);
  assert.deepEqual(await serverMoves(gid), ['h2e2', 'h7e7'], 'the queue stopped: nothing of this device overwrote the other');

  // The scribe keeps the server's: this device's two moves are set aside, still shown.
  await pad.getByRole('button', { name: /Keep the server/ }).click();
  await box.waitFor({ state: 'hidden' });
  await pad.locator('.sync-aside', { hasText: '2 moves set aside on this device: h9g7 h0g2' }).waitFor();
  await atPly(pad, 2);
  const kept = await pad.evaluate(async (g) => (await import('/assets/core/sync.js')).setAside(g), gid);
  assert.deepEqual(kept[0].entries.map((e) => e.body.move), ['h9g7', 'h0g2'], 'kept in IndexedDB');
  assertNoOtherErrors(pad, 'conflict pad');
  await ctx.close();
});
