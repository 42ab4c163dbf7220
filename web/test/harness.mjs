// harness.mjs — what every browser test needs: the local stack (as `make run`
// starts it) on a free loopback port with a fresh DATA_DIR, Debian's Chromium
// driven by playwright-core (no browser download), pages that record console
// errors, axe-core checks, screenshots and a small API client for setting up
// fixtures without the browser.
//
//   import { useStack, newPage, checkA11y, screenshot, apiCall } from './harness.mjs';
//   let server; let browser;
//   useStack((s) => ({ server, browser } = s));

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
/** repoRoot is the repository's top folder. */
export const repoRoot = resolve(here, '..', '..');
/** outDir is where tests write screenshots (OUT_DIR, default web/test/out). */
export const outDir = process.env.OUT_DIR || join(here, 'out');

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

let binary = null;
function buildServer() {
  if (binary) return binary;
  const dir = mkdtempSync(join(tmpdir(), 'xqtour-bin-'));
  binary = join(dir, 'xqtour-local');
  execFileSync(process.env.GO || 'go', ['build', '-o', binary, './infra/local'], { cwd: repoRoot, stdio: 'inherit' });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return binary;
}

/**
 * startServer builds and starts the local stack (infra/local) on a free
 * loopback port with a temporary DATA_DIR; env adds variables. It resolves
 * to {base, stop, logs}; stop() ends the server and removes the data.
 */
export async function startServer({ env = {} } = {}) {
  const bin = buildServer();
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'xqtour-data-'));
  const logs = [];
  const proc = spawn(bin, [], {
    cwd: repoRoot,
    env: { ...process.env, ADDR: `127.0.0.1:${port}`, DATA_DIR: data, DYNAMODB_ENDPOINT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (b) => logs.push(String(b)));
  proc.stderr.on('data', (b) => logs.push(String(b)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the local server exited: ${logs.join('')}`);
    try {
      const r = await fetch(`${base}/openapi.json`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) { proc.kill(); throw new Error(`the local server did not start: ${logs.join('')}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    if (proc.exitCode === null) {
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([done, new Promise((r) => setTimeout(r, 10000))]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
    rmSync(data, { recursive: true, force: true });
  };
  return { base, stop, logs };
}

/**
 * useStack starts the local stack (with env) and a browser before the
 * file's tests, hands them to set({server, browser}), and stops both after.
 * XQ_DEV_BASE points the tests at a server already running instead (not
 * when env is given: that stack needs its own settings).
 */
export function useStack(set, { env } = {}) {
  let stack = {};
  before(async () => {
    const server = process.env.XQ_DEV_BASE && !env ? { base: process.env.XQ_DEV_BASE, stop: async () => {} } : await startServer({ env });
    stack = { server, browser: await launchBrowser() };
    set(stack);
  });
  after(async () => {
    if (stack.browser) await stack.browser.close();
    if (stack.server) await stack.server.stop();
  });
}

/** chromiumArgs are the flags every test browser runs with. */
export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * launchBrowser starts Debian's Chromium (CHROMIUM or /usr/bin/chromium) with
 * a new, temporary user-data-dir (playwright makes one per launch).
 */
export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath} (.ci/run installs Debian's chromium)`);
  return chromium.launch({ executablePath, args: chromiumArgs, headless: true });
}

/**
 * newPage opens a page in a fresh context (its own storage) at the given
 * viewport width (360 phone, 1280 desktop) and locale ("zh-CN" or "en-US").
 * page.errors collects console errors, page errors and failed requests that
 * were not API refusals; assertNoErrors(page) fails the test on any.
 */
export async function newPage(browser, { width = 1280, height, locale = 'en-US', touch } = {}) {
  const ctx = await browser.newContext({
    viewport: { width, height: height || (width <= 480 ? 740 : 900) },
    locale,
    hasTouch: touch ?? width <= 480,
    isMobile: width <= 480,
    deviceScaleFactor: 1,
  });
  const page = await ctx.newPage();
  page.errors = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // A refused API call logs "Failed to load resource: … 4xx" in Chromium;
    // the page shows those refusals itself, so only other errors count.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    // The WebSocket may be absent (no push server): the page falls back to polling.
    if (/WebSocket connection to .* failed/.test(msg.text())) return;
    page.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.message}`));
  return page;
}

/** assertNoErrors throws when the page logged an error. */
export function assertNoErrors(page, label = '') {
  if (page.errors.length) throw new Error(`${label} console errors:\n${page.errors.join('\n')}`);
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * checkA11y runs axe-core on the page and returns the serious and critical
 * violations (empty when the page passes), each as "id: help (targets)".
 * axe is evaluated through DevTools, which the page's CSP does not govern
 * (a <script> tag would be refused by it, rightly).
 */
export async function checkA11y(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const res = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return res.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** screenshot writes a full-page PNG to outDir/<name>.png and returns its path. */
export async function screenshot(page, name, { fullPage = true } = {}) {
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/**
 * apiCall calls the API from the test (fixtures): JSON in and out, a fresh
 * Idempotency-Key on every POST; it throws with the API's message on a refusal.
 */
export async function apiCall(base, method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === 'POST') { headers['Idempotency-Key'] = randomUUID(); headers['Content-Type'] = 'application/json'; }
  const res = await fetch(base + path, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
