// whynumbers.test.mjs — the pairing "?" names the numbers the pairing used
// (issue 34 point 6, P-3): once round 1 is drawn, the number the explanation
// says chose first is one of the two numbers shown on that table (it said
// "no. 1 chose first" on a table of players 2 and 10 while the page showed
// the registration order), in rounds 1 and 2, in zh and en, phone and laptop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

test('each table\'s "?" names a number of that table, by the drawn numbers the page shows', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: '编号 Numbers', rounds: 5 } });
  for (let i = 0; i < 10; i++) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name: `棋手 ${i + 1}`, rating: 2500 - i * 20 } });
  }
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'A' } });
  const r1 = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  for (const [i, p] of r1.pairings.entries()) {
    await apiCall(server.base, 'POST', `/games/${p.gameId}/result`, { token: arb.token, body: { result: ['1-0', '0-1', '1/2-1/2'][i % 3] } });
  }
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US'], [1280, 'zh-CN'], [360, 'en-US']]) {
    const page = await newPage(browser, { width, locale });
    for (const n of [1, 2]) {
      await page.goto(`${server.base}/t/${ev.id}?tab=pairings`);
      await page.locator('table.pairings tbody tr[data-table]').first().waitFor();
      if (n === 1) await page.locator('select[aria-label]').first().selectOption('1');
      await page.waitForFunction((m) => document.querySelector('h2.print-title')?.textContent.includes(String(m)), n);
      const tables = await page.locator('table.pairings tbody tr[data-table]').evaluateAll((trs) => trs.map((tr) => ({
        table: tr.dataset.table, nums: [...tr.querySelectorAll('td.col-no')].map((td) => Number(td.innerText)) })));
      assert.equal(tables.length, 5);
      for (const { table, nums } of tables) {
        await page.locator(`tr[data-table="${table}"] button.why-btn`).click();
        await page.locator(`#why-${table}-0`).waitFor({ state: 'visible' });
        const text = await page.locator(`#why-${table}-0`).innerText();
        const m = locale === 'zh-CN' ? /^(\d+)号先编/m.exec(text) : /^no\. (\d+) chose first/m.exec(text);
        assert.ok(m, `round ${n} table ${table}: no number chose first in ${text}`);
        assert.ok(nums.includes(Number(m[1])), `round ${n} table ${table} (${nums.join(' v ')}): the "?" says ${m[0]}`);
        // The row names both numbers, so a phone (No. columns hidden) can check them.
        const shown = (locale === 'zh-CN' ? /红方 (\d+) 号.*黑方 (\d+) 号/ : /red no\. (\d+) .*black no\. (\d+)/).exec(text);
        assert.ok(shown, `round ${n} table ${table}: the numbers are not named: ${text}`);
        assert.deepEqual([Number(shown[1]), Number(shown[2])], nums, `round ${n} table ${table}`);
        if (n === 1) assert.equal(Number(m[1]), Math.min(...nums), `round 1 table ${table}: the smaller number chooses (P-9)`);
      }
      await screenshot(page, `leftovers-why-numbers-r${n}-${width}-${locale.slice(0, 2)}`);
    }
    assertNoErrors(page, `why numbers ${width}`);
    await page.context().close();
  }
});
