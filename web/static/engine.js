// engine.js — the server's rules engine in the browser: shared/xiangqi and
// shared/notation compiled to WebAssembly (web/wasm), so a pad can find legal
// targets, check, mate and notation with no network and no second
// implementation of the rules in JavaScript. Nothing is fetched until the
// first call (or load()); then Go's wasm_exec.js and the .wasm are fetched
// once, by their fingerprinted URLs, and every later call is synchronous work
// inside the module.
//
//   import { legalMoves, position, play, notation } from './engine.js';
//   await legalMoves(fen)            → ['h2e2', …] (ICCS; a set, in no promised order)
//   await position(fen)              → {fen, sideToMove, inCheck, status, legalMoves}
//   await play(fen, 'h2e2')          → the same for the position after, plus move (ICCS)
//   await notation(fen, moves, 'wxf') → ['C2=5', …] ('chinese', 'chinese-traditional', 'wxf', 'iccs', 'yz3', 'yz4')
//
// status is 'ongoing', 'checkmate' or 'stalemate' (both of the last two lose
// for the side to move, G-1). A refusal rejects with an EngineError whose
// rule is the SPEC rule id when a rule refused it ('B-10', …). The page's
// Content-Security-Policy must allow 'wasm-unsafe-eval' in script-src.

/** EngineError is a refusal of the engine: a bad FEN, an illegal move, … */
export class EngineError extends Error {
  constructor(message, rule) {
    super(message);
    this.name = 'EngineError';
    /** rule is the SPEC rule id that refused, or '' */
    this.rule = rule || '';
  }
}

let loading = null;

/**
 * load fetches and starts the engine; it resolves when the engine answers.
 * Calling it again returns the same promise; after a failure (offline before
 * the first load, say) the next call tries again.
 */
export function load() {
  if (!loading) {
    loading = start().catch((err) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

async function start() {
  // wasm_exec.js is Go's own glue for the .wasm it built: a classic script
  // that defines globalThis.Go, imported here only for that effect.
  await import('./wasm_exec.js');
  const go = new globalThis.Go();
  // The import map names the fingerprinted URL of the .wasm as of this deploy.
  const url = import.meta.resolve('./xiangqi.wasm');
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
  const exited = go.run(instance); // runs main up to its select{}: the API is set
  const api = globalThis.xqtourEngine;
  delete globalThis.xqtourEngine;
  if (!api) throw new EngineError('the rules engine did not start');
  // The Go program ends only on a crash; then the next call loads it anew.
  exited.then(() => { loading = null; });
  return api;
}

async function call(name, ...args) {
  const api = await load();
  const out = JSON.parse(api[name](...args)); // the engine answers JSON text (see web/wasm)
  if (out.error !== undefined) throw new EngineError(out.error, out.rule);
  return out;
}

/** legalMoves resolves to the legal moves of the FEN's side to move, in ICCS. */
export async function legalMoves(fen) {
  return (await call('legalMoves', fen)).moves;
}

/** position resolves to {fen, sideToMove, inCheck, status, legalMoves} of a FEN. */
export async function position(fen) {
  return call('position', fen);
}

/**
 * play resolves to the position after move (any notation the server reads,
 * ICCS from the pads): {move, fen, sideToMove, inCheck, status, legalMoves}.
 */
export async function play(fen, move) {
  return call('play', fen, move);
}

/** notation resolves to the moves, played from fen, written in the named notation as the server writes them. */
export async function notation(fen, moves, name) {
  return (await call('notation', fen, moves, name)).texts;
}
