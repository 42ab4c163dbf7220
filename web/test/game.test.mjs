// game.test.mjs — the game page (/g/{gid}) in real Chromium: two players
// play a five-ply mate by clicks on the board, each page following the
// other's moves without a reload; a move whose answer is lost is not sent
// twice; an arbiter enters a result on the table pad. Screenshots at 360 px
// and 1280 px, axe-core, and no console errors on every page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, checkA11y, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

// G-1: a five-ply mate from the start (炮八平七 士6进5 炮七进四 炮2平3 炮七进三).
const MATE = ['b2c2', 'f9e8', 'c2c6', 'b7c7', 'c6c9'];

// pairStarted pairs the next round with a start time just past, so its games'
// clocks run at once (C-1, C-6: a round's clocks start at its start).
const pairStarted = (ev) => apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`,
  { token: ev.token, body: { startsAt: new Date(Date.now() - 5000).toISOString() } });

const point = (page, sq) => page.locator(`.xq-point[data-square="${sq}"]`);

async function openGame(gid, token, opts) {
  const page = await newPage(browser, opts);
  await page.goto(`${server.base}/g/${gid}${token ? `#token=${token}` : ''}`);
  await page.locator('.game-page[data-ply]').waitFor();
  return page;
}

const atPly = (page, ply) => page.locator(`.game-page[data-ply="${ply}"]`).waitFor();

// A move by clicks: the piece, then its target.
async function clickMove(page, move) {
  await point(page, move.slice(0, 2)).click();
  await page.locator('.xq-dot, .xq-capture-hint').first().waitFor();
  await point(page, move.slice(2)).click();
}

test('G-1: two players play to checkmate by clicks; each page follows the other live', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const red = await openGame(g.id, g.redToken, { width: 1280, locale: 'en-US' });
  const black = await openGame(g.id, g.blackToken, { width: 360, locale: 'zh-CN' });

  // The token left the address bar; each page turned the board to its side.
  assert.ok(!red.url().includes('token='), 'the token stays out of the address bar');
  const bottomLeft = async (page) => page.locator('.xq-point').nth(81).getAttribute('data-square');
  assert.equal(await bottomLeft(red), 'a0');
  assert.equal(await bottomLeft(black), 'i9');
  // Every Chinese character on the board is an embedded outline, not font text:
  // the only text left is Black's file digits.
  const texts = await red.locator('.xq-svg text').allTextContents();
  assert.deepEqual(texts.sort(), ['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  assert.equal(await red.locator('.xq-pieces .xq-piece use').count(), 32);
  // Only the side to move may move: Black's pieces show no targets yet.
  await point(black, 'f9').click();
  assert.equal(await black.locator('.xq-dot').count(), 0);

  // Black plays with the ✓/✗ confirmation on.
  await black.locator('#game-confirm').check();

  for (let i = 0; i < MATE.length; i++) {
    const mover = i % 2 === 0 ? red : black;
    const other = i % 2 === 0 ? black : red;
    await clickMove(mover, MATE[i]);
    if (mover === black) {
      await black.locator('.confirm-bar .yes').click();
    }
    await atPly(mover, i + 1);
    await atPly(other, i + 1); // pushed or polled: no reload
    if (i === 2) {
      await screenshot(red, 'game-1280-playing');
      await screenshot(black, 'game-360-playing');
      const axeMid = [...await checkA11y(red), ...await checkA11y(black)];
      assert.deepEqual(axeMid, [], 'no serious or critical axe violation mid-game');
    }
  }

  for (const page of [red, black]) {
    await page.locator('.game-page[data-status="over"]').waitFor();
  }
  assert.match(await red.locator('.game-result').innerText(), /Red wins · checkmate/);
  assert.match(await black.locator('.game-result').innerText(), /红胜 · 将死/);
  // The move list is in each reader's notation.
  await black.locator('.moves .m', { hasText: '炮七进三' }).waitFor();
  await red.locator('.moves .m', { hasText: 'C7+3' }).waitFor();
  // A screen reader heard the last move.
  assert.equal(await black.locator('.game-page > p[aria-live]').textContent(), '红方: 炮七进三');
  // The last move and the mated king are marked.
  assert.match(await point(red, 'c9').getAttribute('aria-label'), /last move/);
  // The record's downloads answer.
  const pgn = await red.locator('.downloads a', { hasText: 'PGN' }).getAttribute('href');
  const res = await fetch(server.base + pgn);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /\[Result "1-0"\]/);

  await screenshot(red, 'game-1280-over');
  await screenshot(black, 'game-360-over');
  assert.deepEqual([...await checkA11y(red), ...await checkA11y(black)], [], 'no serious or critical axe violation');
  assertNoErrors(red, 'red');
  assertNoErrors(black, 'black');
  await red.context().close();
  await black.context().close();
});

test('a move made by keyboard whose answer is lost is not sent twice; offline shows and re-reads', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const red = await openGame(g.id, g.redToken, { width: 1280 });
  // Red's clock runs between updates.
  const before = await red.locator('.seat-red .clock').innerText();
  await red.waitForTimeout(1300);
  assert.notEqual(await red.locator('.seat-red .clock').innerText(), before, 'the running clock counts down');
  const sent = [];
  let fail = 'answer'; // lose the answer of the next POST ('answer'), the request itself ('request'), or nothing
  await red.route('**/moves', async (route) => {
    sent.push(route.request().headers()['idempotency-key']);
    if (fail === 'answer') {
      fail = '';
      await route.fetch(); // the server takes the move…
      await route.abort('connectionreset'); // …but its answer is lost
      return;
    }
    if (fail === 'request') {
      fail = '';
      await route.abort('connectionreset'); // the move never reaches the server
      return;
    }
    await route.continue();
  });
  // 炮二平五 by keyboard: the focus starts on e0; arrows walk the points, Enter picks and drops.
  await point(red, 'e0').focus();
  for (const k of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp', 'Enter']) await red.keyboard.press(k);
  assert.match(await point(red, 'h2').getAttribute('aria-label'), /selected/);
  assert.match(await point(red, 'e2').getAttribute('aria-label'), /legal target/);
  for (const k of ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'Enter']) await red.keyboard.press(k);
  await atPly(red, 1);
  const view = await apiCall(server.base, 'GET', `/games/${g.id}`);
  assert.deepEqual(view.moves, ['h2e2']);
  assert.equal(sent.length, 1, `one POST for one move, got ${sent.length}`);

  // Offline: the banner shows; the opponent's move arrives when the page is back.
  await red.context().setOffline(true);
  await red.locator('.game-offline:not([hidden])').waitFor();
  await apiCall(server.base, 'POST', `/games/${g.id}/moves`, { token: g.blackToken, body: { move: 'h9g7', ply: 1, press: true } });
  await red.context().setOffline(false);
  await atPly(red, 2);
  await red.locator('.game-offline[hidden]').waitFor({ state: 'attached' });

  // A move that never reached the server is sent again, once, under the same Idempotency-Key.
  sent.length = 0;
  fail = 'request';
  await clickMove(red, 'b0c2');
  await atPly(red, 3);
  assert.deepEqual((await apiCall(server.base, 'GET', `/games/${g.id}`)).moves, ['h2e2', 'h9g7', 'b0c2']);
  assert.equal(sent.length, 2, `the lost move is resent once, got ${sent.length} POSTs`);
  assert.equal(sent[0], sent[1], 'the resend reuses the Idempotency-Key');
  red.errors = red.errors.filter((e) => !/ERR_CONNECTION_RESET|ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/.test(e));
  assertNoErrors(red, 'red');
  await red.context().close();
});

test('D-1, D-3, G-2: a draw offer goes with a move, confirmed in place, and is declined; resignation asks first', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const red = await openGame(g.id, g.redToken, { width: 1280 });
  const black = await openGame(g.id, g.blackToken, { width: 360 });
  await red.getByRole('button', { name: 'Offer draw' }).click();
  await red.getByRole('button', { name: /Offer a draw\? Confirm/ }).click();
  // D-1: the offer goes with Red's next move, before the clock press.
  await red.getByText('A draw will be offered with your next move').waitFor();
  await clickMove(red, 'h2e2');
  await black.getByRole('button', { name: 'Accept draw' }).waitFor();
  await red.getByText('Draw offered; waiting for the answer').waitFor();
  await screenshot(black, 'game-360-draw-offer');
  assert.deepEqual(await checkA11y(black), []);
  await black.getByRole('button', { name: 'Decline' }).click();
  await black.getByRole('button', { name: 'Accept draw' }).waitFor({ state: 'detached' });
  await black.getByRole('button', { name: 'Resign' }).click();
  await black.getByRole('button', { name: /Resign this game\? Confirm/ }).click();
  for (const page of [red, black]) await page.locator('.game-page[data-status="over"]').waitFor();
  assert.match(await red.locator('.game-result').innerText(), /Red wins · resignation/);
  assertNoErrors(red, 'red');
  assertNoErrors(black, 'black');
  await red.context().close();
  await black.context().close();
});

test('C-6, O-2, C-5: a player records arriving; an arbiter rules (a foul, a clock correction) and enters a result on the table pad; the public page shows it', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Pad Cup', system: 'swiss', rounds: 3, timeControl: 'rapid-5/30' } });
  const tokens = {};
  for (const name of ['甲', '乙']) {
    const p = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name, rating: 1500 } });
    tokens[p.id] = p.token;
  }
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { name: 'Arb', role: 'arbiter' } });
  const round = await pairStarted(ev);
  const gid = round.pairings[0].gameId;

  const pad = await openGame(gid, arb.token, { width: 360, locale: 'zh-CN' });
  await pad.locator('.official-pad').waitFor();
  // Names come from the event.
  await pad.locator('.seat-red .seat-label', { hasText: round.pairings[0].redName }).waitFor();
  const viewer = await openGame(gid, '', { width: 1280 });

  // Black records arriving at the board (C-6) from its own page; the button goes.
  const black = await openGame(gid, tokens[round.pairings[0].black], { width: 360 });
  await black.getByRole('button', { name: 'I am here' }).click();
  await black.getByRole('button', { name: 'I am here' }).waitFor({ state: 'detached' });
  assert.equal(await black.locator('.game-error:not([hidden])').count(), 0, 'the arrival is accepted');
  await black.context().close();

  // A foul against Red (O-2).
  await pad.locator('select[id$="-kind"]').selectOption('foul');
  await pad.locator('select[id$="-rside"]').selectOption('red');
  await pad.locator('.official-pad form').nth(1).locator('button[type=submit]').click();
  await viewer.getByText('Fouls: Red 1 · Black 0').waitFor();
  // A clock correction needs its reason (C-5): Black's clock is set to 8 s.
  await pad.locator('select[id$="-kind"]').selectOption('clock');
  await pad.locator('select[id$="-rside"]').selectOption('black');
  await pad.locator('input[id$="-remaining"]').fill('0:08');
  await pad.locator('input[id$="-note"]').fill('clock slipped');
  await pad.locator('.official-pad form').nth(1).locator('button[type=submit]').click();
  await viewer.locator('.seat-black .clock.clock-low', { hasText: /^0:0[0-8]\.\d$/ }).waitFor();
  await screenshot(pad, 'game-360-arbiter');
  assert.deepEqual(await checkA11y(pad), []);

  await pad.locator('select[id$="-result"]').selectOption('1/2-1/2');
  await pad.locator('select[id$="-reason"]').selectOption('agreement');
  await pad.locator('.official-pad form').first().locator('button[type=submit]').click();
  for (const page of [pad, viewer]) await page.locator('.game-page[data-status="over"]').waitFor();
  assert.match(await viewer.locator('.game-result').innerText(), /Draw · agreement/);
  assert.equal(await viewer.locator('.official-pad').count(), 0, 'a spectator gets no pad');
  assert.equal(await viewer.locator('.game-bar:not([hidden]) button').count(), 0, 'nor player buttons');
  assertNoErrors(pad, 'arbiter');
  assertNoErrors(viewer, 'viewer');
  await pad.context().close();
  await viewer.context().close();
});

test('a scribe records a table\'s moves by clicks and a spectator follows them', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Scribe Cup', system: 'swiss', rounds: 3, timeControl: 'rapid-10/40+5/30' } });
  for (const name of ['甲', '乙']) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name, rating: 1600 } });
  }
  const scribe = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { name: 'Scribe', role: 'scribe', tables: [1] } });
  const round = await pairStarted(ev);
  const gid = round.pairings[0].gameId;
  const pad = await openGame(gid, scribe.token, { width: 1280, locale: 'zh-CN' });
  const viewer = await openGame(gid, '', { width: 360, locale: 'zh-CN' });
  await clickMove(pad, 'h2e2'); // 炮二平五, recorded for Red
  await atPly(pad, 1);
  await clickMove(pad, 'h9g7'); // 马8进7, for Black
  await atPly(viewer, 2);
  await viewer.locator('.moves .m', { hasText: '马8进7' }).waitFor();
  // The auto-press pressed each clock: Red's runs again.
  await pad.locator('.seat-red .clock.clock-running').waitFor();
  // A paper scoresheet pasted as PGN replaces the moves entered.
  await pad.locator('.official-pad summary', { hasText: '录入记录纸' }).click();
  await pad.locator('.official-pad textarea').fill('1. 炮二平五 马8进7\n2. 马二进三 马2进3 *\n');
  await pad.getByRole('button', { name: '载入' }).click();
  await atPly(pad, 4);
  await atPly(viewer, 4);
  await viewer.locator('.moves .m', { hasText: '马2进3' }).waitFor();
  await screenshot(pad, 'game-1280-scribe');
  assert.deepEqual(await checkA11y(pad), []);
  assertNoErrors(pad, 'scribe');
  assertNoErrors(viewer, 'viewer');
  await pad.context().close();
  await viewer.context().close();
});

test('C-1: a piece can be dragged to its target and the clock pressed by hand; the clock shows tenths under ten seconds', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const red = await openGame(g.id, g.redToken, { width: 360 });
  await red.locator('#game-autopress').uncheck(); // this time Red presses by hand (C-1)
  await red.locator('.xq-board').scrollIntoViewIfNeeded();
  const from = await point(red, 'b0').boundingBox();
  const to = await point(red, 'c2').boundingBox();
  await red.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await red.mouse.down();
  await red.mouse.move(from.x + from.width / 2 + 10, from.y, { steps: 3 });
  await red.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
  await red.mouse.up();
  await atPly(red, 1);
  assert.deepEqual((await apiCall(server.base, 'GET', `/games/${g.id}`)).moves, ['b0c2']);
  // Red's clock runs until Red presses it.
  await red.locator('.seat-red .clock.clock-running').waitFor();
  await red.getByRole('button', { name: 'Press clock' }).click();
  await red.locator('.seat-black .clock.clock-running').waitFor();
  // The clock's own formatting and lichess's low-time threshold.
  const got = await red.evaluate(async () => {
    const m = await import('/assets/clock.js');
    return [m.formatClock(9440), m.formatClock(600000), m.formatClock(3723000), m.formatClock(-5),
      m.lowTimeMs({ periods: [{ moves: 40, ms: 600000 }] }), m.lowTimeMs({ periods: [{ moves: 40, ms: 5400000 }] })];
  });
  assert.deepEqual(got, ['0:09.4', '10:00', '1:02:03', '0:00.0', 60000, 60000]);
  const small = await red.evaluate(async () => (await import('/assets/clock.js')).lowTimeMs({ periods: [{ moves: 30, ms: 300000 }] }));
  assert.equal(small, 37500);
  assertNoErrors(red, 'red');
  await red.context().close();
});

test('an official\'s table list links to each table\'s game', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Tables', system: 'swiss', rounds: 3 } });
  for (const name of ['甲', '乙', '丙', '丁']) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name } });
  }
  const scribe = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { name: 'S', role: 'scribe', tables: [2] } });
  const round = await pairStarted(ev);
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  await page.goto(`${server.base}/g/${round.pairings[1].gameId}`);
  await page.locator('.game-page[data-ply]').waitFor();
  await page.evaluate(async ({ tid, token }) => {
    const host = document.createElement('div');
    host.id = 'tables-host';
    document.getElementById('main').prepend(host);
    (await import('/assets/arbiter.js')).mountTables(host, { tid, token });
  }, { tid: ev.id, token: scribe.token });
  const links = page.locator('#tables-host .tables a');
  await links.first().waitFor();
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  // Without GET /me the list is the whole round; with it, the scribe's own table.
  const all = round.pairings.map((p) => `/g/${p.gameId}`);
  assert.ok(hrefs.length >= 1 && hrefs.every((h) => all.includes(h)), `table links ${hrefs}`);
  assert.match(await page.locator('#tables-host h2').innerText(), /round 1/);
  assertNoErrors(page, 'tables');
  await page.context().close();
});

test('boards share one glyph sprite; a view-only board is a picture without focusable points', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'untimed' } });
  const page = await openGame(g.id, '', { width: 1280 });
  const facts = await page.evaluate(async () => {
    const { createBoard } = await import('/assets/board.js');
    const host = document.createElement('div');
    document.body.append(host);
    const boards = Array.from({ length: 20 }, () => createBoard(host, { viewOnly: true, label: 'mini' }));
    boards.forEach((b) => b.set({ fen: 'rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w', movable: true, legalMoves: ['h2e2'] }));
    const mini = host.querySelector('.xq-svg');
    return {
      sprites: document.querySelectorAll('#xq-glyphs').length,
      paths: document.querySelectorAll('svg path[id^="xq-g-"]').length,
      points: host.querySelectorAll('.xq-point').length,
      focusable: host.querySelectorAll('[tabindex]').length,
      role: mini.getAttribute('role'),
      label: mini.getAttribute('aria-label'),
      pieces: mini.querySelectorAll('.xq-pieces .xq-piece').length,
      desc: document.getElementById(mini.getAttribute('aria-describedby')).textContent,
      gamePoints: document.querySelectorAll('.board-host .xq-point').length,
    };
  });
  assert.equal(facts.sprites, 1, 'one sprite for 21 boards');
  assert.equal(facts.paths, 23, 'each glyph outline once in the document'); // 12 pieces, 河界, 一…九
  assert.deepEqual([facts.points, facts.focusable], [0, 0], 'a view-only board has no focusable points');
  assert.deepEqual([facts.role, facts.label, facts.pieces], ['img', 'mini', 32]);
  assert.match(facts.desc, /Red to move/);
  assert.equal(facts.gamePoints, 90, 'the game\'s own board keeps its 90 points');
  assertNoErrors(page, 'view-only');
  await page.context().close();
});

test('a new game view keeps the keyboard focus on the player\'s button', async () => {
  const g = await apiCall(server.base, 'POST', '/games', { body: { timeControl: 'rapid-10/40+5/30' } });
  const red = await openGame(g.id, g.redToken, { width: 1280 });
  const resign = red.locator('.game-bar button.danger');
  await resign.focus();
  await resign.evaluate((el) => { el.probe = 'kept'; });
  // Two moves come from elsewhere (the same seat on another device, then the opponent).
  await apiCall(server.base, 'POST', `/games/${g.id}/moves`, { token: g.redToken, body: { move: 'h2e2', ply: 0, press: true } });
  await atPly(red, 1);
  await apiCall(server.base, 'POST', `/games/${g.id}/moves`, { token: g.blackToken, body: { move: 'h9g7', ply: 1, press: true } });
  await atPly(red, 2);
  assert.equal(await red.evaluate(() => document.activeElement && document.activeElement.probe), 'kept', 'the focused button is the same element, still focused');
  // Enter on it asks in place; the ✓ has the focus.
  await red.keyboard.press('Enter');
  await red.locator('.game-bar .confirm-inline').waitFor();
  assert.match(await red.evaluate(() => document.activeElement.getAttribute('aria-label')), /Resign this game\? Confirm/);
  await red.keyboard.press('Tab');
  await red.keyboard.press('Enter'); // ✗: keep playing
  await red.locator('.game-bar button.danger').waitFor();
  assert.equal(await red.locator('.game-page').getAttribute('data-status'), 'playing');
  assertNoErrors(red, 'focus');
  await red.context().close();
});
