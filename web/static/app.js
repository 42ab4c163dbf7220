// app.js — the client's entry point and router. Every page URL gets the same
// shell; this module draws the page the path names:
//   /          pages/home/page.js (create an event or a game, open an event)
//   /t/{tid}   pages/event/page.js (the public event page; the organiser's console with its token)
//   /t/{tid}/live  pages/live/page.js (the broadcast: every board of the round in play)
//   /g/{gid}   pages/game/page.js (the board)

import { htmlLang, lang, setLang, t } from './core/i18n.js';
import { onStatus } from './core/live.js';
import * as outbox from './core/outbox.js';
import { ready, tokenFrom } from './core/tokens.js';
import { clear, h } from './ui.js';

function chrome() {
  document.documentElement.lang = htmlLang;
  const skip = document.querySelector('.skip');
  if (skip) skip.textContent = t('app.skip');
  const sw = document.getElementById('lang-switch');
  if (sw) {
    sw.textContent = t('lang.switch');
    sw.setAttribute('lang', lang === 'zh' ? 'en' : 'zh-Hans');
    sw.setAttribute('aria-label', t('lang.switchLabel'));
    sw.addEventListener('click', () => setLang(lang === 'zh' ? 'en' : 'zh'));
  }
  const footer = document.getElementById('footer');
  if (footer) clear(footer, h('p', {}, t('app.footer')));
}

/**
 * showLiveStatus keeps the header's live/polling/offline badge current on
 * the event page, counting down to the next reconnection while offline. (The
 * game page has its own banner by the board instead, and no badge.)
 */
export function showLiveStatus() {
  const el = document.getElementById('live-status');
  if (!el) return;
  let tick = 0;
  onStatus((s) => {
    clearInterval(tick);
    const until = Date.now() + s.retryInSec * 1000;
    const draw = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      const key = s.status === 'offline' && left ? 'status.offlineRetry' : `status.${s.status}`;
      el.textContent = s.status === 'connecting' ? '' : t(key, { s: left });
      el.className = `live-status ${s.status}`;
      el.title = s.status === 'connecting' ? '' : t(`status.${s.status}Title`);
    };
    draw();
    if (s.status === 'offline' && s.retryInSec) tick = setInterval(draw, 1000);
  });
}

async function route() {
  const root = document.getElementById('main');
  await ready(); // the tokens, from IndexedDB (moved there from localStorage once)
  outbox.resume(); // writes an earlier page left unanswered
  const path = location.pathname;
  let m;
  try {
    if (path === '/' || path === '') {
      const mod = await import('./pages/home/page.js');
      mod.mount(root);
    } else if ((m = /^\/t\/([^/]+)\/?$/.exec(path))) {
      const tid = decodeURIComponent(m[1]);
      const mod = await import('./pages/event/page.js');
      showLiveStatus();
      mod.mount(root, { tid });
    } else if ((m = /^\/f\/([^/]+)\/?$/.exec(path))) {
      const mod = await import('./pages/festival/page.js');
      await mod.mount(root, { fid: decodeURIComponent(m[1]) });
    } else if ((m = /^\/t\/([^/]+)\/enter\/?$/.exec(path))) {
      const mod = await import('./pages/enter/page.js');
      await mod.mount(root, { tid: decodeURIComponent(m[1]) });
    } else if ((m = /^\/t\/([^/]+)\/live\/?$/.exec(path))) {
      const tid = decodeURIComponent(m[1]);
      const mod = await import('./pages/live/page.js');
      showLiveStatus();
      mod.mount(root, { tid });
    } else if ((m = /^\/g\/([^/]+)\/?$/.exec(path))) {
      const gid = decodeURIComponent(m[1]);
      const token = tokenFrom(`game:${gid}`);
      const mod = await import('./pages/game/page.js');
      mod.mount(root, { gid, token });
    } else {
      clear(root, h('h1', {}, t('app.notFound')), h('p', {}, h('a', { href: '/' }, t('nav.home'))));
    }
  } catch (err) {
    console.error(err);
    clear(root, h('p', { class: 'error', role: 'alert' }, t('app.loadFailed', { msg: err.message })));
  }
}

// The service worker (sw.js) caches the shell and every fingerprinted asset,
// so a page visited once opens again with no network (a venue's Wi-Fi
// down). Its script sits under /assets/ but is allowed the whole site.
function installable() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/assets/sw.js', { scope: '/' }).catch((err) => console.warn('service worker:', err.message));
}

chrome();
installable();
route();
