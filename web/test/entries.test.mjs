// entries.test.mjs — open events in the browser (E-1, E-2, E-3): a player
// enters on a phone, the link is kept on the device at once (with its QR
// code), checks in from their page and, once the round is paired and
// started, opens their game from the same device; the organiser's console
// shows the check-in desk and checks a player in there; a festival's page
// shows its sections side by side.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiCall, assertNoErrors, checkA11y, newPage, screenshot, useStack } from './harness.mjs';

let server;
let browser;
useStack((s) => { ({ server, browser } = s); });

async function openEvent(name) {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name, system: 'swiss', rounds: 5, checkIn: true } });
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/entries/open`, { token: ev.token, body: { capacity: 32, fields: ['club'] } });
  return ev;
}

for (const locale of ['zh-CN', 'en-US']) {
  test(`a player enters on a phone and opens their game from it (${locale})`, async () => {
    const ev = await openEvent(locale === 'zh-CN' ? '周日公开赛' : 'Sunday Open');
    for (const n of ['Hu Ronghua', 'Lü Qin', 'Xu Tianhong']) {
      const p = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/entries`, { body: { name: n, club: 'Shanghai' } });
      await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/checkin`, { token: p.token });
    }
    const page = await newPage(browser, { width: 360, locale });
    await page.goto(`${server.base}/t/${ev.id}/enter`);
    await page.locator('input[name="name"]').fill('Wang Tianyi');
    await page.locator('input[name="club"]').fill('Hangzhou');
    await page.locator('input[name="rating"]').fill('2650');
    await screenshot(page, `entries-form-360-${locale}`);
    await page.locator('form.enter-form button[type="submit"]').click();
    await page.locator('.enter-result .link-input').waitFor();
    const link = await page.locator('.enter-result .link-input').inputValue();
    assert.match(link, new RegExp(`/t/${ev.id}#token=${ev.id}\\.p`));
    assert.ok(await page.locator('.qr img').isVisible(), 'the QR code of the link shows');
    assert.deepEqual(await checkA11y(page), []);
    await screenshot(page, `entries-done-360-${locale}`);
    // The same device, without the link: the event page knows the player.
    await page.locator('.enter-result a.button').click();
    await page.locator('#check-in').waitFor();
    await screenshot(page, `entries-checkin-360-${locale}`);
    await page.locator('#check-in').click();
    await page.locator('.checked-in').waitFor();
    // The organiser pairs and starts round 1: all four are checked in.
    const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
    assert.equal(r.pairings.length, 2);
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token });
    await page.reload();
    await page.locator('.me-card a.button.primary').waitFor();
    await page.locator('.me-card a.button.primary').click();
    await page.waitForURL(/\/g\/g[a-z2-7]{16}$/);
    await page.locator('.seat-meta').filter({ hasText: locale === 'zh-CN' ? '你执' : 'You play' }).waitFor();
    await screenshot(page, `entries-game-360-${locale}`);
    assertNoErrors(page, 'enter');
    await page.context().close();
  });
}

test('the check-in desk: the organiser checks a player in for the next round', async () => {
  const ev = await openEvent('Desk Open');
  const ids = [];
  for (let i = 1; i <= 6; i++) {
    const p = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/entries`, { body: { name: `Player ${i}`, club: `Club ${i}` } });
    ids.push(p.id);
    if (i <= 4) await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/checkin`, { token: p.token });
  }
  for (const [width, locale] of [[1280, 'en-US'], [1366, 'zh-CN'], [390, 'en-US']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/t/${ev.id}?tab=console#token=${ev.token}`);
    await page.locator('#checkin-desk .desk-list li').nth(5).waitFor();
    await screenshot(page, `entries-desk-${width}-${locale}`);
    await page.context().close();
  }
  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  await page.goto(`${server.base}/t/${ev.id}?tab=console#token=${ev.token}`);
  const desk = page.locator('#checkin-desk');
  await desk.locator('.desk-list li').nth(5).waitFor();
  assert.match(await desk.locator('.desk-count').textContent(), /4 of 6/);
  await desk.locator(`button[data-checkin="${ids[4]}"]`).click();
  await desk.locator(`li[data-player="${ids[4]}"].in`).waitFor();
  assert.match(await desk.locator('.desk-count').textContent(), /5 of 6/);
  // The entry list beside it: every entry, none pending.
  await page.locator('#entries table.entries tbody tr').nth(5).waitFor();
  assert.deepEqual(await checkA11y(page), []);
  // Pairing now leaves out the one not checked in.
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  assert.deepEqual(r.absent, [ids[5]]);
  assertNoErrors(page, 'desk');
  await page.context().close();
});

test('a festival shows its sections side by side with their entry links', async () => {
  const fest = await apiCall(server.base, 'POST', '/festivals', { body: { name: 'City Championship' } });
  const men = await apiCall(server.base, 'POST', '/tournaments', { token: fest.token, body: { name: 'Men', system: 'swiss', rounds: 5, festival: fest.id } });
  await apiCall(server.base, 'POST', '/tournaments', { token: fest.token, body: { name: 'Teams', system: 'roundRobin', teams: true, boards: 2, festival: fest.id } });
  await apiCall(server.base, 'POST', `/tournaments/${men.id}/entries/open`, { token: fest.token, body: {} });
  for (const [width, locale] of [[1280, 'en-US'], [360, 'zh-CN']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/f/${fest.id}`);
    await page.locator('.section-card').nth(1).waitFor();
    await screenshot(page, `entries-festival-${width}-${locale}`);
    assert.equal(await page.locator('.section-card a.button.primary').count(), 1, 'only the open section has an entry link');
    if (width === 1280) {
      const [a, b] = await page.locator('.section-card').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
      assert.equal(a, b, 'side by side on a wide screen');
      await page.locator('.section-card a.button.primary').click();
      await page.locator('form.enter-form').waitFor();
      // The festival's token opens the organiser's console of each section.
      await page.goto(`${server.base}/t/${men.id}?tab=console#token=${fest.token}`);
      await page.locator('#entries').waitFor();
    }
    assertNoErrors(page, 'festival');
    await page.context().close();
  }
});
