// core/tokens.js — the tokens this browser holds and the links it can hand
// out, behind one module, kept in IndexedDB (core/db.js) where a service
// worker can read them. ready() loads them once per page (and moves what
// older versions of the client kept in localStorage — "xqtour.token.<scope>"
// and "xqtour.links.<tid>" — into IndexedDB, so an existing organiser keeps
// every player link); after it, reads are synchronous.
//
// A scope names what a token opens: "event:<tid>", "event:<tid>:arbiter"
// (the organiser appointed as an arbiter), "game:<gid>" (a standalone seat).

import * as db from './db.js';

const tokens = new Map();
const links = new Map(); // tid → [{id, name, number?, token}]
let loading = null;

const TOKEN_PREFIX = 'xqtour.token.';
const LINKS_PREFIX = 'xqtour.links.';

function legacy() {
  const found = { tokens: [], links: [] };
  try {
    const ls = globalThis.localStorage;
    if (!ls) return found;
    for (let i = 0; i < ls.length; i++) {
      const k = ls.key(i);
      if (k.startsWith(TOKEN_PREFIX)) found.tokens.push([k, k.slice(TOKEN_PREFIX.length), ls.getItem(k)]);
      else if (k.startsWith(LINKS_PREFIX)) {
        let list = [];
        try { list = JSON.parse(ls.getItem(k) || '[]'); } catch { /* unreadable: dropped */ }
        found.links.push([k, k.slice(LINKS_PREFIX.length), Array.isArray(list) ? list : []]);
      }
    }
  } catch { /* storage disabled */ }
  return found;
}

/** ready loads the tokens and links (migrating localStorage's once); call it before the other functions. */
export function ready() {
  if (loading) return loading;
  loading = (async () => {
    try {
      for (const [k, v] of await db.all('tokens')) tokens.set(k, v);
      for (const [k, v] of await db.all('links')) links.set(k, v);
    } catch { /* unreadable: start empty */ }
    const old = legacy();
    for (const [lsKey, scope, tok] of old.tokens) {
      if (!tokens.has(scope) && tok) {
        tokens.set(scope, tok);
        await db.put('tokens', scope, tok).catch(() => {});
      }
      try { localStorage.removeItem(lsKey); } catch { /* kept: harmless */ }
    }
    for (const [lsKey, tid, list] of old.links) {
      const merged = mergeLinks(links.get(tid) || [], list);
      links.set(tid, merged);
      await db.put('links', tid, merged).catch(() => {});
      try { localStorage.removeItem(lsKey); } catch { /* kept: harmless */ }
    }
  })();
  return loading;
}

function mergeLinks(list, more) {
  const out = list.slice();
  for (const e of more) {
    if (!e || !e.token) continue;
    const i = out.findIndex((x) => x.id === e.id);
    if (i >= 0) out[i] = e; else out.push(e);
  }
  return out;
}

/** getToken returns the token kept for a scope ("event:<tid>", "game:<gid>"), or "". */
export function getToken(scope) {
  return tokens.get(scope) || '';
}

/** saveToken keeps a token for a scope in this browser; an empty token forgets it. */
export function saveToken(scope, token) {
  if (token) { tokens.set(scope, token); return db.put('tokens', scope, token).catch(() => {}); }
  tokens.delete(scope);
  return db.del('tokens', scope).catch(() => {});
}

/**
 * tokenFrom reads `#token=…` from the URL fragment, keeps it for the scope
 * and strips it from the address bar (so it is not bookmarked or shared by
 * accident); without one it returns the token kept for the scope, or "".
 */
export function tokenFrom(scope) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
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

/** tokenIn reads a token out of what a reader pasted: the token itself or any link with #token=…. */
export function tokenIn(text) {
  const s = String(text || '').trim();
  const m = /#token=([^&\s]+)/.exec(s);
  return m ? decodeURIComponent(m[1]) : s;
}

/** eventLink is the link that opens event tid with a token (the organiser's, a player's, an official's). */
export function eventLink(tid, token) {
  return `${location.origin}/t/${encodeURIComponent(tid)}${token ? `#token=${token}` : ''}`;
}

/** gameLink is the link that opens game gid, with a seat's token or none (to watch). */
export function gameLink(gid, token) {
  return `${location.origin}/g/${encodeURIComponent(gid)}${token ? `#token=${token}` : ''}`;
}

/** eventLinks lists the links kept for event tid: [{id, name, number?, token}]. */
export function eventLinks(tid) {
  return (links.get(tid) || []).slice();
}

/** keepLink keeps (or replaces, by id) a link of event tid, to hand out later. */
export function keepLink(tid, entry) {
  const list = mergeLinks(links.get(tid) || [], [entry]);
  links.set(tid, list);
  return db.put('links', tid, list).catch(() => {});
}
