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

// Offline, Chromium logs every request it could not make (ERR_FAILED when
// the service worker had nothing kept for it); the page expects those (it
// polls, and the queue retries), so only other errors count.
function assertNoOtherErrors(page, label) {
  page.errors = page.errors.filter((e) => !/Failed to load resource: net::(ERR_INTERNET_DISCONNECTED|ERR_FAILED)$/.test(e));
  assertNoErrors(page, label);
}

const serverMoves = async (gid) => (await apiCall(server.base, 'GET', `/games/${gid}`)).moves;

const SIX = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7'];
const TWO = ['b0c2', 'b7b3'];

test('offline: six moves, a reload from the cache, two more; back online the server has all eight in order, once each', async () => {
  const { ev, scribe, gid } = await eventGame('Offline Open');
  const pad = await openPad(gid, scribe.token, { width: 390, locale: 'zh-CN' });
  const ctx = pad.context();
  const visit = await ctx.newPage(); // the event page once, online
  await visit.goto(`${server.base}/t/${ev.id}`);
  await visit.getByText('甲').first().waitFor();
  await visit.close();
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

  // The event page visited online opens offline too, its pairings from the worker's cache.
  const evPage = await ctx.newPage();
  evPage.errors = [];
  evPage.on('pageerror', (err) => evPage.errors.push(`pageerror: ${err.message}`));
  await evPage.goto(`${server.base}/t/${ev.id}`);
  await evPage.getByText('Offline Open').first().waitFor();
  await evPage.getByText('甲').first().waitFor();
  assertNoOtherErrors(evPage, 'event page offline');
  await evPage.close();

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

test('offline: another device records the same ply; the conflict shows both versions, nothing is lost, either can be kept', async () => {
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
  assert.match(await box.innerText(), /another device recorded the game from the move marked 1… on/);
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

  // Again, and this time the scribe keeps this device's move: it replaces the
  // other device's as the table's record (the game's log keeps who did it).
  await ctx.setOffline(true);
  await clickMove(pad, 'h0g2');
  await atPly(pad, 3);
  await apiCall(server.base, 'POST', `/games/${gid}/moves`, { token: arb.token, body: { move: 'b0c2', ply: 2, press: true } });
  await ctx.setOffline(false);
  await box.waitFor({ timeout: 15000 });
  await pad.getByRole('button', { name: /Keep mine/ }).click();
  await box.waitFor({ state: 'hidden' });
  await atPly(pad, 3);
  assert.deepEqual(await serverMoves(gid), ['h2e2', 'h7e7', 'h0g2'], 'this device\'s move is the record now');
  await pad.locator('.sync-line').waitFor({ state: 'hidden' });
  assertNoOtherErrors(pad, 'conflict pad');
  await ctx.close();
});

test('O-3: both players and the scribe sign on the scribe\'s device, one offline; the game view and the PGN show the three', async () => {
  const { scribe, gid } = await eventGame('Signed Open');
  await apiCall(server.base, 'POST', `/games/${gid}/moves`, { token: scribe.token, body: { move: 'h2e2', ply: 0, press: true } });
  const pad = await openPad(gid, scribe.token, { width: 390, locale: 'zh-CN' });
  const ctx = pad.context();
  assert.equal(await pad.locator('.signatures').isHidden(), true, 'no signatures while the game is played');
  await apiCall(server.base, 'POST', `/games/${gid}/result`, { token: scribe.token, body: { result: '1-0', reason: 'resignation' } });
  const sigs = pad.locator('.signatures');
  await sigs.locator('.sig-state', { hasText: '等待签字' }).waitFor({ timeout: 15000 });

  // Red signs with a drawn signature (the pointer on the pad), online.
  const red = sigs.locator('.sig-line[data-line="red"]');
  assert.equal(await red.locator('input').inputValue(), '甲', 'the player\'s name is filled in');
  await red.locator('.sig-pad').scrollIntoViewIfNeeded();
  const box = await red.locator('.sig-pad').boundingBox();
  await pad.mouse.move(box.x + 10, box.y + 30);
  await pad.mouse.down();
  for (let i = 1; i <= 12; i++) await pad.mouse.move(box.x + 10 + i * 15, box.y + 30 + (i % 2 ? 12 : -12));
  await pad.mouse.up();
  await red.getByRole('button', { name: '签字', exact: true }).click();
  await red.locator('.sig-text', { hasText: '甲 已签字' }).waitFor();
  await red.locator('img.sig-img').waitFor();

  // Black signs while the device is offline: kept, shown as waiting.
  await ctx.setOffline(true);
  const black = sigs.locator('.sig-line[data-line="black"]');
  await black.getByRole('button', { name: '签字', exact: true }).click();
  await black.locator('.sig-text', { hasText: '等待发送' }).waitFor();
  await screenshot(pad, 'signatures-390-zh-offline');
  // The scribe signs too, then the network comes back.
  const sc = sigs.locator('.sig-line[data-line="scribe"]');
  await sc.locator('input').fill('李书记');
  await sc.getByRole('button', { name: '签字', exact: true }).click();
  await ctx.setOffline(false);
  await sigs.locator('.sig-state', { hasText: '已签字，对局结束' }).waitFor({ timeout: 15000 });
  for (;;) {
    const v = await apiCall(server.base, 'GET', `/games/${gid}`);
    if (v.signed) {
      assert.deepEqual(v.signatures.map((s) => [s.line, s.name, s.by]), [['red', '甲', 'scribe'], ['black', '乙', 'scribe'], ['scribe', '李书记', 'scribe']]);
      assert.match(v.signatures[0].svg, /^<svg [^>]*><polyline points="[\d, ]+"\/>/, 'red\'s drawn signature as SVG');
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pgn = await (await fetch(`${server.base}/games/${gid}/record?format=pgn`)).text();
  for (const tag of ['[RedSignature "甲 ', '[BlackSignature "乙 ', '[ScribeSignature "李书记 ']) assert.ok(pgn.includes(tag), `the PGN has ${tag}`);
  assert.ok(!pgn.includes('awaiting'), 'the PGN no longer awaits signatures');

  // A spectator's page shows the three confirmations; the printed sheet has them on its three lines.
  const viewer = await newPage(browser, { width: 1280, locale: 'en-US' });
  await viewer.goto(`${server.base}/g/${gid}`);
  const vs = viewer.locator('.signatures');
  await vs.locator('.sig-state', { hasText: 'Signed by both players and the scribe' }).waitFor();
  for (const [line, name] of [['red', '甲'], ['black', '乙'], ['scribe', '李书记']]) {
    assert.match(await vs.locator(`.sig-line[data-line="${line}"] .sig-text`).innerText(), new RegExp(`Signed by ${name}, `));
  }
  await viewer.evaluate(() => { window.print = () => { window.printed = true; }; });
  await viewer.getByRole('button', { name: 'Print the scoresheet' }).click();
  await viewer.waitForFunction(() => window.printed === true);
  const sheet = viewer.locator('.scoresheet');
  assert.match(await sheet.locator('.sheet-result').innerText(), /1-0/);
  assert.equal(await sheet.locator('.sheet-sig').count(), 3);
  assert.match(await sheet.locator('.sheet-sig[data-line="scribe"]').innerText(), /李书记/);
  await viewer.emulateMedia({ media: 'print' });
  await screenshot(viewer, 'scoresheet-print-en');
  assert.deepEqual(await checkA11y(viewer), []);
  assertNoOtherErrors(pad, 'signing pad');
  assertNoErrors(viewer, 'viewer');
  await ctx.close();
  await viewer.context().close();
});
