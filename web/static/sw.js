// sw.js — the service worker that makes the pages installable and lets a
// visited /g/{gid} or /t/{tid} open with no network. package web serves it
// at /assets/sw.js with Service-Worker-Allowed: / (scope "/"), and puts in
// front of this file the deploy's version and the fingerprinted URL of every
// asset (self.XQ_VERSION, self.XQ_ASSETS).
//
//   - install: every fingerprinted asset (modules, CSS, glyphs, the rules
//     engine's .wasm) and the HTML shell go into this version's cache, so a
//     scribe who opened the page once online has all of it;
//   - a page (a navigation): the network first, so a deploy shows at once;
//     offline, the cached shell (every page URL answers the same shell, and
//     the client's router draws the page from the URL);
//   - a fingerprinted asset: the cache first (its URL changes with its
//     content, so a cached copy is never stale);
//   - a public read of the API (GET /tournaments/…, /games/…, no token):
//     the network first, its last answer kept (cache "xqtour-api") for when
//     there is none, so an event page visited once shows its pairings and
//     standings offline. A read with a token is never kept: it may say what
//     only that token may see. Writes never come here (the pages queue them).
//
// activate drops the caches of earlier versions (the API cache stays).

/* global self, caches */
const VERSION = self.XQ_VERSION || 'dev';
const ASSETS = self.XQ_ASSETS || [];
const CACHE = `xqtour-${VERSION}`;
const SHELL = '/';
const API = 'xqtour-api';

self.addEventListener('install', (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([SHELL, ...ASSETS]);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('xqtour-') && name !== CACHE && name !== API) await caches.delete(name);
    await self.clients.claim();
  })());
});

const PAGE = /^\/($|t\/[^/]+\/?$|t\/[^/]+\/live\/?$|g\/[^/]+\/?$)/;
const READS = /^\/(tournaments|games)\/[^/]+(\/[A-Za-z0-9/]*)?$/;
const HASHED = /^\/assets\/.+\.[0-9a-f]{10}\.[A-Za-z0-9]+$/;

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate' && PAGE.test(url.pathname)) {
    ev.respondWith(page(req));
  } else if (HASHED.test(url.pathname)) {
    ev.respondWith(asset(req));
  } else if (READS.test(url.pathname) && !req.headers.has('Authorization')) {
    ev.respondWith(read(req));
  }
});

async function page(req) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(SHELL, res.clone());
    return res;
  } catch (err) {
    const held = await cache.match(SHELL);
    if (held) return held;
    throw err;
  }
}

async function read(req) {
  const cache = await caches.open(API);
  try {
    const res = await fetch(req);
    if (res.status === 200) await cache.put(req, res.clone());
    return res;
  } catch (err) {
    const held = await cache.match(req, { ignoreVary: true });
    if (held) return held;
    throw err;
  }
}

async function asset(req) {
  const cache = await caches.open(CACHE);
  const held = await cache.match(req, { ignoreVary: true });
  if (held) return held;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}
