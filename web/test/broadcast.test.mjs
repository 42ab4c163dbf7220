// broadcast.test.mjs — the broadcast page, /t/{tid}/live, in real Chromium
// against the local stack: an 8-player Swiss's round 1 (four games) shows
// every board with both names and clocks; a move made over the API reaches
// one board without a reload (the round channel on /ws: one subscription
// for the whole round); a board links to its game page; the event page
// links to the broadcast. Screenshots at 360 and 1280 px in zh and en; with
// ?cycle=1&per=2 the venue screen shows two boards a page; with the socket
// down the page polls and still shows a move. axe-core finds
// no serious or critical violation; no console errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, checkA11y, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

const NAMES = ['王天一', '郑惟桐', '许银川', '洪智', 'Zhao Xinxin', 'Lü Qin', 'Jiang Chuan', 'Meng Chen'];

async function startedRound() {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Broadcast Open', system: 'swiss', rounds: 3, timeControl: 'rapid-5/30' } });
  const tokens = {};
  for (const [i, name] of NAMES.entries()) {
    const p = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name, rating: 2600 - i * 10 } });
    tokens[p.id] = p.token;
  }
  const round = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token, body: {} });
  return { ev, round, tokens };
}

test('the broadcast page shows every board of the round and updates one without a reload when a move is made', async () => {
  const { ev, round, tokens } = await startedRound();
  assert.equal(round.pairings.length, 4);
  const p1 = round.pairings.find((p) => p.table === 1);
  const p2 = round.pairings.find((p) => p.table === 2);
  // A first move on table 2 before the page opens: it is read, not pushed.
  await apiCall(server.base, 'POST', `/games/${p2.gameId}/moves`, { token: tokens[p2.red], body: { move: 'b2e2', ply: 0, press: true } });

  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US'], [360, 'en-US'], [1280, 'zh-CN']]) {
    const page = await newPage(browser, { width, locale });
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => { try { sent.push(JSON.parse(String(f.payload))); } catch { /* not JSON */ } }));
    let reloads = 0;
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) reloads++; });
    await page.goto(`${server.base}/t/${ev.id}/live`);
    const boards = page.locator('ul.live-boards > li a.live-board');
    await boards.nth(3).waitFor();
    assert.equal(await boards.count(), 4, 'one board per game of the round');
    for (const p of round.pairings) {
      const card = page.locator(`a.live-board[data-game="${p.gameId}"]`);
      assert.equal(await card.getAttribute('href'), `/g/${p.gameId}`);
      assert.match(await card.locator('.live-red .live-name').textContent(), new RegExp(p.redName));
      assert.match(await card.locator('.live-black .live-name').textContent(), new RegExp(p.blackName));
      assert.match(await card.locator('.live-red .live-clock').textContent(), /^\d+:\d\d$/);
      assert.equal(await card.locator('svg.xq-view-only').count(), 1, 'a view-only mini board');
    }
    const c2 = page.locator(`a.live-board[data-game="${p2.gameId}"]`);
    assert.match(await c2.locator('.live-last').textContent(), /b2e2/);
    // The page follows the round with one subscription, not one per board.
    await page.locator('#live-status.live').waitFor();
    const rsub = () => sent.filter((m) => m.action === 'subscribe' && m.round);
    for (let i = 0; i < 20 && rsub().length === 0; i++) await new Promise((ok) => setTimeout(ok, 100));
    assert.deepEqual(rsub(), [{ action: 'subscribe', round: { tournament: ev.id, round: 1 } }]);
    assert.equal(sent.filter((m) => m.action === 'subscribe' && m.game).length, 0, 'no per-game subscriptions');

    if (width === 360 && locale === 'zh-CN') {
      // A move on table 1 reaches its board without a reload; the others stay as they were.
      const c1 = page.locator(`a.live-board[data-game="${p1.gameId}"]`);
      assert.equal(await c1.getAttribute('data-ply'), '0');
      const t0 = Date.now();
      await apiCall(server.base, 'POST', `/games/${p1.gameId}/moves`, { token: tokens[p1.red], body: { move: 'h2e2', ply: 0, press: true } });
      await page.locator(`a.live-board[data-game="${p1.gameId}"][data-ply="1"]`).waitFor({ timeout: 3000 });
      const took = Date.now() - t0;
      assert.match(await c1.locator('.live-last').textContent(), /h2e2/);
      // The mini board marks the move's two points (board.js draws a .xq-last square on each).
      await c1.locator('svg rect.xq-last').nth(1).waitFor();
      assert.equal(await c1.locator('svg rect.xq-last').count(), 2);
      assert.equal(await c2.getAttribute('data-ply'), '1');
      assert.equal(reloads, 1, 'the page was not reloaded');
      console.log(`# move → board shown in ${took} ms`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `broadcast-${width}-${locale.slice(0, 2)}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `broadcast ${width}: the page is ${overflow}px wider than the screen`);
    const v = await checkA11y(page);
    assert.deepEqual(v, [], `broadcast ${width} ${locale}: axe-core found serious or critical violations`);
    assertNoErrors(page, `broadcast ${width} ${locale}`);
    await page.context().close();
  }

  // Tapping a board opens its game.
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  await page.goto(`${server.base}/t/${ev.id}`);
  await page.getByRole('link', { name: 'Live boards' }).click();
  await page.waitForURL(`${server.base}/t/${ev.id}/live`);
  await page.locator(`a.live-board[data-game="${p1.gameId}"]`).click();
  await page.waitForURL(`${server.base}/g/${p1.gameId}`);
  assertNoErrors(page, 'broadcast → game');
  await page.context().close();
});

test('a venue screen cycles through pages of boards with ?cycle=1', async () => {
  const { ev } = await startedRound();
  const page = await newPage(browser, { width: 1280, locale: 'zh-CN' });
  await page.goto(`${server.base}/t/${ev.id}/live?cycle=1&per=2&every=3`);
  const tables = async () => page.locator('a.live-board .live-table').allTextContents();
  await page.locator('a.live-board').nth(1).waitFor();
  assert.deepEqual(await tables(), ['第1台', '第2台']);
  assert.equal(await page.locator('.live-pager').textContent(), '第1页，共2页');
  await page.locator('.live-pager', { hasText: '第2页' }).waitFor({ timeout: 5000 });
  assert.deepEqual(await tables(), ['第3台', '第4台']);
  await screenshot(page, 'broadcast-1280-cycle');
  await page.locator('.live-pager', { hasText: '第1页' }).waitFor({ timeout: 5000 });
  assertNoErrors(page, 'cycle');
  await page.context().close();
});

test('with the socket down the broadcast page polls, says so, and still shows a move', async () => {
  const { ev, round, tokens } = await startedRound();
  const p3 = round.pairings.find((p) => p.table === 3);
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  // Every socket the page opens is closed at once: the push server is away.
  await page.routeWebSocket(/\/ws$/, (ws) => ws.close());
  await page.goto(`${server.base}/t/${ev.id}/live`);
  await page.locator('a.live-board').nth(3).waitFor();
  await page.locator('#live-status.polling').waitFor();
  await apiCall(server.base, 'POST', `/games/${p3.gameId}/moves`, { token: tokens[p3.red], body: { move: 'h0g2', ply: 0, press: true } });
  await page.locator(`a.live-board[data-game="${p3.gameId}"][data-ply="1"]`).waitFor({ timeout: 8000 });
  assert.match(await page.locator(`a.live-board[data-game="${p3.gameId}"] .live-last`).textContent(), /h0g2/);
  assertNoErrors(page, 'polling');
  await page.context().close();
});
