// teams.test.mjs — the pages of team championships, knockouts and arbiters
// in real Chromium: a captain on a phone submits a lineup (one that breaks
// the roster's order is refused on the page, in its language, and not sent)
// and sees the opponent's once both are in; a team knockout's page lists the
// final places in bracket order with the podium and labels the final and the
// third-place match; a team round robin's pairings show the board score and
// the team crosstable exists, and its print layout has the chief arbiter's
// signature line; three arbiters vote on a repetition from their own
// devices and the ruling appears only after the third vote, with the G-6
// facts shown; a correction without a note is not sent. Screenshots at 360
// and 1280 px in both languages; axe-core; no console errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, checkA11y, screenshot, apiCall } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

const api = (method, path, body, token) => apiCall(server.base, method, path, { body, token });

async function a11y(page, label) {
  assert.deepEqual(await checkA11y(page), [], `${label}: axe-core found serious or critical violations`);
}

async function noOverflow(page, label) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${label}: the page is ${over}px wider than the screen`);
}

// teamEvent creates a team event and registers teams [name, [members…], [subs…]]; it returns the event and the teams as registered.
async function teamEvent(settings, teams) {
  const ev = await api('POST', '/tournaments', settings);
  const out = [];
  for (const [i, [name, members, subs = []]] of teams.entries()) {
    const res = await api('POST', `/tournaments/${ev.id}/teams`, {
      name, members: members.map((m, j) => ({ name: m, rating: 2400 - i * 10 - j })), substitutes: subs.map((m) => ({ name: m, rating: 1800 })),
    }, ev.token);
    out.push({ ...res.team, token: res.token });
  }
  return { ev, teams: out };
}

// results enters every unfinished game's result in round n: pick(pairing) names it.
async function results(ev, n, pick) {
  const r = await api('GET', `/tournaments/${ev.id}/rounds/${n}`);
  for (const p of r.pairings) if (!p.result) await api('POST', `/games/${p.gameId}/result`, { result: pick(p, r) }, ev.token);
  return api('GET', `/tournaments/${ev.id}/rounds/${n}`);
}

const yes = (page) => page.locator('dialog.confirm-dialog button[value=yes]').click();

test('a captain on a phone submits a lineup, is told why an out-of-order one is refused, and sees the opponent\'s once both are in', async () => {
  const { ev, teams } = await teamEvent({ name: '省团体赛', system: 'roundRobin', teams: true, boards: 2, substitutes: 1, teamFormat: 'boardsWithSubstitutes' },
    [['广州队', ['许银川', '吕钦'], ['黄海林']], ['佛山队', ['陈富杰', '梁军'], ['何文哲']]]);
  const startsAt = new Date(Date.now() + 30 * 60000).toISOString();
  await api('POST', `/tournaments/${ev.id}/rounds`, { startsAt }, ev.token);
  const [gz, fs] = teams;

  const cap = await newPage(browser, { width: 360, locale: 'zh-CN' });
  const lineupPosts = [];
  cap.on('request', (r) => { if (r.method() === 'POST' && r.url().includes('/lineups')) lineupPosts.push(r.url()); });
  await cap.goto(`${server.base}/t/${ev.id}#token=${gz.token}`);
  await cap.locator('#captain-lineup').waitFor();
  assert.equal(await cap.locator('#tab-lineup').getAttribute('aria-selected'), 'true', 'the captain lands on the lineup tab');
  assert.match(await cap.locator('.captain .deadline').textContent(), /提交截止还有 (29|30):\d\d/);
  assert.match(await cap.locator('.captain .cap-match').textContent(), /佛山队/);
  // T-2: the substitute (third on the roster) on board 1 before a member: refused here, in Chinese, nothing sent.
  const roster = [...gz.members, ...gz.substitutes];
  await cap.locator('#cap-board-1').selectOption(roster[2].id);
  await cap.locator('#cap-board-2').selectOption(roster[0].id);
  await cap.locator('#captain-lineup button[type=submit]').click();
  const err = cap.locator('#captain-lineup .error');
  await err.waitFor();
  assert.match(await err.textContent(), /第 2 台的 许银川 在报名名单中排在第 1 台的 黄海林 之前：分台换人（T-2）须保持报名顺序/);
  assert.equal(lineupPosts.length, 0, 'an out-of-order lineup is not sent');
  // In order: the first member and the substitute.
  await cap.locator('#cap-board-1').selectOption(roster[0].id);
  await cap.locator('#cap-board-2').selectOption(roster[2].id);
  await cap.locator('#captain-lineup button[type=submit]').click();
  await cap.locator('.cap-waiting').waitFor();
  assert.deepEqual(await cap.locator('.cap-waiting li').allTextContents(), ['许银川', '黄海林']);
  assert.equal(lineupPosts.length, 1);
  await screenshot(cap, 'captain-waiting-360');
  await a11y(cap, 'captain waiting');
  await noOverflow(cap, 'captain 360');

  // The other captain's lineup arrives (from their own phone, here the API): both show without a reload.
  await api('POST', `/tournaments/${ev.id}/rounds/1/lineups`, { lineup: [fs.members[1].id, fs.substitutes[0].id] }, fs.token);
  await cap.locator('table.lineups tbody tr').nth(1).waitFor({ timeout: 15000 });
  const rows = await cap.locator('table.lineups tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), ['1', '2']);
  assert.match(rows[0][1], /许银川 \(执红\)/);
  assert.equal(rows[0][2], '梁军');
  assert.match(rows[1][1], /黄海林 \(执黑\)/);
  assert.equal(rows[1][2], '何文哲');
  await screenshot(cap, 'captain-both-360');
  await noOverflow(cap, 'captain both 360');
  assertNoErrors(cap, 'captain');
  await cap.context().close();

  // The same page on a laptop, in English.
  const wide = await newPage(browser, { width: 1280, locale: 'en-US' });
  await wide.goto(`${server.base}/t/${ev.id}#token=${fs.token}`);
  await wide.locator('table.lineups tbody tr').nth(1).waitFor();
  assert.match(await wide.locator('.captain h3').first().textContent(), /Both lineups/);
  await screenshot(wide, 'captain-both-1280');
  await a11y(wide, 'captain 1280');
  assertNoErrors(wide, 'captain 1280');
  await wide.context().close();
});

test('a team knockout\'s page lists the final places in bracket order with the podium, and labels the final and the third-place match', async () => {
  const { ev, teams } = await teamEvent({ name: '团体淘汰赛', system: 'knockout', teams: true, boards: 2, knockout: { thirdPlace: true } },
    [['甲队', ['甲一', '甲二']], ['乙队', ['乙一', '乙二']], ['丙队', ['丙一', '丙二']], ['丁队', ['丁一', '丁二']]]);
  const name = new Map(teams.map((x) => [x.id, x.name]));
  const member = new Map(teams.flatMap((x) => x.members.map((m) => [m.id, x.id])));
  // winner(p) is the result by which team id `w` of the pairing wins its board.
  const win = (w) => (p) => (member.get(p.red) === w ? '1-0' : '0-1');
  await api('POST', `/tournaments/${ev.id}/rounds`, {}, ev.token);
  let r1 = await api('GET', `/tournaments/${ev.id}/rounds/1`);
  // Round 1: each match's home team wins both boards, but match 1 is level: board 1's red wins on each board (count-back).
  const homeOf = new Map(r1.matches.map((m) => [m.match, m.home]));
  r1 = await results(ev, 1, (p) => (p.match === r1.matches[0].match ? '1-0' : win(homeOf.get(p.match))(p)));
  await api('POST', `/tournaments/${ev.id}/rounds`, {}, ev.token);
  const r2 = await api('GET', `/tournaments/${ev.id}/rounds/2`);
  const final = r2.matches.find((m) => m.tie === 'F');
  const third = r2.matches.find((m) => m.tie === '3P');
  assert.ok(final && third, `round 2 has the final and the third-place match: ${JSON.stringify(r2.matches)}`);
  // The final's away team wins; the third-place match's home team.
  await results(ev, 2, (p) => win(p.match === final.match ? final.away : third.home)(p));
  const want = [final.away, final.home, third.home, third.away].map((id) => name.get(id));
  const overall = await api('GET', `/tournaments/${ev.id}/standings?view=overall`);
  assert.deepEqual(overall.rows.map((r) => r.name), want, 'the API\'s bracket places');

  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US']]) {
    const zh = locale === 'zh-CN';
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/t/${ev.id}?tab=standings`);
    await page.locator('table.places tbody tr').nth(3).waitFor();
    const rows = await page.locator('table.places tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.children[0].textContent, tr.children[2].textContent]));
    assert.deepEqual(rows, want.map((n, i) => [String(i + 1), n]), 'the page\'s places are the bracket\'s, not a league table');
    assert.deepEqual(await page.locator('.podium li strong').allTextContents(), want.slice(0, 3));
    assert.equal(await page.locator('.toolbar select').first().inputValue(), 'overall');
    await screenshot(page, `knockout-places-${width}`);
    await a11y(page, `knockout places ${width}`);
    await noOverflow(page, `knockout places ${width}`);
    // The bracket: round 1's ties, then the third-place match and the final, each labelled, with why each tie went as it did.
    await page.locator('#tab-bracket').click();
    await page.locator('.bracket-tie[data-tie="F"]').waitFor();
    assert.equal(await page.locator('.bracket-tie[data-tie="F"] h4').textContent(), zh ? '决赛' : 'Final');
    assert.equal(await page.locator('.bracket-tie[data-tie="3P"] h4').textContent(), zh ? '三四名决赛' : 'Third-place match');
    const ties = await page.locator('.bracket-tie').evaluateAll((els) => els.map((e) => e.dataset.tie));
    assert.deepEqual(ties, ['R1-1', 'R1-2', '3P', 'F']);
    const level = await page.locator(`.bracket-tie[data-tie="${r1.matches[0].tie}"] .decided`).textContent();
    assert.match(level, zh ? /胜出 · 按台次/ : /goes through · on the boards count-back/);
    assert.match(await page.locator('.bracket-tie[data-tie="F"] .decided').textContent(), new RegExp(want[0]));
    await screenshot(page, `knockout-bracket-${width}`);
    await a11y(page, `bracket ${width}`);
    await noOverflow(page, `bracket ${width}`);
    assertNoErrors(page, `knockout ${width}`);
    await page.context().close();
  }
});

test('a team round robin\'s pairings show the board score with board numbers, the team crosstable exists, and the print layout has the chief arbiter\'s line', async () => {
  const { ev, teams } = await teamEvent({ name: '城市联赛', system: 'roundRobin', teams: true, boards: 2 },
    [['广州队', ['许银川', '吕钦']], ['佛山队', ['陈富杰', '梁军']], ['深圳队', ['柳大华', '赵国荣']], ['东莞队', ['蒋川', '洪智']]]);
  await api('POST', `/tournaments/${ev.id}/rounds`, {}, ev.token);
  const member = new Map(teams.flatMap((x) => x.members.map((m) => [m.id, x.id])));
  // Every home team wins board 1 and draws board 2.
  const r = await results(ev, 1, (p, round) => {
    if (p.board === 2) return '1/2-1/2';
    const home = round.matches.find((m) => m.match === p.match).home;
    return member.get(p.red) === home ? '1-0' : '0-1';
  });
  const m1 = r.matches[0];
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US']]) {
    const zh = locale === 'zh-CN';
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/t/${ev.id}`);
    await page.locator('table.pairings tr.match-row').first().waitFor();
    const line = await page.locator('table.pairings tr.match-row').first().textContent();
    // 2-1-0 board scoring: a win 2, a draw 1 — 3 : 1 on boards, 2 : 0 in match points.
    assert.ok(line.includes(`${m1.homeName} 3 : 1 ${m1.awayName} (${zh ? '场分' : 'Match points'} 2 : 0)`), line);
    const boards = await page.locator('table.pairings tbody tr[data-table] td:first-child').allTextContents();
    assert.deepEqual(boards.slice(0, 2), ['1.1', '1.2']);
    await screenshot(page, `team-pairings-${width}`);
    await a11y(page, `team pairings ${width}`);
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.locator('.signature').isVisible(), 'the print layout has the signature line');
    assert.match(await page.locator('.signature').textContent(), zh ? /裁判长签名/ : /Chief arbiter’s signature/);
    await screenshot(page, `team-pairings-print-${width}`);
    await page.emulateMedia({ media: 'screen' });
    await page.locator('#tab-crosstable').click();
    await page.locator('table.team-crosstable tbody tr').nth(3).waitFor();
    const ct = await page.locator('table.team-crosstable tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    const home = ct.find((row) => row[1] === m1.homeName);
    const awayNo = String(teams.find((x) => x.id === m1.away).number);
    const col = 2 + teams.findIndex((x) => String(x.number) === awayNo);
    assert.equal(home[col], '2:0(3:1)', `the home team's cell against the away team: ${JSON.stringify(home)}`);
    assert.deepEqual(home.slice(-2), ['2', '3']);
    await screenshot(page, `team-crosstable-${width}`);
    await a11y(page, `team crosstable ${width}`);
    await noOverflow(page, `team crosstable ${width}`);
    // The team table: the name column is the team's, and board points appear once.
    await page.locator('#tab-standings').click();
    await page.locator('table.standings tbody tr').nth(3).waitFor();
    const heads = await page.locator('table.standings thead th').allTextContents();
    assert.equal(heads[2], zh ? '队名' : 'Team');
    assert.equal(heads.filter((h) => h === (zh ? '局分' : 'BP')).length, 1, `one board points column: ${heads}`);
    // Per-board rankings (台次奖).
    await page.locator('.toolbar select').first().selectOption('boards');
    await page.locator('.board-rankings section').nth(1).waitFor();
    assert.equal(await page.locator('.board-rankings h3').first().textContent(), zh ? '第 1 台' : 'Board 1');
    assert.equal(await page.locator('.board-rankings section').first().locator('tbody tr').count(), 4);
    await screenshot(page, `team-boards-${width}`);
    await noOverflow(page, `team boards ${width}`);
    assertNoErrors(page, `team rr ${width}`);
    await page.context().close();
  }
});

test('three arbiters vote on a repetition from their own devices; the ruling shows only after the third vote, with the G-6 facts', async () => {
  const ev = await api('POST', '/tournaments', { name: '三裁判', system: 'swiss', rounds: 3, timeControl: 'rapid-10/40+5/30' });
  const tokens = {};
  for (const n of ['甲', '乙']) {
    const p = await api('POST', `/tournaments/${ev.id}/players`, { name: n, rating: 1500 }, ev.token);
    tokens[p.id] = p.token;
  }
  const arbs = [];
  for (const [n, role] of [['张', 'arbiter'], ['王', 'arbiter'], ['李', 'chiefArbiter']]) arbs.push((await api('POST', `/tournaments/${ev.id}/officials`, { name: n, role }, ev.token)).token);
  const round = await api('POST', `/tournaments/${ev.id}/rounds`, { startsAt: new Date(Date.now() - 5000).toISOString() }, ev.token);
  const p = round.pairings[0];
  const cycle = [['red', 'h0g2'], ['black', 'h9g7'], ['red', 'g2h0'], ['black', 'g7h9']];
  let ply = 0;
  for (let i = 0; i < 6 * 4; i++) {
    const [side, move] = cycle[i % 4];
    await api('POST', `/games/${p.gameId}/moves`, { move, ply, press: true }, tokens[side === 'red' ? p.red : p.black]);
    ply++;
  }
  const st = await api('GET', `/games/${p.gameId}`);
  assert.equal(st.status, 'pendingRuling');

  const pads = [];
  for (const [i, [width, locale]] of [[1280, 'zh-CN'], [360, 'zh-CN'], [1280, 'en-US']].entries()) {
    const page = await newPage(browser, { width, locale });
    await page.goto(`${server.base}/g/${p.gameId}#token=${arbs[i]}`);
    await page.locator('#repetition-ruling:not([hidden]) .fact').nth(1).waitFor();
    pads.push(page);
  }
  const [a, b, c] = pads;
  // A spectator sees that a ruling is awaited and, later, the ruling; never the arbiters' tools.
  const viewer = await newPage(browser, { width: 360, locale: 'en-US' });
  await viewer.goto(`${server.base}/g/${p.gameId}`);
  await viewer.locator('#repetition-ruling-public .sealed[data-cast="0"]').waitFor();
  assert.equal(await viewer.locator('#repetition-ruling-public button').count(), 0);
  // The facts for each side and the cycle itself.
  assert.match(await a.locator('#repetition-ruling').textContent(), /局面重复 6 次（每次循环 4 着）/);
  // The cycle in the reader's notation (Chinese here), once the move list has it.
  await a.locator('#repetition-ruling .cycle', { hasText: '马二进三 马8进7 马三退二 马7退8' }).waitFor();
  for (const side of ['red', 'black']) {
    assert.ok((await a.locator(`#repetition-ruling .fact[data-side="${side}"] li`).count()) >= 1, `facts for ${side}`);
  }
  assert.ok(await a.locator('#repetition-ruling').isVisible());
  // The ruling section is on screen on a laptop without scrolling.
  const box = await a.locator('#repetition-ruling').boundingBox();
  assert.ok(box && box.y < 900, `the ruling starts at y=${box && box.y}`);
  await screenshot(a, 'ruling-pending-1280');
  await a11y(a, 'ruling pad');

  // First vote, with the root of the cycle.
  await a.locator('#rul-note').fill('黑马h9g7起循环');
  await a.locator('button[data-vote="black"]').click();
  await yes(a);
  await a.locator('#repetition-ruling .ok').waitFor();
  await b.locator('#repetition-ruling .sealed[data-cast="1"]').waitFor({ timeout: 15000 });
  assert.equal(await b.locator('#repetition-ruling .ruled').count(), 0);
  assert.doesNotMatch(await b.locator('#repetition-ruling').textContent(), /黑马h9g7起循环/, 'a sealed vote is not shown');
  await b.locator('button[data-vote="red"]').click();
  await yes(b);
  await c.locator('#repetition-ruling .sealed[data-cast="2"]').waitFor({ timeout: 15000 });
  assert.equal(await c.locator('#repetition-ruling .ruled').count(), 0, 'no ruling before the third vote');
  assert.equal((await api('GET', `/games/${p.gameId}`)).status, 'pendingRuling');
  await screenshot(b, 'ruling-sealed-360');
  await c.locator('button[data-vote="black"]').click();
  await yes(c);
  for (const page of pads) await page.locator('#repetition-ruling .ruled').waitFor({ timeout: 15000 });
  assert.match(await a.locator('#repetition-ruling .ruled').textContent(), /裁决：黑方负/);
  assert.match(await c.locator('#repetition-ruling .ruled').textContent(), /Ruling: Black loses/);
  assert.equal(await a.locator('#repetition-ruling .vote-list li').count(), 3);
  assert.match(await a.locator('#repetition-ruling .vote-list').textContent(), /黑马h9g7起循环/);
  await viewer.locator('#repetition-ruling-public .ruled', { hasText: 'Ruling: Black loses' }).waitFor({ timeout: 15000 });
  assert.match(await viewer.locator('#repetition-ruling-public .vote-list').textContent(), /黑马h9g7起循环/, 'the votes and their notes stay on the game page');
  await screenshot(viewer, 'ruling-public-360-en');
  assertNoErrors(viewer, 'spectator');
  await viewer.context().close();
  const done = await api('GET', `/games/${p.gameId}`);
  assert.equal(done.result, '1-0');
  await screenshot(a, 'ruling-done-1280');
  await screenshot(c, 'ruling-done-1280-en');
  await screenshot(b, 'ruling-done-360');
  for (const page of pads) {
    assertNoErrors(page, 'arbiter pad');
    await page.context().close();
  }
});

test('a correction without a note is not sent; with one it asks for confirmation and is kept with its reason', async () => {
  const ev = await api('POST', '/tournaments', { name: 'Corrections', system: 'swiss', rounds: 3 });
  for (const n of ['A', 'B']) await api('POST', `/tournaments/${ev.id}/players`, { name: n, rating: 1500 }, ev.token);
  const round = await api('POST', `/tournaments/${ev.id}/rounds`, {}, ev.token);
  const gid = round.pairings[0].gameId;
  await api('POST', `/games/${gid}/result`, { result: '0-1' }, ev.token);
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US']]) {
    const zh = locale === 'zh-CN';
    const org = await newPage(browser, { width, locale });
    const posts = [];
    org.on('request', (r) => { if (r.method() === 'POST' && r.url().includes('/games/')) posts.push(r.postData()); });
    await org.goto(`${server.base}/t/${ev.id}#token=${ev.token}`);
    const row = org.locator('table.pairings tr[data-table="1"]');
    await row.locator('.result-entry select').waitFor();
    assert.equal(await row.locator('.result-entry select').inputValue(), '', 'the select starts empty');
    await row.locator('.result-entry select').selectOption(width === 360 ? '1/2-1/2' : '1-0');
    await row.locator('.result-entry button').click();
    await row.locator('.result-entry .error').waitFor();
    assert.match(await row.locator('.result-entry .error').textContent(), zh ? /更正结果须填写理由/ : /A correction needs a reason/);
    assert.equal(posts.length, 0, 'nothing is sent without a note');
    await screenshot(org, `correction-refused-${width}`);
    await row.locator('.result-entry input.correction-note').fill(zh ? '记录员记错' : 'scoresheet misread');
    await row.locator('.result-entry button').click();
    await org.locator('dialog.confirm-dialog').waitFor();
    await screenshot(org, `correction-confirm-${width}`, { fullPage: false });
    await yes(org);
    await org.locator(`table.pairings tr[data-table="1"] td.result a:text-is("${width === 360 ? '½-½' : '1-0'}")`).waitFor();
    assert.equal(posts.length, 1);
    assert.match(posts[0], zh ? /记录员记错/ : /scoresheet misread/);
    assertNoErrors(org, 'corrections');
    await org.context().close();
  }
  const g = await api('GET', `/games/${gid}`);
  assert.deepEqual(g.corrections.map((x) => x.note), ['记录员记错', 'scoresheet misread']);
});

test('the console lists the officials after a reload and issues a new link; the old one stops working', async () => {
  const ev = await api('POST', '/tournaments', { name: 'Officials', system: 'swiss', rounds: 3 });
  const arb = await api('POST', `/tournaments/${ev.id}/officials`, { role: 'arbiter', name: '张裁判' }, ev.token);
  await api('POST', `/tournaments/${ev.id}/officials`, { role: 'scribe', name: '李记录', tables: [1, 2] }, ev.token);
  for (const [width, locale] of [[360, 'zh-CN'], [1280, 'en-US']]) {
    const org = await newPage(browser, { width, locale });
    await org.goto(`${server.base}/t/${ev.id}?tab=console#token=${ev.token}`);
    await org.locator('.officials-list li[data-official]').nth(1).waitFor();
    const items = await org.locator('.officials-list li[data-official] > span').allTextContents();
    assert.deepEqual(items, locale === 'zh-CN' ? ['张裁判 (裁判)', '李记录 (记录员) · 第 1, 2 台'] : ['张裁判 (Arbiter)', '李记录 (Scribe) · tables 1, 2']);
    await screenshot(org, `console-officials-${width}`);
    await a11y(org, `console officials ${width}`);
    await noOverflow(org, `console officials ${width}`);
    assertNoErrors(org, 'officials');
    await org.context().close();
  }
  const org = await newPage(browser, { width: 1280 });
  await org.goto(`${server.base}/t/${ev.id}?tab=console#token=${ev.token}`);
  await org.locator(`.officials-list button[data-official="${arb.id}"]`).click();
  const link = await org.locator(`.officials-list li[data-official="${arb.id}"] .linkbox input`).inputValue();
  const fresh = decodeURIComponent(/#token=(.+)$/.exec(link)[1]);
  assert.notEqual(fresh, arb.token);
  assert.equal((await api('GET', '/me', undefined, fresh)).role, 'arbiter');
  await assert.rejects(api('GET', '/me', undefined, arb.token), /401/);
  assertNoErrors(org, 'officials reissue');
  await org.context().close();
});

test('D-1 with auto-press on: a scribe\'s draw offer for the side to move goes with its next move', async () => {
  const ev = await api('POST', '/tournaments', { name: '记录员提和', system: 'swiss', rounds: 3, timeControl: 'rapid-10/40+5/30' });
  for (const n of ['甲', '乙']) await api('POST', `/tournaments/${ev.id}/players`, { name: n, rating: 1500 }, ev.token);
  const scribe = await api('POST', `/tournaments/${ev.id}/officials`, { name: '书记员', role: 'scribe', tables: [1] }, ev.token);
  const round = await api('POST', `/tournaments/${ev.id}/rounds`, { startsAt: new Date(Date.now() - 5000).toISOString() }, ev.token);
  const gid = round.pairings[0].gameId;
  const pad = await newPage(browser, { width: 360, locale: 'zh-CN' });
  await pad.goto(`${server.base}/g/${gid}#token=${scribe.token}`);
  await pad.locator('.game-page[data-ply="0"]').waitFor();
  await pad.locator('.official-pad select[id$="-dside"]').selectOption('red');
  await pad.locator('.official-pad button', { hasText: '提和' }).first().click();
  await pad.getByText('红方的提和将随其下一着一起提出').waitFor();
  await pad.locator('.xq-point[data-square="h2"]').click();
  await pad.locator('.xq-dot, .xq-capture-hint').first().waitFor();
  await pad.locator('.xq-point[data-square="e2"]').click();
  await pad.locator('.game-page[data-ply="1"]').waitFor();
  let g;
  for (let i = 0; i < 50; i++) {
    g = await api('GET', `/games/${gid}`);
    if (g.drawOffer.pending && !g.clocks.awaitingPress) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(g.drawOffer.pending, true, 'the offer is recorded');
  assert.equal(g.drawOffer.by, 'red');
  assert.equal(g.clocks.running, 'black', 'and the clock pressed after it');
  assert.equal(await pad.locator('.game-error:not([hidden])').count(), 0, 'nothing refused');
  await screenshot(pad, 'scribe-draw-offer-360');
  assertNoErrors(pad, 'scribe draw');
  await pad.context().close();
});
