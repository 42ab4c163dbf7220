// numbers.test.mjs — P-3 on the public event page: once a 10-player Swiss
// has paired round 1, the page numbers the players by the numbers drawn for
// it (002 appendix 3 §1.3), so the pairings read 1-2, 4-3, 5-6, 8-7, 9-10
// with the smaller number red on odd tables, and the players tab lists them
// in that order.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, assertNoErrors, apiCall } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = process.env.XQ_DEV_BASE ? { base: process.env.XQ_DEV_BASE, stop: async () => {} } : await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('round 1 of a 10-player Swiss reads 1-2, 4-3, 5-6, 8-7, 9-10 by the numbers on the page', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Drawn numbers', system: 'swiss', rounds: 7 } });
  for (let i = 0; i < 10; i++) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name: `Player ${i + 1}`, rating: 2400 - 10 * i } });
  }
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: { round: 1 } });
  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  await page.goto(`${server.base}/t/${ev.id}`);
  await page.locator('table.pairings tbody tr[data-table="5"]').waitFor();
  const boards = await page.locator('table.pairings tbody tr[data-table]').evaluateAll((rows) =>
    rows.map((tr) => [...tr.querySelectorAll('td.col-no')].map((td) => td.textContent).join('-')));
  assert.deepEqual(boards, ['1-2', '4-3', '5-6', '8-7', '9-10']);
  await page.locator('#tab-players').click();
  await page.locator('table tbody tr').nth(9).waitFor();
  const listed = await page.locator('table tbody tr td.num:first-child').allTextContents();
  assert.deepEqual(listed, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  assertNoErrors(page, 'numbers');
  await page.context().close();
});
