// live.test.mjs — live.js against a push server the test plays (Playwright's
// WebSocket routing): the event page subscribes, re-reads on a pushed
// "result" at once (no polling while the socket is up), and falls back to
// polling, saying so, when the socket closes; and its redraws keep the
// reader's focus and open explanations.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

test('the event page subscribes over the socket, re-reads on a push, and polls when the socket closes', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Live Open', rounds: 1 } });
  for (const name of ['Red Side', 'Black Side']) await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name } });
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'Arb' } });
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });

  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  const received = [];
  let socket = null;
  let subscribed;
  const subscribedP = new Promise((ok) => { subscribed = ok; });
  await page.routeWebSocket(/\/ws$/, (ws) => {
    socket = ws;
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m));
      received.push(msg);
      if (msg.action === 'subscribe' && msg.tournament === ev.id) subscribed();
    });
  });
  // Count the page's reads of the round: none should come from polling while the socket is up.
  let roundReads = 0;
  page.on('request', (req) => { if (req.url().includes(`/tournaments/${ev.id}/rounds/1`)) roundReads++; });
  await page.goto(`${server.base}/t/${ev.id}`);
  await page.locator('table.pairings tr[data-table="1"] td.result a.playing').waitFor();
  await subscribedP;
  assert.deepEqual(received.find((m) => m.tournament), { action: 'subscribe', tournament: ev.id });
  await page.locator('#live-status.live').waitFor();
  // Subscribed, the page re-reads once (anything may have changed before the
  // subscription took effect); let that settle.
  await new Promise((ok) => setTimeout(ok, 1000));

  // A result is recorded; the push names it and the page shows it at once.
  await apiCall(server.base, 'POST', `/games/${r.pairings[0].gameId}/result`, { token: arb.token, body: { result: '1-0' } });
  const before = roundReads;
  await new Promise((ok) => setTimeout(ok, 6000)); // longer than the polling interval
  assert.equal(roundReads, before, 'the page polled although the socket was up');
  assert.equal(await page.locator('table.pairings tr[data-table="1"] td.result a.playing').count(), 1);
  const t0 = Date.now();
  socket.send(JSON.stringify({ type: 'tournament', serverTime: Date.now(), tournament: ev.id, what: 'result', round: 1 }));
  await page.locator('table.pairings tr[data-table="1"] td.result a:not(.playing)').waitFor({ timeout: 3000 });
  assert.ok(Date.now() - t0 < 3000);

  // The socket goes away: the page says it polls, and keeps working.
  socket.close();
  await page.locator('#live-status.polling').waitFor();
  assertNoErrors(page, 'live');
  await page.context().close();
});

test('a live redraw of the event page keeps the keyboard focus and an open explanation', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Focus Open', rounds: 3 } });
  for (const name of ['Ann', 'Bo', 'Cy', 'Di']) await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name } });
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'Arb' } });
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  await page.goto(`${server.base}/t/${ev.id}`);
  const row = (n) => page.locator(`table.pairings tr[data-table="${n}"]`);
  await row(2).locator('td.result a.playing').waitFor();
  // Table 1's explanation is open; the keyboard is on table 2's button.
  await row(1).locator('button.why-btn').click();
  await page.locator('#why-1-0:not([hidden])').waitFor();
  const why2 = row(2).locator('button.why-btn');
  await why2.focus();
  await why2.evaluate((el) => { el.probe = 'kept'; });
  // A result comes in: the page re-reads (pushed, or polled) and redraws.
  await apiCall(server.base, 'POST', `/games/${r.pairings[0].gameId}/result`, { token: arb.token, body: { result: '1-0' } });
  await row(1).locator('td.result a:not(.playing)').waitFor({ timeout: 15000 });
  assert.equal(await page.evaluate(() => document.activeElement && document.activeElement.probe), 'kept', 'the focused button is the same element, still focused');
  assert.equal(await page.locator('#why-1-0').getAttribute('hidden'), null, 'the open explanation stays open');
  assert.equal(await row(1).locator('button.why-btn').getAttribute('aria-expanded'), 'true');
  // Arrow keys still walk the tabs from where the focus is.
  await page.locator('#tab-pairings').focus();
  await page.keyboard.press('ArrowRight');
  await page.locator('#tab-standings[aria-selected="true"]').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-standings');
  assertNoErrors(page, 'focus');
  await page.context().close();
});
