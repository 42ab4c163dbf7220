// engine-agree.mjs — runs the browser's rules engine (xiangqi.wasm with Go's
// wasm_exec.js) in Node and answers the cases engine_test.go sends, so the
// Go test can hold every answer equal to the server's own packages.
//
//   node test/engine-agree.mjs <engine dir> <cases.json> <answers.json>
//
// cases: {perft: [fen], games: [{start, moves}], notations: [name], refusals: [{fen, move}]}
// answers: {loadMs, perft: [{pos, children}], games: [{steps, texts}], refusals: [..], timing}

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, casesPath, answersPath] = process.argv.slice(2);

const t0 = performance.now();
await import(pathToFileURL(join(dir, 'wasm_exec.js')).href);
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiate(readFileSync(join(dir, 'xiangqi.wasm')), go.importObject);
go.run(instance);
const raw = globalThis.xqtourEngine;
if (!raw) throw new Error('the engine did not set globalThis.xqtourEngine');
// Each function answers a JSON text, as engine.js reads it.
const api = Object.fromEntries(Object.entries(raw).map(([k, f]) => [k, (...args) => JSON.parse(f(...args))]));
const loadMs = performance.now() - t0;

const cases = JSON.parse(readFileSync(casesPath, 'utf8'));

// For each perft position: its description and, through play, each child's.
const perft = cases.perft.map((fen) => {
  const pos = api.position(fen);
  const children = (pos.legalMoves || []).map((m) => api.play(fen, m));
  return { pos, children };
});

// Each game is played move by move through play, from the position play returned.
const games = cases.games.map((g) => {
  const steps = [];
  let fen = g.start;
  for (const m of g.moves) {
    const s = api.play(fen, m);
    steps.push(s);
    if (s.error !== undefined) break;
    fen = s.fen;
  }
  const texts = {};
  for (const n of cases.notations) texts[n] = api.notation(g.start, g.moves, n);
  return { start: api.position(g.start), steps, texts };
});

const refusals = cases.refusals.map((r) => (r.move === undefined ? api.position(r.fen) : api.play(r.fen, r.move)));

// Timing: medians of 7 batches of 1,000 calls on the start position.
const start = cases.perft[0];
function median(f) {
  const runs = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    for (let j = 0; j < 1000; j++) f();
    runs.push((performance.now() - t) * 1000 / 1000); // µs per call
  }
  runs.sort((a, b) => a - b);
  return runs[3];
}
const timing = {
  legalMovesUs: median(() => api.legalMoves(start)),
  positionUs: median(() => api.position(start)),
  playUs: median(() => api.play(start, 'h2e2')),
};

writeFileSync(answersPath, JSON.stringify({ loadMs, perft, games, refusals, timing }));
