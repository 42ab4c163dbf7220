// knockout.test.mjs — an individual knockout's pages (issue 30, points 2
// and 3): the players' table ranks by the bracket's places, with the
// additional rapid games in their tie's round as 附加快棋 n (no extra round
// columns, no 并列 where the bracket decides) and a podium of places; the
// pairing "?" of a rapid game says the tie, the game of the rapid match and
// the time control in the reader's words, never an internal id.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

const NAMES = ['王天一', '郑惟桐', '洪智', '赵鑫鑫'];

const result = (arb, gameId, r) => apiCall(server.base, 'POST', `/games/${gameId}/result`, { token: arb.token, body: { result: r } });

// cup plays a four-player knockout with a third-place match through the
// API: semi-final 2 is drawn and goes to the additional rapid games.
async function cup() {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: '象棋杯 Cup', system: 'knockout', timeControl: '60/30+10/10', knockout: { thirdPlace: true } } });
  for (const [i, name] of NAMES.entries()) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name, rating: 2600 - i * 50 } });
  }
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'A' } });
  const r1 = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  await result(arb, r1.pairings[0].gameId, '1-0');
  await result(arb, r1.pairings[1].gameId, '1/2-1/2');
  // Each result makes the next rapid game before it answers (the writer side; a GET writes nothing): two of them, 1-0 then ½-½.
  for (const r of ['1-0', '1/2-1/2']) {
    const now = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/rounds/1`);
    await result(arb, now.pairings.at(-1).gameId, r);
  }
  const round1 = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/rounds/1`);
  assert.equal(round1.pairings.length, 4, 'two semi-finals and two rapid games');
  const r2 = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  for (const p of r2.pairings) await result(arb, p.gameId, p.match === '3P' ? '0-1' : '1-0');
  const places = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/standings?view=overall`);
  return { ev, arb, round1, places };
}

test('an individual knockout\'s players table: bracket places, rapid games inside their round as 附加快棋 n, a podium of places', async () => {
  const { ev, places } = await cup();
  const want = places.rows.map((r) => [r.place, r.name]);
  assert.deepEqual(want.map(([p]) => p), [1, 2, 3, 4], 'the API gives four places');
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'zh-CN'], [360, 'en-US'], [1280, 'en-US']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/t/${ev.id}?tab=standings`);
    await page.locator('.podium-list').first().waitFor();
    // The overall view comes first; the players table is the next view.
    await page.locator('select[aria-label]').first().selectOption('players');
    const table = page.locator('table.standings');
    await table.locator('tbody tr').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table.standings .col-round').length > 0);
    const heads = await table.locator('thead th.col-round').allInnerTexts();
    assert.equal(heads.length, 2, `${width} ${locale}: two rounds, not the rapid games as rounds: ${heads}`);
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [Number(tr.cells[0].innerText), tr.querySelector('th.name button').innerText]));
    assert.deepEqual(rows, want, `${width} ${locale}: the rows go by the bracket's places`);
    const text = await table.innerText();
    assert.ok(!/并列|shared|tied/i.test(text), `${width} ${locale}: the bracket decides, yet: ${text}`);
    const rapid = await table.locator('small.ko-rapid').allInnerTexts();
    assert.equal(rapid.length, 4, `the two rapid games, in both players' round-1 cells: ${rapid}`);
    for (const r of rapid) assert.match(r, locale === 'zh-CN' ? /^附加快棋第 [12] 局/ : /^Additional rapid game [12]/);
    const podium = await page.locator('.podium-list li').allInnerTexts();
    assert.equal(podium.length, 3, `three on the podium: ${podium}`);
    for (const [i, line] of podium.entries()) {
      assert.ok(line.includes(want[i][1]), `podium ${i + 1}: ${line}, want ${want[i][1]}`);
      assert.ok(!/—/.test(line), `the podium gives places, not points: ${line}`);
    }
    await screenshot(page, `leftovers-ko-players-${width}-${locale.slice(0, 2)}`);
    assertNoErrors(page, `ko players ${width}`);
    await page.context().close();
  }
});

test('a rapid game\'s "?" says the tie, the game of the rapid match and the time control in words, in zh and en, never an id', async () => {
  const { ev, round1 } = await cup();
  const rapid = round1.pairings.filter((p) => p.board > 1);
  const wants = {
    'zh-CN': [/第1轮第2组常规对局战平：附加快棋第1场第1局，时限每方10分钟走40步，此后每5分钟走30步/, /第1轮第2组常规对局战平：附加快棋第1场第2局/],
    'en-US': [/round 1, match 2 level after the regular games: additional rapid match 1, game 1, at 10 minutes each for 40 moves, then 5 minutes for every 30 moves/,
      /additional rapid match 1, game 2,/],
  };
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'zh-CN'], [360, 'en-US'], [1280, 'en-US']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/t/${ev.id}?tab=pairings`);
    await page.locator('select[aria-label]').first().selectOption('1');
    for (const [i, p] of rapid.entries()) {
      const row = page.locator(`tr[data-table="${p.table}"]`);
      await row.locator('button.why-btn').click();
      const why = page.locator(`#why-${p.table}-${p.board}`);
      await why.waitFor();
      const text = await why.innerText();
      assert.match(text, wants[locale][i], `${width} ${locale} table ${p.table}: ${text}`);
      assert.ok(!/R\d+-\d+|rapid-10|\/40\+/.test(text), `an internal id in: ${text}`);
    }
    await screenshot(page, `leftovers-ko-why-${width}-${locale.slice(0, 2)}`);
    assertNoErrors(page, `ko why ${width}`);
    await page.context().close();
  }
});
