// catalogue.test.mjs — the string catalogues (static/i18n/zh.js, en.js)
// against the code: every error code the API can answer — each one the Go
// code under shared/ writes, and each one of the OpenAPI document's
// ErrorCode enum — has err.<code> in both languages; the Go codes are all
// in that enum; both catalogues hold the same keys; every key is read by
// some module, and every key a module reads exists. A failure lists what
// is missing, so whoever adds a code knows which strings to write.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import zh from '../static/i18n/zh.js';
import en from '../static/i18n/en.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const staticDir = join(here, '..', 'static');

function walk(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** CLIENT_CODES are the codes the client itself gives an ApiError (no server involved). */
const CLIENT_CODES = ['network'];

/**
 * goCodes are the error codes in the Go code under shared/ (tests left
 * out): the values of Code… constants, Code: "…" fields and the first
 * argument of the refusal constructors.
 */
function goCodes({ http = false } = {}) {
  const re = /\bCode[A-Za-z0-9]*\s*=\s*"([a-z0-9_]+)"|\bCode:\s*"([a-z0-9_]+)"|\b(?:badRequest|refuse|ruleErr)\("([a-z0-9_]+)"|ReplyError\{"([a-z0-9_]+)"/g;
  const codes = new Set();
  // http: only the HTTP API's (the WebSocket's replies, shared/live, are in asyncapi.yaml).
  const keep = (p) => p.endsWith('.go') && !p.endsWith('_test.go') && !(http && p.includes(join('shared', 'live')));
  for (const f of walk(join(repo, 'shared'), keep)) {
    for (const m of readFileSync(f, 'utf8').matchAll(re)) codes.add(m[1] || m[2] || m[3] || m[4]);
  }
  return codes;
}

/** enumCodes reads the ErrorCode enum of shared/httpapi/openapi.yaml. */
function enumCodes() {
  const lines = readFileSync(join(repo, 'shared', 'httpapi', 'openapi.yaml'), 'utf8').split('\n');
  const at = lines.findIndex((l) => /^ {4}ErrorCode:\s*$/.test(l));
  assert.ok(at >= 0, 'openapi.yaml has no components.schemas.ErrorCode');
  const codes = new Set();
  let inEnum = false;
  for (const l of lines.slice(at + 1)) {
    if (/^ {4}\S/.test(l)) break; // the next schema
    if (/^ {6}enum:\s*$/.test(l)) { inEnum = true; continue; }
    const m = /^ {8}- ([a-z0-9_]+)\s*$/.exec(l);
    if (inEnum && m) codes.add(m[1]);
    else if (inEnum && /^ {6}\S/.test(l)) inEnum = false;
  }
  return codes;
}

const missing = (codes, cat) => [...codes].filter((c) => !(`err.${c}` in cat)).sort();

test('every error code in the Go code has a string in zh and en', () => {
  const codes = goCodes();
  assert.ok(codes.size > 50, `found only ${codes.size} codes in shared/: the pattern no longer matches the Go code`);
  const lack = { zh: missing(codes, zh), en: missing(codes, en) };
  assert.deepEqual(lack, { zh: [], en: [] }, `codes without err.<code> in i18n/zh.js and i18n/en.js: ${JSON.stringify(lack)}`);
});

test('every code of the OpenAPI ErrorCode enum has a string in zh and en, and the enum holds every Go code', () => {
  const codes = enumCodes();
  const lack = { zh: missing(codes, zh), en: missing(codes, en) };
  assert.deepEqual(lack, { zh: [], en: [] }, `enum codes without err.<code>: ${JSON.stringify(lack)}`);
  const notInEnum = [...goCodes({ http: true })].filter((c) => !codes.has(c)).sort();
  assert.deepEqual(notInEnum, [], `codes the Go code answers that openapi.yaml's ErrorCode enum lacks: ${notInEnum.join(', ')}`);
});

test('zh and en hold the same keys, and plural entries have an "other"', () => {
  const z = Object.keys(zh); const e = Object.keys(en);
  assert.deepEqual({ onlyZh: z.filter((k) => !(k in en)), onlyEn: e.filter((k) => !(k in zh)) }, { onlyZh: [], onlyEn: [] });
  for (const [k, v] of [...Object.entries(zh), ...Object.entries(en)]) {
    if (typeof v === 'object') assert.equal(typeof v.other, 'string', `${k}: a plural entry needs "other"`);
    else assert.equal(typeof v, 'string', `${k}: a string or a plural entry`);
  }
});

// The modules' sources, without the catalogues.
const sources = walk(staticDir, (p) => p.endsWith('.js') && !p.includes(`${join('static', 'i18n')}`) && !p.includes(`${join('static', 'vendor')}`))
  .map((p) => readFileSync(p, 'utf8')).join('\n');

test('every catalogue key is read by some module', () => {
  const codes = new Set([...goCodes(), ...enumCodes(), ...CLIENT_CODES]);
  // Keys read through a template — t(`tab.${name}`) reads every "tab.…"
  // key — or through a group named by a literal: opts('home.sc', […]).
  const prefixes = [...sources.matchAll(/`([a-zA-Z][\w.]*\.)\$\{/g)].map((m) => m[1])
    .concat([...sources.matchAll(/'([a-z][\w]*\.[\w.]+)'/g)].map((m) => `${m[1]}.`));
  const used = (k) => (k.startsWith('err.') && codes.has(k.slice(4))) || sources.includes(`'${k}'`) || sources.includes(`"${k}"`)
    || sources.includes(`\`${k}\``) || prefixes.some((p) => k.startsWith(p));
  const unused = Object.keys(zh).filter((k) => !used(k));
  assert.deepEqual(unused, [], `catalogue keys no module reads: ${unused.join(', ')}`);
});

test('every key a module reads literally exists in the catalogue', () => {
  const read = new Set([...sources.matchAll(/\bt\('([^'$]+)'/g)].map((m) => m[1]));
  const absent = [...read].filter((k) => !(k in zh) || !(k in en)).sort();
  assert.deepEqual(absent, [], `keys read but not in the catalogue: ${absent.join(', ')}`);
});
