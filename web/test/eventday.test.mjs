// eventday.test.mjs — the web client on an event day (issue 34), one test
// (or more) per point, at the phone and laptop sizes each concerns:
//  1 links can always be had again (a second browser gets a working player
//    link; the slips print page shows QR codes that decode to working links)
//  2 a paired round is said to be paired, not running; Start comes first
//  3 the player's two clocks and resign button inside 1280×800 and 1366×768
//  4 a wrong or replaced token is said to be wrong
//  5 a Chinese refusal has no English sentence and no id; English names tables
//  6 the numbers the pairing used are the ones the pages show
//  7 a duplicate registration asks first; Remove before round 1 says who
//  8 a flag fall shows without another reader
//  9 no page wider than a 360 px screen, every tab on it
// 10 the rule book's piece characters and river; the standings spreadsheet

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { useStack, newPage, assertNoErrors, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

const require = createRequire(import.meta.url);
const jsqrSource = readFileSync(require.resolve('jsqr/dist/jsQR.js'), 'utf8');

const PLAYERS = [['王天一', 2650, '杭州'], ['郑惟桐', 2600, '四川'], ['Xu Yinchuan', 2550, 'Guangdong'], ['洪智', 2500, '上海'],
  ['赵鑫鑫', 2480, '浙江'], ['孟辰', 2470, '杭州']];

// newEvent makes a Swiss of six through the API (so no browser holds a player link).
async function newEvent(name = '周六快棋 Saturday Rapid') {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name, rounds: 5, timeControl: 'rapid-10/40+5/30' } });
  ev.players = [];
  for (const [n, rating, club] of PLAYERS) {
    const p = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name: n, rating, club } });
    ev.players.push({ id: p.id, token: p.token, name: n, number: p.player.number });
  }
  return ev;
}

async function openEvent(ev, { width = 1280, height, locale = 'en-US', token = ev.token, tab } = {}) {
  const page = await newPage(browser, { width, height, locale });
  await page.goto(`${server.base}/t/${ev.id}${tab ? `?tab=${tab}` : ''}${token ? `#token=${token}` : ''}`);
  await page.locator('.event-header h1').waitFor();
  return page;
}

const meStatus = async (token) => {
  const r = await fetch(`${server.base}/me`, { headers: { Authorization: `Bearer ${token}` } });
  return r.status;
};

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('1: an organiser on a second browser gets a working player link with "New link"; the old one stops working', async () => {
  const ev = await newEvent();
  for (const [width, locale] of [[1280, 'en-US'], [360, 'zh-CN']]) {
    const page = await openEvent(ev, { width, locale, tab: 'console' });
    const rows = page.locator('#links li.link-row[data-kind="player"]');
    await rows.first().waitFor();
    assert.equal(await rows.count(), PLAYERS.length, 'every player is listed');
    const first = page.locator(`#links li.link-row[data-id="${ev.players[0].id}"]`);
    await first.locator('button.new-link').click();
    await page.locator('dialog.confirm-dialog button.primary').click();
    const link = await first.locator('input.link-input').inputValue();
    assert.match(link, new RegExp(`/t/${ev.id}#token=`));
    await screenshot(page, `eventday-console-${width}`);
    assert.ok(await overflow(page) <= 0, `the console scrolls sideways at ${width}px`);
    assertNoErrors(page, `console ${width}`);
    await page.context().close();

    const player = await newPage(browser, { width, locale });
    await player.goto(link);
    await player.locator('.me-card').waitFor();
    assert.ok((await player.locator('.me-card').innerText()).includes(ev.players[0].name), 'the new link opens the player\'s own page');
    assert.equal(await player.locator('.token-wrong strong').count(), 0);
    await player.context().close();
    assert.equal(await meStatus(ev.players[0].token), 401, 'the old link stops working');
    ev.players[0].token = link.split('#token=')[1];
  }
});

test('1: the link slips print page shows one QR code per player and per scribe table; a decoded code opens that player\'s page', async () => {
  const ev = await newEvent('Slips Open');
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'scribe', name: 'Scribe A', tables: [1, 2] } });
  for (const [width, locale] of [[1280, 'en-US'], [360, 'zh-CN']]) {
    const page = await openEvent(ev, { width, locale, tab: 'console' });
    await page.locator('#print-slips').click();
    await page.locator('dialog.confirm-dialog button.primary').click();
    await page.locator('.slips-sheet .slip svg.qr').first().waitFor({ timeout: 30000 });
    assert.equal(await page.locator('.slip-player').count(), PLAYERS.length);
    assert.equal(await page.locator('.slip-table').count(), 2, 'one slip per table the scribe keeps');
    await screenshot(page, `eventday-slips-${width}`, { fullPage: false });
    assert.ok(await overflow(page) <= 0, `the slips scroll sideways at ${width}px`);
    // Decode the first player slip's QR code as a phone camera would: the
    // drawn SVG rasterised, then read by jsQR.
    if (!(await page.evaluate(() => typeof window.jsQR === 'function'))) await page.evaluate(jsqrSource);
    const decoded = await page.evaluate(async () => {
      const svg = document.querySelector('.slip-player svg.qr');
      const text = new XMLSerializer().serializeToString(svg);
      const img = new Image();
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = 400; c.height = 400;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0, 400, 400);
      const code = window.jsQR(g.getImageData(0, 0, 400, 400).data, 400, 400);
      return code ? code.data : null;
    });
    assert.ok(decoded, 'the QR code decodes');
    assert.match(decoded, new RegExp(`^${server.base}/t/${ev.id}#token=`));
    const first = await page.locator('.slip-player').first().innerText();
    assertNoErrors(page, `slips ${width}`);
    await page.context().close();
    const player = await newPage(browser, { width, locale });
    await player.goto(decoded);
    await player.locator('.me-card').waitFor();
    const name = PLAYERS.map((p) => p[0]).find((n) => first.includes(n));
    assert.ok(name && (await player.locator('.me-card').innerText()).includes(name), `the scanned link opens ${name}'s page`);
    await player.context().close();
  }
});

test('2: a round paired but not started says so, and Start comes before pairing the next', async () => {
  const ev = await newEvent('Round State');
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  for (const [width, locale] of [[1280, 'en-US'], [360, 'zh-CN']]) {
    const page = await openEvent(ev, { width, locale });
    await page.locator('#start-round').waitFor();
    const meta = await page.locator('.event-meta').innerText();
    assert.ok(!/in play|在下/.test(meta), `a paired round is not "in play": ${meta}`);
    assert.match(meta, locale === 'zh-CN' ? /尚未开始/ : /not started/);
    assert.match(await page.locator('#start-round').getAttribute('class'), /primary/);
    assert.doesNotMatch(await page.locator('#pair-next').getAttribute('class') || '', /primary/);
    await page.context().close();
  }
  const page = await openEvent(ev, { width: 1280 });
  await page.locator('#start-round').click();
  await page.locator('#pair-next.primary').waitFor();
  assert.equal(await page.locator('#start-round').count(), 0, 'a started round offers no Start');
  await page.reload();
  await page.locator('#pair-next.primary').waitFor();
  assert.equal(await page.locator('#start-round').count(), 0, 'nor after a reload');
  assert.doesNotMatch(await page.locator('.event-meta').innerText(), /not started/);
  await page.context().close();
});

test('2 (#30 point 10): before its start time a paired round reads "paired, starts at HH:MM", never in play, on the header and an arbiter\'s tables', async () => {
  const ev = await newEvent('Start Time');
  const at = new Date(Date.now() + 7 * 60000);
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: { startsAt: at.toISOString() } });
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'A' } });
  const sc = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'scribe', name: 'S', tables: [1, 2] } });
  for (const [width, locale] of [[1280, 'en-US'], [360, 'zh-CN'], [360, 'en-US'], [1280, 'zh-CN']]) {
    for (const [who, token] of [['arbiter', arb.token], ['scribe', sc.token]]) {
      const page = await openEvent(ev, { width, locale, token });
      const meta = await page.locator('.event-meta').innerText();
      assert.ok(!/in play|Running|进行中|在下/.test(meta), `${who} ${width} ${locale}: the header says the round runs: ${meta}`);
      assert.match(meta, locale === 'zh-CN' ? /已编排/ : /Paired/);
      await page.locator('#tab-tables').click();
      const items = page.locator('ul.tables li');
      await items.first().waitFor();
      const hhmm = at.toLocaleTimeString(locale, { timeStyle: 'short' });
      for (const text of await items.allInnerTexts()) {
        assert.ok(!/in play|进行中/.test(text), `${who} ${width} ${locale}: ${text}`);
        assert.ok(text.includes(locale === 'zh-CN' ? `已编排，${hhmm} 开始` : `paired, starts at ${hhmm}`), `${who} ${locale}: ${text} (want ${hhmm})`);
      }
      if (who === 'arbiter') await screenshot(page, `leftovers-starts-${width}-${locale.slice(0, 2)}`, { fullPage: false });
      assertNoErrors(page, `${who} tables ${width}`);
      await page.context().close();
    }
  }
  // Started now, the same tables are in play.
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token, body: {} });
  const page = await openEvent(ev, { token: arb.token });
  await page.locator('#tab-tables').click();
  await page.locator('ul.tables li').first().waitFor();
  assert.match(await page.locator('ul.tables li').first().innerText(), /in play/);
  assert.match(await page.locator('.event-meta').innerText(), /Running/);
  await page.context().close();
});

test('3: the player\'s two clocks and the resign button are inside a 1280×800 and a 1366×768 window, and on a phone', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  for (const [width, height] of [[1280, 800], [1366, 768], [768, 1024], [360, 740], [390, 844]]) {
    for (const locale of ['en-US', 'zh-CN']) {
      const page = await newPage(browser, { width, height, locale });
      await page.goto(`${server.base}/g/${g.id}#token=${g.blackToken}`);
      await page.locator('.game-page[data-ply]').waitFor();
      await page.locator('.game-bar button.danger').waitFor();
      const boxes = await page.evaluate(() => {
        const box = (el) => { const r = el.getBoundingClientRect(); return { t: r.top, b: r.bottom, l: r.left, r: r.right }; };
        return { clocks: [...document.querySelectorAll('.clock')].map(box), resign: box(document.querySelector('.game-bar button.danger')),
          board: box(document.querySelector('.xq-svg')), h: innerHeight, w: document.documentElement.clientWidth };
      });
      if (width >= 768) await screenshot(page, `eventday-game-${width}x${height}-${locale.slice(0, 2)}`, { fullPage: false });
      if (width === 360) await screenshot(page, `eventday-game-360-${locale.slice(0, 2)}`, { fullPage: false });
      for (const b of [...boxes.clocks, boxes.resign]) {
        assert.ok(b.t >= 0 && b.b <= boxes.h + 0.5 && b.r <= boxes.w + 0.5, `${width}×${height}: ${JSON.stringify(b)} is outside the window (${boxes.h}px high)`);
      }
      assert.equal(boxes.clocks.length, 2);
      assert.ok(boxes.board.r - boxes.board.l >= (width >= 1280 ? 380 : 330), `the board is ${boxes.board.r - boxes.board.l}px wide`);
      assert.ok(await overflow(page) <= 0);
      assertNoErrors(page, `game ${width}`);
      await page.context().close();
    }
  }
});

test('4: a wrong or replaced token is said to be wrong and forgotten; the paste box is offered', async () => {
  const ev = await newEvent('Tokens');
  const stale = ev.players[1].token;
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players/${ev.players[1].id}/token`, { token: ev.token, body: {} });
  for (const [token, locale, width] of [['garbage', 'zh-CN', 360], [stale, 'en-US', 1280], [`${ev.id}.${ev.id}.wrongsecret`, 'en-US', 360]]) {
    const page = await openEvent(ev, { token, locale, width });
    await page.locator('.token-wrong').waitFor();
    const text = await page.locator('.token-wrong').innerText();
    assert.match(text, locale === 'zh-CN' ? /令牌有误或已失效/ : /wrong or no longer works/);
    assert.ok(await page.locator('details.token-paste[open]').isVisible(), 'the paste box is open');
    assert.equal(await page.locator('#tab-console').count(), 0, 'a wrong organiser token opens no console');
    const kept = await page.evaluate(() => JSON.stringify(localStorage));
    assert.ok(!kept.includes(token), 'the wrong token is not kept');
    await page.context().close();
  }
  // The organiser signs out on a borrowed device: the page is the public's again.
  const page = await openEvent(ev, { tab: 'console', width: 360 });
  await page.locator('#sign-out').click();
  // The sign-out reloads the page: wait for that load, not the current one
  // (waitForLoadState resolved at once on the page already loaded, and the
  // old page's console was then still there).
  const reloaded = page.waitForEvent('load');
  await page.locator('dialog.confirm-dialog button.primary').click();
  await reloaded;
  await page.locator('#tab-pairings').waitFor();
  assert.equal(await page.locator('#tab-console').count(), 0, 'signed out: no console');
  await page.context().close();
});

test('5: a refusal in Chinese names tables and the page\'s own option, no English sentence and no id; in English too', async () => {
  const ev = await newEvent('Refusals');
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token, body: {} });
  for (const [locale, width] of [['zh-CN', 360], ['en-US', 1280]]) {
    const page = await openEvent(ev, { locale, width });
    await page.locator('#pair-next').click();
    const err = page.locator('.admin .status .error');
    await err.waitFor();
    const text = await err.innerText();
    for (const p of r.pairings) assert.ok(!text.includes(p.gameId), `the refusal names game id ${p.gameId}: ${text}`);
    assert.ok(!text.includes('unfinishedAsDraws'), `the refusal names a JSON field: ${text}`);
    if (locale === 'zh-CN') {
      assert.ok(!/[A-Za-z]{3,}/.test(text), `English in the Chinese refusal: ${text}`);
      assert.match(text, /第 1 轮第 1 台/);
      assert.match(text, /未完成的对局按和棋计算后编排/);
    } else {
      assert.match(text, /round 1 table 1/);
      assert.match(text, /Pair although games are unfinished/);
    }
    await screenshot(page, `eventday-refusal-${width}`, { fullPage: false });
    await page.context().close();
  }
});

test('6: the numbers the pairing used are the numbers the players list and the pairings show', async () => {
  const ev = await newEvent('Numbers');
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  const list = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/players`);
  const number = new Map(list.players.map((p) => [p.id, p.number]));
  const page = await openEvent(ev, { token: '', width: 360, locale: 'zh-CN' });
  const row = page.locator('table.pairings tr[data-table="1"]');
  await row.waitFor();
  const nums = await row.locator('td.col-no').allInnerTexts();
  assert.deepEqual(nums.map(Number), [number.get(r.pairings[0].red), number.get(r.pairings[0].black)]);
  await page.locator('#tab-players').click();
  await page.locator('table.players tbody tr').first().waitFor();
  const shown = await page.locator('table.players tbody tr').evaluateAll((trs) => trs.map((tr) => tr.innerText));
  for (const p of list.players) assert.ok(shown.some((s) => s.startsWith(String(p.number)) && s.includes(p.name)), `${p.name} is not shown as no. ${p.number}`);
  await page.context().close();
});

test('7: a duplicate registration asks first; before round 1 a player is removed, and the question says which', async () => {
  const ev = await newEvent('Duplicates');
  const page = await openEvent(ev, { tab: 'players', width: 360, locale: 'en-US' });
  const form = page.locator('#register-player');
  await form.locator('input[name="name"]').fill('王天一');
  await form.locator('input[name="rating"]').fill('2650');
  await form.locator('input[name="club"]').fill('杭州');
  await form.locator('button[type="submit"]').click();
  const dlg = page.locator('dialog.confirm-dialog');
  await dlg.waitFor();
  assert.match(await dlg.innerText(), /王天一 \(no\. 1\) is registered already/);
  await dlg.locator('button[value="no"]').click();
  const before = (await apiCall(server.base, 'GET', `/tournaments/${ev.id}/players`)).players.length;
  assert.equal(before, PLAYERS.length, 'cancelled: nothing registered');
  const remove = page.locator(`button[aria-label$=": ${PLAYERS[5][0]}"]`, { hasText: 'Remove' });
  await remove.click();
  await dlg.waitFor();
  assert.match(await dlg.innerText(), new RegExp(`no\\. 6 ${PLAYERS[5][0]} \\(${PLAYERS[5][2]}\\)`));
  await dlg.locator('button.primary').click();
  // (the row, with its note, goes as the page re-reads the players: the stored list is what counts)
  let after = [];
  for (let i = 0; i < 100; i++) {
    after = (await apiCall(server.base, 'GET', `/tournaments/${ev.id}/players`)).players;
    if (after.length < PLAYERS.length) break;
    await page.waitForTimeout(100);
  }
  assert.equal(after.length, PLAYERS.length - 1);
  await page.locator(`table.players tbody tr:has-text("${PLAYERS[5][0]}")`).waitFor({ state: 'detached' });
  assert.ok(await overflow(page) <= 0);
  await page.context().close();
});

test('8: a flag fall shows on the player\'s page with no other reader', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: { periods: [{ moves: 0, ms: 4000 }], incrementMs: 0 } } });
  const page = await newPage(browser, { width: 1280, height: 800, locale: 'en-US' });
  await page.goto(`${server.base}/g/${g.id}#token=${g.redToken}`);
  await page.locator('.game-page[data-ply]').waitFor();
  // Nobody else reads the game: the page's own clock reaching zero asks.
  await page.locator('.game-result:not([hidden])').waitFor({ timeout: 9000 });
  const text = await page.locator('.game-result').innerText();
  assert.match(text, /0-1|time|flag/i, `the result says the flag fell: ${text}`);
  assert.match(await page.locator('.clock').first().getAttribute('class') + await page.locator('.clock').last().getAttribute('class'), /clock-flagged/);
  await page.context().close();
});

test('9: at 360 px every tab is on the screen and no tab\'s page is wider than the screen (organiser, zh and en)', async () => {
  const ev = await newEvent('手机 Phone');
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  for (const locale of ['zh-CN', 'en-US']) {
    const page = await openEvent(ev, { width: 360, locale });
    await page.locator('#tab-console').waitFor();
    const tabs = await page.locator('.tabs .tab').evaluateAll((els) => els.map((el) => el.dataset.tab));
    assert.ok(tabs.length >= 6, `tabs: ${tabs}`);
    const boxes = await page.locator('.tabs .tab').evaluateAll((els) => els.map((el) => { const r = el.getBoundingClientRect(); return { l: r.left, r: r.right }; }));
    for (const b of boxes) assert.ok(b.l >= 0 && b.r <= 360.5, `a tab is off the screen: ${JSON.stringify(b)}`);
    for (const tab of tabs) {
      await page.locator(`#tab-${tab}`).click();
      await page.waitForTimeout(300);
      await page.waitForLoadState('networkidle');
      // The players' and pairings' tables fit whole (their actions and the
      // "?" column were cut); a wider table (standings with every
      // tie-break) scrolls inside its own frame, which fits.
      const wide = await page.evaluate(() => [...document.querySelectorAll('table.players, table.pairings, .table-wrap, select, .card, button')]
        .filter((el) => el.getClientRects().length)
        .map((el) => ({ el: el.className || el.tagName, r: el.getBoundingClientRect().right }))
        .filter((x) => x.r > document.documentElement.clientWidth + 0.5));
      assert.ok(await overflow(page) <= 0, `${locale} ${tab}: the page scrolls sideways`);
      assert.deepEqual(wide, [], `${locale} ${tab}: wider than the screen`);
      if (tab === 'players') await screenshot(page, `eventday-players-360-${locale.slice(0, 2)}`);
    }
    await page.context().close();
  }
});

test('10: the board draws the rule book\'s characters and 河界; the standings spreadsheet has a BOM, readable heads, rating and club', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const page = await newPage(browser, { width: 390, locale: 'zh-CN' });
  await page.goto(`${server.base}/g/${g.id}`);
  await page.locator('.xq-pieces .xq-piece use').first().waitFor();
  const refs = await page.locator('.xq-svg use').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  const has = (ch) => refs.includes(`#xq-g-${ch.codePointAt(0).toString(16)}`);
  for (const ch of '帥將車馬砲炮相象仕士兵卒河界') assert.ok(has(ch), `the board does not draw ${ch}`);
  for (const ch of '帅将车马楚汉') assert.ok(!has(ch), `the board draws ${ch}`);
  await page.context().close();

  const ev = await newEvent('表格 Sheet');
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'A' } });
  await apiCall(server.base, 'POST', `/games/${r.pairings[0].gameId}/result`, { token: arb.token, body: { result: '1-0' } });
  const ep = await openEvent(ev, { token: '', locale: 'zh-CN', tab: 'downloads', width: 360 });
  const [dl] = await Promise.all([ep.waitForEvent('download'), ep.locator('#standings-csv').click()]);
  const text = readFileSync(await dl.path(), 'utf8');
  assert.equal(text.charCodeAt(0), 0xfeff, 'the file starts with a BOM');
  const [head, ...rows] = text.slice(1).trim().split('\r\n');
  assert.match(head, /^名次,编号,姓名,等级分,单位,积分/);
  assert.ok(!/tiebreak\.|playerId/.test(head), `API ids in the heads: ${head}`);
  assert.ok(rows.some((l) => l.includes('王天一,2650,杭州')), rows.join('\n'));
  await ep.context().close();
});

test('10: tie-breaks are picked by name and ordered, never typed as ids', async () => {
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/`);
    await page.locator('#create-event input[name=name]').fill(`Tie-breaks ${width}`);
    await page.locator('#create-event details.advanced summary').click();
    assert.equal(await page.locator('#create-event input[type=text][name=tiebreaks]').count(), 0, 'no free-text tie-break field');
    const add = page.locator('#tiebreak-add');
    const label = async (id) => add.locator(`option[value="${id}"]`).innerText();
    const wins = await label('wins');
    assert.notEqual(wins, 'wins', 'the criterion is offered by its name');
    await add.selectOption('opponentScore');
    await add.selectOption('wins');
    await page.locator('.tb-chain li[data-tiebreak="wins"] button', { hasText: '↑' }).click();
    const order = await page.locator('.tb-chain li').evaluateAll((els) => els.map((e) => e.dataset.tiebreak));
    assert.deepEqual(order, ['wins', 'opponentScore']);
    assert.ok(!/opponentScore/.test(await page.locator('.tb-chain').innerText()), 'the chain shows names, not ids');
    const answer = page.waitForResponse((r) => r.url().endsWith('/tournaments') && r.request().method() === 'POST');
    await page.locator('#create-event button[type=submit]').click();
    const created = await (await answer).json();
    assert.deepEqual(created.tournament.tiebreaks.slice(0, 2), ['wins', 'opponentScore']);
    assert.ok(await overflow(page) <= 0);
    await page.context().close();
  }
});

test('10: the offerer is told a draw offer was declined', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const page = await newPage(browser, { width: 360, locale: 'zh-CN' });
  await page.goto(`${server.base}/g/${g.id}#token=${g.redToken}`);
  await page.locator('.game-page[data-ply="0"]').waitFor();
  await apiCall(server.base, 'POST', `/games/${g.id}/moves`, { token: g.redToken, body: { move: 'h2e2', ply: 0 } });
  await apiCall(server.base, 'POST', `/games/${g.id}/draw`, { token: g.redToken, body: { action: 'offer' } });
  await apiCall(server.base, 'POST', `/games/${g.id}/clock`, { token: g.redToken, body: {} });
  await page.locator('.offer-bar:not([hidden])').waitFor();
  await apiCall(server.base, 'POST', `/games/${g.id}/draw`, { token: g.blackToken, body: { action: 'decline' } });
  const note = page.locator('.game-notice:not([hidden])');
  await note.waitFor({ timeout: 10000 });
  assert.match(await note.innerText(), /对方拒绝了你的提和/);
  await page.context().close();
});

test('10: a scribe sees no pad and no legal targets on a table it does not keep', async () => {
  const ev = await newEvent('Scribes');
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token, body: {} });
  const sc = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'scribe', name: 'S', tables: [2] } });
  const open = async (table) => {
    const page = await newPage(browser, { width: 1280, locale: 'en-US' });
    const gid = r.pairings.find((p) => p.table === table).gameId;
    await page.goto(`${server.base}/g/${gid}#token=${sc.token}`);
    await page.locator('.game-page[data-ply]').waitFor();
    return page;
  };
  const other = await open(1);
  await other.locator('.not-your-table').waitFor();
  assert.match(await other.locator('.not-your-table').innerText(), /tables 2, not this one/);
  await other.locator('.xq-point[data-square="h2"]').click();
  await other.waitForTimeout(300);
  assert.equal(await other.locator('.xq-dot').count(), 0, 'no legal targets on a table not kept');
  await other.context().close();
  const mine = await open(2);
  await mine.locator('.official-pad, .official-host, .game-side section').first().waitFor();
  assert.equal(await mine.locator('.not-your-table').count(), 0);
  await mine.locator('.xq-point[data-square="h2"]').click();
  await mine.locator('.xq-dot').first().waitFor();
  await mine.context().close();
});

test('10: a forfeit entered in the console is recorded as a forfeit', async () => {
  const ev = await newEvent('Forfeits');
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  const page = await openEvent(ev, { width: 1280 });
  const row = page.locator('table.pairings tr[data-table="1"]');
  await row.locator('select.result-select').selectOption('+-');
  assert.match(await row.locator('.unsaved-note').innerText(), /not saved yet/);
  await row.locator('.result-entry button').click();
  // (the saved note may be redrawn away at once: the stored result is what counts)
  let g = null;
  for (let i = 0; i < 100 && !(g && g.result); i++) {
    g = await apiCall(server.base, 'GET', `/games/${r.pairings[0].gameId}`);
    if (!g.result) await page.waitForTimeout(100);
  }
  assert.equal(g.result, '+-');
  assert.equal(g.reason, 'forfeit');
  await page.context().close();
});
