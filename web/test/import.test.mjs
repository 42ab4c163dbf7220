// import.test.mjs — importing game records from the home page (issue 19):
// a pasted two-game PGN with one broken game, and an uploaded GB18030 file.
// The good game opens on its own page with the imported moves; the broken
// one says which move fails and why.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useStack, newPage, assertNoErrors, checkA11y, screenshot } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack));

const twoGames = `[Event "Club archive"]
[Red "Wang"]
[Black "Zheng"]
[Result "1-0"]
1. 炮二平五 马８进７ {the usual reply} 2. 马二进三 (2. 兵七进一) 车９平８ 1-0

[Event "A scoresheet with a slip"]
1. C2=5 H8+7 2. H2+3 H7+7 *
`;

test('a pasted PGN with a broken game: one imported and opened, the other explained', async () => {
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  await page.goto(`${server.base}/`);
  await page.locator('#import-games textarea').fill(twoGames);
  await page.locator('#import-games button[type=submit]').click();
  await page.locator('#import-games .import-results li').nth(1).waitFor();
  const items = page.locator('#import-games .import-results li');
  assert.match(await page.locator('#import-games .import-results p').textContent(), /1 imported, 1 could not be read/);
  assert.match(await items.nth(0).textContent(), /Club archive · Wang – Zheng 1-0/);
  assert.match(await items.nth(1).textContent(), /move 2 \(black\) “H7\+7”/);
  assert.deepEqual(await checkA11y(page), []);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360 && window.innerWidth === 360), 'the page is wider than a 360-px phone');
  await screenshot(page, 'import-360');
  const href = await items.nth(0).locator('a').nth(1).getAttribute('href');
  await page.goto(`${server.base}${href}`);
  await page.getByText('Red wins').first().waitFor(); // the record's result, as the game page words it
  assertNoErrors(page, 'import');
  await page.context().close();
});

test('an uploaded GB18030 file is read as the server detects it', async () => {
  // 炮二平五 马8进7 in GB18030: the browser sends the file's bytes unchanged.
  const gb = Buffer.from('1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 \xc2\xed8\xbd\xf87 *\n', 'latin1');
  const dir = mkdtempSync(join(tmpdir(), 'xqtour-import-'));
  const path = join(dir, 'gb.pgn');
  writeFileSync(path, gb);
  const page = await newPage(browser, { width: 1280, locale: 'zh-CN' });
  await page.goto(`${server.base}/`);
  await page.locator('#import-games input[type=file]').setInputFiles(path);
  await page.locator('#import-games button[type=submit]').click();
  await page.locator('#import-games .import-results li').first().waitFor();
  assert.match(await page.locator('#import-games .import-results p').textContent(), /导入 1 盘，0 盘未能读取/);
  assertNoErrors(page, 'import gb18030');
  await page.context().close();
});
