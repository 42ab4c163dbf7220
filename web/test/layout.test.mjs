// layout.test.mjs — the event page's layout at 360 and 1280 px, in Chinese
// and English, public and organiser: screenshots (web/test/out/) and the
// layout facts a person would check on them — no sideways scrolling of the
// page, tabs side by side without overlapping and inside the screen, the
// event's name and facts inside the screen, table cells that do not overlap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

// event is the page's event, made once through the API on first use: a
// five-player Swiss with round 1 paired and one result in.
let made = null;
const event = () => (made ||= (async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: '周六快棋公开赛 Saturday Rapid Open', rounds: 5, timeControl: 'rapid-10/40+5/30' } });
  for (const [name, rating, club] of [['王天一', 2650, '杭州'], ['郑惟桐', 2600, '四川'], ['Xu Yinchuan', 2550, 'Guangdong'], ['洪智', 2500, '上海'], ['赵鑫鑫', 2480, '浙江']]) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name, rating, club } });
  }
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'Arb' } });
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  await apiCall(server.base, 'POST', `/games/${r.pairings[0].gameId}/result`, { token: arb.token, body: { result: '1-0' } });
  return ev;
})());

// facts measures what the screenshot shows.
const facts = (page) => page.evaluate(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top, b: r.bottom, w: r.width, h: r.height }; };
  const tabs = [...document.querySelectorAll('.tabs .tab')].map(box);
  const row = document.querySelector('table.pairings tbody tr');
  return {
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    width: document.documentElement.clientWidth,
    tabs,
    title: box(document.querySelector('.event-header h1')),
    meta: [...document.querySelectorAll('.event-meta li')].map(box),
    cells: row ? [...row.children].map(box) : [],
  };
});

const overlaps = (a, b) => a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;

for (const width of [360, 1280]) {
  for (const locale of ['zh-CN', 'en-US']) {
    const lang = locale.slice(0, 2);
    test(`the event page at ${width} px in ${lang}: pairings and standings fit, tabs and cells do not overlap`, async () => {
      const ev = await event();
      const page = await newPage(browser, { width, locale });
      await page.goto(`${server.base}/t/${ev.id}`);
      await page.locator('table.pairings tr[data-table="1"] td.result a:not(.playing)').waitFor();
      const f = await facts(page);
      await screenshot(page, `event-pairings-${width}-${lang}`);
      assert.ok(f.overflow <= 0, `the page scrolls sideways by ${f.overflow}px`);
      assert.ok(f.tabs.length >= 5);
      for (const [i, a] of f.tabs.entries()) {
        assert.ok(a.l >= 0 && a.r <= f.width + 0.5, `tab ${i} is outside the screen: ${JSON.stringify(a)}`);
        assert.ok(a.h >= 24, `tab ${i} is ${a.h}px high: too small to tap`);
        for (const b of f.tabs.slice(i + 1)) assert.ok(!overlaps(a, b), `tabs overlap: ${JSON.stringify([a, b])}`);
      }
      assert.ok(f.title.l >= 0 && f.title.r <= f.width + 0.5, `the event's name is outside the screen: ${JSON.stringify(f.title)}`);
      for (const m of f.meta) assert.ok(m.r <= f.width + 0.5, `a fact under the name is cut: ${JSON.stringify(m)}`);
      for (const [i, a] of f.cells.entries()) for (const b of f.cells.slice(i + 1)) assert.ok(!overlaps(a, b), `pairing cells overlap: ${JSON.stringify([a, b])}`);
      await page.locator('#tab-standings').click();
      await page.locator('table.standings tbody tr').first().waitFor();
      await screenshot(page, `event-standings-${width}-${lang}`);
      const g = await facts(page);
      assert.ok(g.overflow <= 0, `the standings page scrolls sideways by ${g.overflow}px`);
      assertNoErrors(page, `event ${width} ${lang}`);
      await page.context().close();
    });
  }
}

test('the organiser\'s console at 360 and 1280 px: no sideways scrolling, the forms inside the screen', async () => {
  const ev = await event();
  for (const [width, locale] of [[1280, 'en-US'], [360, 'zh-CN']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/t/${ev.id}#token=${ev.token}`);
    await page.locator('#pair-next').waitFor();
    await screenshot(page, `event-organiser-${width}-${locale.slice(0, 2)}`);
    const f = await facts(page);
    assert.ok(f.overflow <= 0, `${width}: the console scrolls sideways by ${f.overflow}px`);
    await page.locator('#tab-players').click();
    await page.locator('#register-player').waitFor();
    const form = await page.locator('#register-player').evaluate((el) => { const r = el.getBoundingClientRect(); return { l: r.left, r: r.right }; });
    assert.ok(form.l >= 0 && form.r <= f.width + 0.5, `${width}: the registration form is outside the screen: ${JSON.stringify(form)}`);
    await screenshot(page, `event-players-organiser-${width}-${locale.slice(0, 2)}`);
    assertNoErrors(page, `organiser ${width}`);
    await page.context().close();
  }
});
