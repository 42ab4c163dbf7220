// event.test.mjs — the home page, the organiser's console and the public
// event page in real Chromium: an organiser creates a 4-player Swiss in the
// browser, registers the players by CSV paste, pairs round 1 and starts it;
// the console keeps the players' links; results are entered and corrected;
// the public page (another browser context, no token) shows the right
// standings. Each of those starts from its own event (made through the API
// where the browser's part is another test's), so one failure hides nothing.
// Screenshots at 360 px and 1280 px; axe-core finds no serious or critical
// violation; no console errors on any page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, checkA11y, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

async function a11y(page, label) {
  const v = await checkA11y(page);
  assert.deepEqual(v, [], `${label}: axe-core found serious or critical violations`);
}

const CSV = `name,rating,club
Wang Tianyi,2650,Hangzhou
"Zheng, Weitong",2600,Beijing
Xu Yinchuan,2550,Guangdong
Hong Zhi,2500,Shanghai
`;

test('home page: every section renders at 360 and 1280 px, in both languages', async () => {
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US']]) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/`);
    await page.locator('#create-event').waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), locale === 'zh-CN' ? 'zh-Hans' : 'en');
    await page.locator('#create-event details.advanced summary').click();
    await screenshot(page, `home-${width}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `home-${width}-top`, { fullPage: false });
    await a11y(page, `home ${width}`);
    // No horizontal scrolling on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `home ${width}: the page is ${overflow}px wider than the screen`);
    assertNoErrors(page, `home ${width}`);
    await page.context().close();
  }
});

test('a form says what is missing in the page\'s language; a refusal is said from its code, never in the server\'s English on a Chinese page', async () => {
  for (const locale of ['en-US', 'zh-CN']) {
    const zh = locale === 'zh-CN';
    const page = await newPage(browser, { width: 360, locale });
    await page.goto(`${server.base}/`);
    const posts = [];
    page.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
    // An empty name: the browser's constraint check, in the page's words; nothing is sent.
    await page.locator('#create-event button[type=submit]').click();
    const name = page.locator('#create-event input[name=name]');
    assert.equal(await name.evaluate((el) => el.validationMessage), zh ? '请填写这一项' : 'Fill in this field');
    assert.ok(await name.evaluate((el) => el === document.activeElement), 'the empty field has the focus');
    assert.deepEqual(posts, [], 'an incomplete form sends nothing');
    // A refusal the page cannot foresee: a tie-break the server does not know.
    await name.fill('Refusal test');
    await page.locator('#create-event details.advanced summary').click();
    // (the picker offers only known tie-breaks: a stale page's unknown id stands in)
    await page.locator('#create-event input[name=tiebreaks]').evaluate((el) => { el.value = 'nonsense'; });
    const answer = page.waitForResponse((r) => r.url().endsWith('/tournaments') && r.request().method() === 'POST');
    await page.locator('#create-event button[type=submit]').click();
    const refusal = await (await answer).json();
    assert.equal(refusal.error.code, 'invalid_field');
    const err = page.locator('#create-event .error[role=alert]');
    await err.waitFor();
    const text = await err.textContent();
    if (zh) {
      assert.match(text, /^被拒绝：“名次区分.*”一项填写不对/); // the form's label, not the JSON name
      assert.ok(!text.includes(refusal.error.message), `a Chinese page shows the server's English message: ${text}`);
    } else {
      assert.match(text, /^Refused: .*tiebreak/i);
    }
    assertNoErrors(page, `refusal ${locale}`);
    await page.context().close();
  }
});

// swiss4 makes a 4-player Swiss through the API: the event, its players
// and round 1 paired (and started, when asked), for the tests that begin
// where the organiser's registration ends.
async function swiss4(name, { start = false } = {}) {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name, rounds: 3, timeControl: 'rapid-10/40+5/30' } });
  for (const [player, rating] of [['Wang Tianyi', 2650], ['Zheng Weitong', 2600], ['Xu Yinchuan', 2550], ['Hong Zhi', 2500]]) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name: player, rating } });
  }
  const round = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  if (start) await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token, body: {} });
  return { ev, round };
}

test('organiser creates a 4-player Swiss in the browser, registers by CSV paste, pairs round 1 with a manual change and starts it', async () => {
  const org = await newPage(browser, { width: 1280, locale: 'en-US' });
  await org.goto(`${server.base}/`);
  await org.locator('#create-event input[name=name]').fill('Saturday Swiss');
  await org.locator('#create-event select[name=system]').selectOption('swiss');
  await org.locator('#create-event input[name=rounds]').fill('3');
  await org.locator('#create-event select[name=tc]').selectOption('rapid-10/40+5/30');
  await org.locator('#create-event button[type=submit]').click();
  const open = org.locator('#created a.button');
  await open.waitFor();
  const link = await org.locator('#created input.link-input').inputValue();
  assert.match(link, /\/t\/([a-z0-9]+)#token=(\S+)$/, `organiser link ${link}`);
  await open.click();
  await org.locator('.event-header h1').waitFor();
  assert.equal(await org.locator('.event-header h1').textContent(), 'Saturday Swiss');
  // The organiser's token is kept for the event, never left in the address bar.
  assert.ok(!org.url().includes('token='), org.url());

  // Players tab: register the four by CSV paste.
  await org.locator('#tab-players').click();
  await org.locator('#register-csv textarea').fill(CSV);
  await org.locator('#register-csv button[type=submit]').click();
  await org.locator('#register-csv .ok').waitFor();
  assert.match(await org.locator('#register-csv .ok').textContent(), /4 registered, 0 refused/);
  await org.locator('table.players tbody tr').nth(3).waitFor();
  assert.equal(await org.locator('table.players tbody tr').count(), 4);
  assert.match(await org.locator('table.players').textContent(), /Zheng, Weitong/);

  // Pairings tab: pair round 1 and start it.
  await org.locator('#tab-pairings').click();
  await org.locator('#pair-next').click();
  await org.locator('table.pairings tbody tr[data-table="2"]').waitFor();
  assert.equal(await org.locator('table.pairings tbody tr[data-table]').count(), 2);
  // The explanation is one tap away.
  await org.locator('table.pairings tr[data-table="1"] .why-btn').click();
  await org.locator('table.pairings tr.why-row:not([hidden])').waitFor();
  // A manual change before the start: swap table 1's colours; the audit note goes with it.
  const redBefore = await org.locator('table.pairings tr[data-table="1"] td.name.red').textContent();
  const blackBefore = await org.locator('table.pairings tr[data-table="1"] td.name.black').textContent();
  await org.locator('details.admin summary:has-text("Manual changes")').click();
  await org.locator('details.admin select[name=action]').selectOption('swapColours');
  await org.locator('details.admin input[name=table]').fill('1');
  await org.locator('details.admin input[name=note]').fill('requested by both players');
  await org.locator('details.admin button[type=submit]').click();
  await org.locator(`table.pairings tr[data-table="1"] td.name.red:text-is("${blackBefore}")`).waitFor();
  assert.equal(await org.locator('table.pairings tr[data-table="1"] td.name.black').textContent(), redBefore);
  await org.locator('#start-round').click();
  await org.locator('.admin .ok').first().waitFor();
  await screenshot(org, 'event-organiser-pairings-1280', { fullPage: false });
  await a11y(org, 'organiser pairings');
  assertNoErrors(org, 'organiser');
  await org.context().close();
});

test('the console keeps each registered player\'s link and appoints an arbiter; the arbiter\'s and a player\'s links open their views', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Links Open', rounds: 3 } });
  const org = await newPage(browser, { width: 1280, locale: 'en-US' });
  await org.goto(`${server.base}/t/${ev.id}?tab=players#token=${ev.token}`);
  await org.locator('#register-csv textarea').fill(CSV);
  await org.locator('#register-csv button[type=submit]').click();
  await org.locator('#register-csv .ok').waitFor();
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds/1/start`, { token: ev.token, body: {} });
  // The console: the organiser link, officials, and each player's link (shown once, kept here).
  await org.locator('#tab-console').click();
  await org.locator('.console .links input.link-input').nth(3).waitFor();
  await screenshot(org, 'event-console-1280');
  await a11y(org, 'organiser console');
  const playerLinks = await org.locator('.console .links input.link-input').evaluateAll((els) => els.map((e) => e.value));
  assert.equal(playerLinks.length, 4);
  await org.locator('#appoint input[name=officialName]').fill('Li Arbiter');
  await org.locator('#appoint button[type=submit]').click();
  await org.locator('#appoint .linkbox input').waitFor();
  const arbLink = await org.locator('#appoint .linkbox input').inputValue();
  assert.match(arbLink, new RegExp(`/t/${ev.id}#token=${ev.id}\\.o`));
  assertNoErrors(org, 'console');
  await org.context().close();

  // The arbiter's link opens the event with the official's table list.
  const arbPage = await newPage(browser, { width: 360, locale: 'en-US' });
  await arbPage.goto(arbLink);
  await arbPage.locator('#tab-tables').click();
  await arbPage.locator('#panel a[href^="/g/"]').first().waitFor();
  assert.equal(await arbPage.locator('#tab-console').count(), 0);
  await a11y(arbPage, 'arbiter tables');
  assertNoErrors(arbPage, 'arbiter');
  await arbPage.context().close();

  // A player's link: "you are playing — open your game", to the right game.
  const player = await newPage(browser, { width: 360, locale: 'en-US' });
  await player.goto(playerLinks[0]);
  const go = player.locator('.me-card a.button');
  await go.waitFor();
  assert.equal((await go.textContent()).trim(), 'You are playing — open your game');
  const r1 = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/rounds/1`);
  const pid = /#token=[^.]+\.([^.]+)\./.exec(playerLinks[0])[1];
  const mine = r1.pairings.find((p) => p.red === pid || p.black === pid);
  assert.equal(await go.getAttribute('href'), `/g/${mine.gameId}`);
  assert.ok(!player.url().includes('token='), player.url());
  await player.locator('table.pairings tr.mine').waitFor();
  await screenshot(player, 'event-player-360');
  await a11y(player, 'player view');
  assertNoErrors(player, 'player');
  await player.context().close();
});

test('the organiser enters results in the console and corrects one', async () => {
  const { ev } = await swiss4('Results Open', { start: true });
  const org = await newPage(browser, { width: 1280, locale: 'en-US' });
  await org.goto(`${server.base}/t/${ev.id}#token=${ev.token}`);
  const row = (n) => org.locator(`table.pairings tr[data-table="${n}"]`);
  await row(2).waitFor();
  // Table 1: red wins (the console appoints the organiser as arbiter where it must).
  await row(1).locator('select.result-select').selectOption('1-0');
  await row(1).locator('.result-entry button').click();
  await org.locator('table.pairings tr[data-table="1"] td.result a:not(.playing)').waitFor();
  // Table 2 entered as a black win by mistake, then corrected to the draw.
  await row(2).locator('select.result-select').selectOption('0-1');
  await row(2).locator('.result-entry button').click();
  await org.locator('table.pairings tr[data-table="2"] td.result a:text-is("0-1")').waitFor();
  await row(2).locator('select.result-select').selectOption('1/2-1/2');
  // A correction says why and is confirmed (O-1).
  await row(2).locator('.result-entry input.correction-note').fill('black and white swapped on the sheet');
  await row(2).locator('.result-entry button').click();
  await org.locator('dialog.confirm-dialog button[value=yes]').click();
  await org.locator('table.pairings tr[data-table="2"] td.result a:text-is("½-½")').waitFor();
  const r1 = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/rounds/1`);
  assert.deepEqual(r1.pairings.map((p) => p.result), ['1-0', '1/2-1/2']);
  assertNoErrors(org, 'organiser results');
  await org.context().close();
});

test('the public page shows the standings the results make, the pairings and the crosstable, at 360 and 1280 px', async () => {
  const { ev, round } = await swiss4('Public Open', { start: true });
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'Arb' } });
  const t1 = round.pairings.find((p) => p.table === 1);
  const t2 = round.pairings.find((p) => p.table === 2);
  await apiCall(server.base, 'POST', `/games/${t1.gameId}/result`, { token: arb.token, body: { result: '1-0' } });
  await apiCall(server.base, 'POST', `/games/${t2.gameId}/result`, { token: arb.token, body: { result: '1/2-1/2' } });
  // Expected from the results: table 1's red 2, both of table 2 1, table 1's black 0.
  const pub = await newPage(browser, { width: 360, locale: 'zh-CN' });
  await pub.goto(`${server.base}/t/${ev.id}?tab=standings`);
  await pub.locator('table.standings tbody tr').nth(3).waitFor();
  const rows = await pub.locator('table.standings tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    rank: tr.children[0].textContent, name: tr.querySelector('th.name button, th.name').textContent, points: tr.querySelector('td.strong').textContent,
  })));
  assert.equal(rows[0].rank, '1');
  assert.match(rows[0].name, new RegExp(t1.redName));
  assert.equal(rows[0].points, '2');
  assert.deepEqual(rows.slice(1, 3).map((r) => r.points), ['1', '1']);
  assert.deepEqual(new Set(rows.slice(1, 3).map((r) => r.name.trim())), new Set([t2.redName, t2.blackName]));
  assert.match(rows[3].name, new RegExp(t1.blackName));
  assert.equal(rows[3].points, '0');
  // The API agrees with what the page shows.
  const st = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/standings`);
  assert.deepEqual(st.rows.map((r) => String(r.points)), rows.map((r) => r.points));
  // Tie-breaks carry their names and explanations.
  assert.ok(await pub.locator('table.standings thead abbr[title]').count() >= 2);
  await screenshot(pub, 'event-standings-360');
  await a11y(pub, 'public standings 360');
  // The public has no organiser controls.
  assert.equal(await pub.locator('#tab-console, #pair-next, .result-entry').count(), 0);
  await pub.locator('#tab-pairings').click();
  await pub.locator('table.pairings tbody tr[data-table="2"]').waitFor();
  assert.match(await pub.locator('table.pairings tr[data-table="2"] td.result').textContent(), /½-½/);
  await screenshot(pub, 'event-pairings-360');
  await a11y(pub, 'public pairings 360');
  await pub.locator('#tab-crosstable').click();
  await pub.locator('table.crosstable tbody tr').nth(3).waitFor();
  await screenshot(pub, 'event-crosstable-360');
  await a11y(pub, 'public crosstable 360');
  assertNoErrors(pub, 'public 360');
  await pub.context().close();

  const wide = await newPage(browser, { width: 1280, locale: 'en-US' });
  await wide.goto(`${server.base}/t/${ev.id}?tab=standings`);
  await wide.locator('table.standings tbody tr').nth(3).waitFor();
  await screenshot(wide, 'event-standings-1280');
  await a11y(wide, 'public standings 1280');
  assertNoErrors(wide, 'public 1280');
  await wide.context().close();
});

test('team event: the organiser registers two teams, pairs round 1, and the match and the team table show', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Club Teams', system: 'roundRobin', teams: true, boards: 2 } });
  const org = await newPage(browser, { width: 360, locale: 'zh-CN' });
  await org.goto(`${server.base}/t/${ev.id}#token=${ev.token}`);
  await org.locator('#tab-teams').click();
  for (const [name, members] of [['Dragons', 'Lü Qin, 2700\nXu Tianhong, 2650'], ['Tigers', 'Zhao Guorong, 2600\nJiang Chuan, 2550']]) {
    await org.locator('#register-team input[name=teamName]').fill(name);
    await org.locator('#register-team textarea[name=members]').fill(members);
    await org.locator('#register-team button[type=submit]').click();
    await org.locator(`.team h3:has-text("${name}")`).waitFor();
  }
  await org.locator('#register-team .linkbox input').waitFor();
  assert.match(await org.locator('#register-team .linkbox input').inputValue(), new RegExp(`/t/${ev.id}#token=${ev.id}\\.m`));
  await screenshot(org, 'event-teams-360');
  await a11y(org, 'teams console');
  await org.locator('#tab-pairings').click();
  await org.locator('#pair-next').click();
  await org.locator('table.pairings tr.match-row').first().waitFor();
  assert.match(await org.locator('table.pairings tr.match-row').first().textContent(), /Dragons|Tigers/);
  assert.equal(await org.locator('table.pairings tbody tr[data-table]').count(), 2);
  await screenshot(org, 'event-team-pairings-360');
  await org.locator('#tab-standings').click();
  await org.locator('table.standings tbody tr').nth(1).waitFor();
  const views = await org.locator('.toolbar select').first().locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(views, ['teams', 'boards', 'teamsByPlaces']);
  await org.locator('.toolbar select').first().selectOption('boards');
  await org.locator('table.standings tbody tr').nth(3).waitFor();
  await a11y(org, 'team standings');
  assertNoErrors(org, 'team event');
  await org.context().close();
});

test('home: a standalone game gives a link per seat; the language switch is kept', async () => {
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  await page.goto(`${server.base}/`);
  await page.locator('#create-game select[name=tc]').selectOption('untimed');
  await page.locator('#create-game button[type=submit]').click();
  await page.locator('#create-game .linkbox').nth(2).waitFor();
  const links = await page.locator('#create-game .linkbox input').evaluateAll((els) => els.map((e) => e.value));
  assert.match(links[0], /\/g\/g[a-z0-9]+#token=g[a-z0-9]+\.red\./);
  assert.match(links[1], /\/g\/g[a-z0-9]+#token=g[a-z0-9]+\.black\./);
  assert.doesNotMatch(links[2], /token/);
  // Keyboard: the switch is a button reachable by Tab, and the choice survives a reload.
  await page.locator('#lang-switch').focus();
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  await page.locator('#create-event').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-Hans');
  assert.equal(await page.locator('#create-event h2').textContent(), '创建赛事');
  await page.reload();
  await page.locator('#create-event').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-Hans');
  assertNoErrors(page, 'home game');
  await page.context().close();
});

test('event page: downloads, print layout and keyboard tabs', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Print Open', rounds: 2 } });
  for (const name of ['A One', 'B Two', 'C Three']) {
    await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name } });
  }
  const startsAt = new Date(Date.now() + 30 * 60000 + 20000).toISOString();
  await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: { startsAt } });
  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  await page.goto(`${server.base}/t/${ev.id}`);
  await page.locator('table.pairings tbody tr[data-table="1"]').waitFor();
  // The header counts down to the round's start.
  await page.locator('.event-meta li.starts').waitFor();
  assert.equal(await page.locator('.event-meta li.starts').textContent(), 'Round starts in 30 minutes');
  // The bye is listed under the pairings.
  assert.equal(await page.locator('table.pairings tr.bye-row').count(), 1);
  // Tabs follow the arrow keys.
  await page.locator('#tab-pairings').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#tab-standings').getAttribute('aria-selected'), 'true');
  await page.locator('table.standings tbody tr').nth(2).waitFor();
  // The venue wall: no navigation, the title and table only.
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('nav.tabs').isVisible(), false);
  assert.equal(await page.locator('.topbar').isVisible(), false);
  assert.equal(await page.locator('h2.print-title').isVisible(), true);
  await screenshot(page, 'event-standings-print', { fullPage: false });
  await page.emulateMedia({ media: 'screen' });
  // Downloads: the standings CSV and the round's PGN.
  await page.locator('#tab-downloads').click();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('#standings-csv').click()]);
  assert.match(csv.suggestedFilename(), /\.csv$/);
  const [pgn] = await Promise.all([page.waitForEvent('download'), page.locator('.downloads button:not(#standings-csv)').first().click()]);
  assert.match(pgn.suggestedFilename(), /\.pgn$/);
  const text = await (await pgn.createReadStream()).toArray();
  assert.match(Buffer.concat(text).toString(), /\[Game "Chinese Chess"\]/);
  await a11y(page, 'downloads');
  assertNoErrors(page, 'downloads');
  await page.context().close();

  // The organiser pauses a player and brings them back; withdrawing asks first.
  const org = await newPage(browser, { width: 360, locale: 'en-US' });
  await org.goto(`${server.base}/t/${ev.id}?tab=players#token=${ev.token}`);
  const row = org.locator('table.players tbody tr:has-text("A One")');
  await row.locator('button:has-text("Pause")').click();
  await org.locator('table.players tbody tr.paused:has-text("A One")').waitFor();
  await org.locator('table.players tbody tr:has-text("A One") button:has-text("Resume")').click();
  await org.locator('table.players tbody tr:has-text("A One") button:has-text("Pause")').waitFor();
  // The organiser's export: the whole event as JSON lines.
  await org.locator('#tab-downloads').click();
  const [exp] = await Promise.all([org.waitForEvent('download'), org.locator('#export-event').click()]);
  const lines = Buffer.concat(await (await exp.createReadStream()).toArray()).toString().trim().split('\n');
  assert.equal(JSON.parse(lines[0]).format, 'xqtour-event');
  await org.locator('#tab-players').click();
  // Withdrawing asks in a modal <dialog>: Escape keeps the player, the dialog's button withdraws.
  const withdraw = org.locator('table.players tbody tr:has-text("B Two") button:has-text("Withdraw")');
  await withdraw.click();
  const dlg = org.locator('dialog.confirm-dialog[open]');
  await dlg.waitFor();
  assert.match(await dlg.textContent(), /Withdraw no\. \d+ B Two\? This cannot be undone\./); // says which (two may share a name)
  await a11y(org, 'confirmation dialog');
  await org.keyboard.press('Escape');
  await dlg.waitFor({ state: 'detached' });
  assert.equal(await org.locator('table.players tbody tr.withdrawn').count(), 0);
  await withdraw.click();
  await dlg.locator('button[value=yes]').click();
  await org.locator('table.players tbody tr.withdrawn:has-text("B Two")').waitFor();
  await a11y(org, 'players console');
  assertNoErrors(org, 'players console');
  await org.context().close();
});

test('a finished event shows its podium and statistics', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Final Day', rounds: 1 } });
  for (const name of ['Winner', 'Runner-up']) await apiCall(server.base, 'POST', `/tournaments/${ev.id}/players`, { token: ev.token, body: { name } });
  const arb = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/officials`, { token: ev.token, body: { role: 'arbiter', name: 'Arb' } });
  const r = await apiCall(server.base, 'POST', `/tournaments/${ev.id}/rounds`, { token: ev.token, body: {} });
  const p = r.pairings[0];
  const redWins = p.redName === 'Winner';
  await apiCall(server.base, 'POST', `/games/${p.gameId}/result`, { token: arb.token, body: { result: redWins ? '1-0' : '0-1' } });
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  await page.goto(`${server.base}/t/${ev.id}?tab=standings`);
  await page.locator('.podium li').first().waitFor();
  assert.match(await page.locator('.podium li').first().textContent(), /^Winner/);
  assert.match(await page.locator('.podium').textContent(), redWins ? /Red wins 1 · Black wins 0/ : /Red wins 0 · Black wins 1/);
  assert.match(await page.locator('.event-meta').textContent(), /Finished/);
  await a11y(page, 'finished event');
  assertNoErrors(page, 'finished event');
  await page.context().close();
});

test('a registration made offline waits in the outbox, says so, and is sent once the browser is back online', async () => {
  const ev = await apiCall(server.base, 'POST', '/tournaments', { body: { name: 'Offline Open', rounds: 3 } });
  const org = await newPage(browser, { width: 1280, locale: 'zh-CN' });
  await org.goto(`${server.base}/t/${ev.id}?tab=players#token=${ev.token}`);
  await org.locator('#register-player').waitFor();
  const keys = [];
  org.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith(`/tournaments/${ev.id}/players`)) keys.push(r.headers()['idempotency-key']); });
  await org.context().setOffline(true);
  await org.locator('#register-player input[name=name]').fill('离线棋手');
  await org.locator('#register-player button[type=submit]').click();
  await org.locator('#register-player [role=status]:has-text("已排队")').waitFor();
  await org.context().setOffline(false);
  await org.locator('table.players tbody tr:has-text("离线棋手")').waitFor({ timeout: 20000 });
  await org.locator('#register-player .ok').waitFor();
  const { players } = await apiCall(server.base, 'GET', `/tournaments/${ev.id}/players`);
  assert.deepEqual(players.map((p) => p.name), ['离线棋手'], 'registered once');
  assert.ok(keys.length >= 1 && new Set(keys).size === 1, `every attempt carried the same Idempotency-Key: ${keys}`);
  org.errors = org.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|Failed to fetch/.test(e));
  assertNoErrors(org, 'offline');
  await org.context().close();
});

test('the pairing explanations follow the language the reader chose, not the browser\'s', async () => {
  const { ev } = await swiss4('Language Open');
  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  const why = async () => {
    await page.locator('table.pairings tr[data-table="1"] .why-btn').click();
    const row = page.locator('#why-1-0:not([hidden])');
    await row.waitFor();
    return row.locator('p').first().textContent();
  };
  await page.goto(`${server.base}/t/${ev.id}`);
  assert.doesNotMatch(await why(), /[\u4e00-\u9fff]/, 'an English page: the explanation in English');
  // The reader switches to Chinese in an English browser.
  await page.locator('#lang-switch').click();
  await page.waitForLoadState('load');
  await page.locator('html[lang="zh-Hans"]').waitFor();
  assert.match(await why(), /[\u4e00-\u9fff]/, 'a Chinese page: the explanation in Chinese, though the browser asks for English');
  assertNoErrors(page, 'language');
  await page.context().close();
});

test('an organiser whose browser kept the token and the player links in localStorage (the older client) keeps both', async () => {
  const { ev } = await swiss4('Upgrade Open');
  // (the console lists the event's players, each with the link kept for them)
  const p1 = (await apiCall(server.base, 'GET', `/tournaments/${ev.id}/players`)).players[0];
  const kept = [{ id: p1.id, name: p1.name, number: p1.number, token: `${ev.id}.${p1.id}.old-secret` }];
  const page = await newPage(browser, { width: 1280, locale: 'en-US' });
  // What the older client left: its keys, set before any of the page's scripts runs.
  await page.addInitScript(({ tid, token, links }) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    localStorage.setItem(`xqtour.token.event:${tid}`, token);
    localStorage.setItem(`xqtour.links.${tid}`, JSON.stringify(links));
  }, { tid: ev.id, token: ev.token, links: kept });
  await page.goto(`${server.base}/t/${ev.id}?tab=console`);
  await page.locator('.console .links input.link-input').first().waitFor();
  assert.equal(await page.locator('.console .links input.link-input').first().inputValue(), `${server.base}/t/${ev.id}#token=${kept[0].token}`);
  const left = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('xqtour.token.') || k.startsWith('xqtour.links.')));
  assert.deepEqual(left, [], 'moved out of localStorage');
  // Now in IndexedDB: a reload (no localStorage left) still opens the console.
  await page.reload();
  await page.locator('.console .links input.link-input').first().waitFor();
  const stored = await page.evaluate(() => new Promise((resolve) => {
    const req = indexedDB.open('xqtour');
    req.onsuccess = () => {
      const tx = req.result.transaction('tokens');
      const get = tx.objectStore('tokens').getAllKeys();
      get.onsuccess = () => resolve(get.result);
    };
  }));
  assert.ok(stored.includes(`event:${ev.id}`), `IndexedDB holds the organiser's token: ${stored}`);
  assertNoErrors(page, 'upgrade');
  await page.context().close();
});
