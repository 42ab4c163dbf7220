// api.js — the one way the pages talk to the xqtour HTTP API (same origin).
// JSON in and out; every POST carries an Idempotency-Key so a retry after a
// lost answer replays instead of acting twice; every refusal becomes an
// ApiError carrying the API's own message. Tokens travel only in the
// Authorization header, never in a URL.

/** ApiError is a refusal of the API: its HTTP status, error code, message and rule id. */
export class ApiError extends Error {
  constructor(status, code, message, rule, body) {
    super(message || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code || '';
    this.rule = rule || '';
    this.body = body;
  }
}

/** newKey returns a fresh Idempotency-Key (a UUID). */
export function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * api calls the API: method, path (e.g. "/tournaments/abc"), and options
 * {body, token, key, raw, signal, headers} (headers: extra request headers). It returns the parsed JSON (or the text
 * when raw is true, for CSV and PGN). A POST sends `key` as its
 * Idempotency-Key when given (reuse it to retry the same request), else a
 * fresh one. Throws ApiError on any non-2xx answer or a network failure
 * (status 0, code "network").
 */
export async function api(method, path, { body, token, key, raw = false, signal, headers: extra } = {}) {
  const headers = { Accept: raw ? '*/*' : 'application/json', ...(extra || {}) };
  const init = { method, headers, signal, cache: 'no-store' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === 'POST') {
    headers['Idempotency-Key'] = key || newKey();
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body === undefined ? {} : body);
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', networkMessage());
  }
  const text = await res.text();
  if (!res.ok) {
    let parsed = null;
    try { parsed = JSON.parse(text); } catch { /* not JSON: keep the status line */ }
    const e = (parsed && parsed.error) || {};
    const err = new ApiError(res.status, e.code, e.message || `${res.status} ${res.statusText}`, e.rule, parsed);
    const retry = res.headers.get('Retry-After');
    if (retry) err.retryAfter = Number(retry);
    throw err;
  }
  if (raw) return text;
  if (!text) return null;
  return JSON.parse(text);
}

/**
 * apiAll GETs a paged table (standings, crosstable: 1,000 rows a page) and
 * follows its `next` links, returning the first page with every page's rows,
 * so a page that draws the whole table sees it whole at any size.
 */
export async function apiAll(path, opts) {
  const first = await api('GET', path, opts);
  let page = first;
  for (let n = 0; page && page.next && n < 100; n++) {
    page = await api('GET', page.next, opts);
    first.rows = (first.rows || []).concat((page && page.rows) || []);
  }
  if (first) delete first.next;
  return first;
}

function networkMessage() {
  const zh = (document.documentElement.lang || '').startsWith('zh');
  return zh ? '网络不通：请求未送达服务器' : 'network error: the server could not be reached';
}

const prefix = 'xqtour.token.';

/** getToken returns the token kept for a scope ("event:<tid>", "game:<gid>"), or "". */
export function getToken(scope) {
  try { return localStorage.getItem(prefix + scope) || ''; } catch { return ''; }
}

/** saveToken keeps a token for a scope in this browser; an empty token forgets it. */
export function saveToken(scope, token) {
  try {
    if (token) localStorage.setItem(prefix + scope, token);
    else localStorage.removeItem(prefix + scope);
  } catch { /* storage disabled: the token lives only in this page */ }
}

/**
 * tokenFrom reads `#token=…` from the URL fragment, keeps it for the scope
 * and strips it from the address bar (so it is not bookmarked or shared by
 * accident); without one it returns the token kept for the scope, or "".
 */
export function tokenFrom(scope) {
  const hash = location.hash.replace(/^#/, '');
  const params = new URLSearchParams(hash);
  const tok = params.get('token');
  if (tok) {
    saveToken(scope, tok);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    return tok;
  }
  return getToken(scope);
}

/**
 * tokenParts reads what a token's shape shows, "<scope>.<id>.<secret>":
 * {scope, id, kind} where kind is "organiser" (id = the event), "player"
 * (p…), "official" (o…), "team" (m…, a captain), "seat" (red/black of a
 * standalone game), or "" when the shape is unknown.
 */
export function tokenParts(token) {
  const m = /^([^.]+)\.([^.]+)\./.exec(token || '');
  if (!m) return { scope: '', id: '', kind: '' };
  const [, scope, id] = m;
  let kind = '';
  if (id === scope) kind = 'organiser';
  else if (id === 'red' || id === 'black') kind = 'seat';
  else kind = { p: 'player', o: 'official', m: 'team' }[id[0]] || '';
  return { scope, id, kind };
}
