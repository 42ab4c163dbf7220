// engine.test.mjs — the rules engine in the browser (engine.js, the .wasm
// built from shared/xiangqi): loaded lazily on a served page under the
// shell's real Content-Security-Policy, it answers the start position's 44
// legal moves, notation as the server writes it, and refusals with the rule.
// Without 'wasm-unsafe-eval' in the CSP the browser refuses to compile it.
// (engine_test.go holds its answers equal to the server's on thousands of
// positions, in Node.)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, assertNoErrors } from './harness.mjs';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

let server;
let browser;

before(async () => {
  server = await startServer();
  const res = await fetch(`${server.base}/assets/xiangqi.wasm`, { method: 'HEAD' });
  if (!res.ok) throw new Error('the local stack serves no engine: make webtest builds it first (make engine, go generate ./web)');
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** useEngine imports engine.js in the page and runs the checks and timings there. */
function useEngine(page) {
  return page.evaluate(async (start) => {
    const engine = await import('/assets/engine.js');
    const t0 = performance.now();
    await engine.load();
    const loadMs = performance.now() - t0;
    const moves = await engine.legalMoves(start);
    const pos = await engine.position(start);
    const after = await engine.play(start, 'h2e2');
    const wxf = await engine.notation(start, ['h2e2', 'h9g7'], 'wxf');
    const chinese = await engine.notation(start, ['h2e2', 'h9g7'], 'chinese');
    const mate = await engine.position('3k5/9/9/9/9/9/9/9/9/3RK4 b');
    let refusal = null;
    try {
      await engine.play(start, 'h0h3');
    } catch (err) {
      refusal = { name: err.name, rule: err.rule, message: err.message };
    }
    // Median of 7 batches of 200 calls: the time per legal-move generation.
    const runs = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      for (let j = 0; j < 200; j++) await engine.legalMoves(start);
      runs.push(((performance.now() - t) * 1000) / 200);
    }
    runs.sort((a, b) => a - b);
    return { loadMs, moves, pos, after, wxf, chinese, mate, refusal, legalMovesUs: runs[3] };
  }, START);
}

test('engine.js loads the .wasm lazily under the real CSP and answers the start position', async () => {
  const loads = [];
  let perCall = [];
  for (let run = 0; run < 5; run++) { // fresh contexts: no cache, a cold load each time
    const page = await newPage(browser);
    const wasm = [];
    page.on('response', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r); });
    const res = await page.goto(`${server.base}/`);
    const csp = res.headers()['content-security-policy'];
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    assert.doesNotMatch(csp, /'unsafe-eval'/);
    await page.waitForLoadState('networkidle');
    assert.equal(wasm.length, 0, 'the page fetched the engine before anything used it');

    const got = await useEngine(page);
    assert.equal(got.moves.length, 44);
    assert.ok(got.moves.includes('h2e2') && got.moves.includes('b0c2'));
    assert.deepEqual({ side: got.pos.sideToMove, check: got.pos.inCheck, status: got.pos.status, n: got.pos.legalMoves.length },
      { side: 'red', check: false, status: 'ongoing', n: 44 });
    assert.equal(got.after.move, 'h2e2');
    assert.equal(got.after.sideToMove, 'black');
    assert.equal(got.after.fen, 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1');
    assert.deepEqual(got.wxf, ['C2=5', 'H8+7']);
    assert.deepEqual(got.chinese, ['炮二平五', '马8进7']);
    assert.deepEqual({ check: got.mate.inCheck, status: got.mate.status, n: got.mate.legalMoves.length },
      { check: true, status: 'checkmate', n: 0 });
    assert.equal(got.refusal?.name, 'EngineError');
    assert.match(got.refusal.rule, /^B-\d+$/);

    assert.equal(wasm.length, 1, 'the engine was fetched once');
    assert.match(new URL(wasm[0].url()).pathname, /^\/assets\/xiangqi\.[0-9a-f]{10}\.wasm$/);
    assert.equal(wasm[0].headers()['content-type'], 'application/wasm');
    assert.equal(wasm[0].headers()['content-encoding'], 'gzip', 'the build gzipped the .wasm once; the server sends that');
    assert.match(wasm[0].headers()['cache-control'], /immutable/);
    assertNoErrors(page, 'engine');
    loads.push(got.loadMs);
    perCall.push(got.legalMovesUs);
    await page.context().close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`engine in Chromium: load median ${median(loads).toFixed(0)} ms (${loads.map((x) => x.toFixed(0)).join(', ')}), ` +
    `legalMoves median ${median(perCall).toFixed(1)} µs per call`);
});

test("without 'wasm-unsafe-eval' in the CSP the browser refuses the engine", async () => {
  const page = await newPage(browser);
  await page.route(`${server.base}/`, async (route) => {
    const res = await route.fetch();
    const headers = { ...res.headers() };
    headers['content-security-policy'] = headers['content-security-policy'].replace(" 'wasm-unsafe-eval'", '');
    await route.fulfill({ response: res, headers });
  });
  await page.goto(`${server.base}/`);
  const err = await page.evaluate(async () => {
    const engine = await import('/assets/engine.js');
    try {
      await engine.legalMoves('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
      return null;
    } catch (e) {
      return `${e.name}: ${e.message}`;
    }
  });
  assert.match(err ?? 'loaded', /CompileError|WebAssembly/);
  await page.context().close();
});
