// core/db.js — the client's IndexedDB database "xqtour": tokens (by scope),
// links (by event), the outbox (by entry id), and the offline scoresheet's
// stores (core/sync.js): queue (by game and order), views (the last game
// view by game) and setaside (a conflict's moves the scribe set aside). IndexedDB, unlike
// localStorage, is readable by a service worker, which the offline pages
// need. Where IndexedDB is missing or refused (a private window of some
// browsers, node's unit tests) the stores live in memory for the page's life.

const NAME = 'xqtour';
const VERSION = 2; // 2 adds queue, views, setaside (an upgrade keeps the stores of 1)
/** STORES are the object stores; every one is keyed out of line. */
export const STORES = ['tokens', 'links', 'outbox', 'queue', 'views', 'setaside'];

let opening = null;
const memory = new Map(STORES.map((s) => [s, new Map()]));

function open() {
  if (opening) return opening;
  opening = new Promise((resolve) => {
    if (!globalThis.indexedDB) { resolve(null); return; }
    let req;
    try { req = indexedDB.open(NAME, VERSION); } catch { resolve(null); return; }
    req.onupgradeneeded = () => {
      for (const s of STORES) if (!req.result.objectStoreNames.contains(s)) req.result.createObjectStore(s);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opening;
}

function run(store, mode, fn) {
  return open().then((db) => {
    if (!db) return fn(null);
    return new Promise((resolve, reject) => {
      let out;
      const tx = db.transaction(store, mode);
      tx.oncomplete = () => resolve(out);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
      const r = fn(tx.objectStore(store));
      if (r) r.onsuccess = () => { out = r.result; };
    });
  });
}

/** put keeps value under key in store. */
export function put(store, key, value) {
  return run(store, 'readwrite', (os) => (os ? os.put(value, key) : void memory.get(store).set(key, value)));
}

/** get returns the value under key in store, or undefined. */
export function get(store, key) {
  return run(store, 'readonly', (os) => (os ? os.get(key) : void 0)).then((v) => (v === undefined ? memory.get(store).get(key) : v));
}

/** del removes key from store. */
export function del(store, key) {
  return run(store, 'readwrite', (os) => (os ? os.delete(key) : void memory.get(store).delete(key)));
}

/** all returns every [key, value] of store. */
export async function all(store) {
  const db = await open();
  if (!db) return [...memory.get(store)];
  const [keys, values] = await Promise.all([
    run(store, 'readonly', (os) => os.getAllKeys()),
    run(store, 'readonly', (os) => os.getAll()),
  ]);
  return (keys || []).map((k, i) => [k, values[i]]);
}
