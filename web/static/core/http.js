// core/http.js — the one place the client calls fetch. Every request of the
// pages and of core/outbox.js comes here: JSON, text or bytes in and out;
// tokens only in the Authorization header (never in a URL); Accept-Language
// from the reader's chosen language, so what the server writes in words
// (pairing explanations) follows the page, not the browser. A GET keeps the
// ETag of its last answer and revalidates with If-None-Match: a 304 answers
// with the copy held (the same object, so a caller sees "unchanged" with ===).
// Any refusal or network failure becomes one ApiError.

import { acceptLanguage, t } from './i18n.js';

/** ApiError is a refusal of the API: its HTTP status, error code, message, rule id and parsed body. */
export class ApiError extends Error {
  constructor(status, code, message, rule, body) {
    super(message || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code || '';
    this.rule = rule || '';
    this.body = body;
    this.retryAfter = 0;
  }

  /** retryable says whether sending the same request again may succeed: network loss, 429, 5xx. */
  get retryable() {
    return this.status === 0 || this.status === 429 || this.status >= 500 || this.code === 'request_in_progress';
  }
}

/** newKey returns a fresh Idempotency-Key (a UUID). */
export function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, '0')).join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * errorFrom reads a refusal's body — the API's {"error": {code, message,
 * rule}} — into an ApiError; a body that is not that keeps the status line.
 */
export function errorFrom(status, statusText, text, retryAfter) {
  let parsed = null;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  const e = (parsed && typeof parsed === 'object' && parsed.error) || {};
  const err = new ApiError(status, e.code, e.message || `${status} ${statusText || ''}`.trim(), e.rule, parsed);
  // params: what the message names (tables, rounds, the option to use), for errorText's own words.
  if (e.params && typeof e.params === 'object') err.params = e.params;
  if (retryAfter) err.retryAfter = Number(retryAfter) || 0;
  return err;
}

// The last answer of each GET with an ETag: key → {etag, value}. Bounded:
// the oldest entry goes when it is full.
const held = new Map();
const HELD_MAX = 400;

function remember(id, etag, value) {
  held.delete(id);
  held.set(id, { etag, value });
  if (held.size > HELD_MAX) held.delete(held.keys().next().value);
}

/** forget drops the held copies (a sign-out, a test). */
export function forget() { held.clear(); }

let fetcher = (...args) => globalThis.fetch(...args);
/** useFetch replaces fetch (unit tests stub the network with it); useFetch() restores it. */
export function useFetch(fn) { fetcher = fn || ((...args) => globalThis.fetch(...args)); }

const isRaw = (b) => typeof b === 'string' || b instanceof ArrayBuffer || ArrayBuffer.isView(b) || (typeof Blob !== 'undefined' && b instanceof Blob);

/**
 * request calls the API: method, path ("/tournaments/abc") and options
 * {body, token, key, as, contentType, headers, signal}. as is "json"
 * (default), "text" (CSV, PGN, JSON lines) or "bytes" (an ArrayBuffer). A
 * body that is a string, ArrayBuffer, typed array or Blob is sent as it is
 * with contentType; any other body as JSON. A POST carries key as its
 * Idempotency-Key (a fresh one when not given: core/outbox.js passes the
 * entry's, the same on every retry). It throws ApiError on a non-2xx answer
 * or a network failure (status 0, code "network").
 */
export async function request(method, path, { body, token, key, as = 'json', contentType, headers: extra, signal } = {}) {
  const headers = { Accept: as === 'json' ? 'application/json' : '*/*', 'Accept-Language': acceptLanguage, ...(extra || {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, signal };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
    headers['Idempotency-Key'] = key || newKey();
    if (isRaw(body)) {
      headers['Content-Type'] = contentType || 'text/plain; charset=utf-8';
      init.body = body;
    } else {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body === undefined ? {} : body);
    }
  }
  const id = method === 'GET' ? `${as} ${path} ${token || ''} ${acceptLanguage}` : '';
  const mine = id && held.get(id);
  // With a held copy, its ETag goes in If-None-Match and the browser's own
  // cache is bypassed, so the 304 reaches this code and the copy answers it.
  // Without one, the browser's cache may answer, but only after revalidating
  // with the server ("no-cache"): the API's answers do not say they vary by
  // Accept-Language, so a copy kept for another language must not be reused
  // unasked (the server's ETag tells the two apart).
  if (mine) headers['If-None-Match'] = mine.etag;
  init.cache = mine ? 'no-store' : 'no-cache';
  let res;
  try {
    res = await fetcher(path, init);
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', t('err.network'));
  }
  if (res.status === 304 && mine) return mine.value;
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw errorFrom(res.status, res.statusText, text, res.headers.get('Retry-After'));
  }
  let value;
  if (as === 'bytes') value = await res.arrayBuffer();
  else {
    const text = await res.text();
    value = as === 'text' ? text : (text ? JSON.parse(text) : null);
  }
  const etag = id && res.headers.get('ETag');
  if (etag) remember(id, etag, value);
  return value;
}

/** get reads a path (JSON unless opts.as says otherwise). */
export const get = (path, opts) => request('GET', path, opts);

/**
 * getAll GETs a paged table (standings, crosstable: 1,000 rows a page) and
 * follows its `next` links, returning a copy of the first page with every
 * page's rows, so a page that draws the whole table sees it whole.
 */
export async function getAll(path, opts) {
  const first = await get(path, opts);
  if (!first) return first;
  const whole = { ...first, rows: [...(first.rows || [])] };
  let page = first;
  for (let n = 0; page && page.next && n < 100; n++) {
    page = await get(page.next, opts);
    whole.rows.push(...((page && page.rows) || []));
  }
  delete whole.next;
  return whole;
}
