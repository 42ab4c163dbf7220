// creationkey.test.mjs — a server that asks for its creation key
// (CREATION_KEY): the home page shows the refusal, asks for the key, sends it
// in X-Creation-Key, and keeps it for the next creation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useStack, newPage, assertNoErrors, checkA11y } from './harness.mjs';

let server;
let browser;
useStack((stack) => ({ server, browser } = stack), { env: { CREATION_KEY: 'club-secret-key' } });

test('creating on a server with a creation key: refused, asked for, then created', async () => {
  const page = await newPage(browser, { width: 360, locale: 'en-US' });
  await page.goto(`${server.base}/`);
  assert.equal(await page.locator('#create-event .creation-key').isVisible(), false);
  await page.locator('#create-event input[name=name]').fill('Keyed Open');
  await page.locator('#create-event button[type=submit]').click();
  await page.locator('#create-event .error[role=alert]').waitFor();
  assert.match(await page.locator('#create-event .error').textContent(), /creation key/);
  await page.locator('#create-event .creation-key input').fill('club-secret-key');
  await page.locator('#create-event button[type=submit]').click();
  await page.locator('#created a.button').waitFor();
  assert.deepEqual(await checkA11y(page), []);
  // The key is kept: the game form already has it.
  await page.reload();
  await page.locator('#create-game button[type=submit]').click();
  await page.locator('#create-game .linkbox').first().waitFor();
  assertNoErrors(page, 'creation key');
  await page.context().close();
});
