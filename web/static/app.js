// app.js — the client's entry point and router. Every page URL gets the same
// shell; this module draws the page the path names:
//   /          home.js  (create an event or a game, open an event)
//   /t/{tid}   event.js (the public event page; the organiser's console with its token)
//   /g/{gid}   game.js  (the board)

import { tokenFrom } from './api.js';
import { addStrings, htmlLang, lang, setLang, t } from './i18n.js';
import { onStatus } from './live.js';
import { clear, h } from './ui.js';

addStrings({
  zh: {
    'app.skip': '跳到正文',
    'app.notFound': '没有这个页面。',
    'app.footer': 'xqtour · 象棋赛事编排与对局',
    'app.loadFailed': '页面加载失败：{msg}',
    'status.live': '● 实时',
    'status.polling': '● 轮询',
    'status.offline': '● 离线',
    'status.offlineRetry': '● 离线（{s} 秒后重连）',
    'status.liveTitle': '通过 WebSocket 实时推送',
    'status.pollingTitle': '实时连接不可用，每隔几秒自动刷新',
    'status.offlineTitle': '连不上服务器，恢复后自动同步',
  },
  en: {
    'app.skip': 'Skip to content',
    'app.notFound': 'There is no such page.',
    'app.footer': 'xqtour · Xiangqi tournaments and games',
    'app.loadFailed': 'The page failed to load: {msg}',
    'status.live': '● Live',
    'status.polling': '● Polling',
    'status.offline': '● Offline',
    'status.offlineRetry': '● Offline (retry in {s} s)',
    'status.liveTitle': 'Pushed live over a WebSocket',
    'status.pollingTitle': 'No live connection: refreshing every few seconds',
    'status.offlineTitle': 'The server cannot be reached; the page re-syncs when it is back',
  },
});

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

/** showLiveStatus keeps the header's live/polling/offline badge current (pages that watch call it). */
export function showLiveStatus() {
  const el = document.getElementById('live-status');
  if (!el) return;
  let tick = null;
  onStatus((s) => {
    clearInterval(tick);
    const draw = (info) => {
      const key = info.status === 'offline' && info.retryInSec ? 'status.offlineRetry' : `status.${info.status}`;
      el.textContent = info.status === 'connecting' ? '' : t(key, { s: info.retryInSec });
      el.className = `live-status ${info.status}`;
      el.title = info.status === 'connecting' ? '' : t(`status.${info.status}Title`);
    };
    draw(s);
  });
}

async function route() {
  const root = document.getElementById('main');
  const path = location.pathname;
  let m;
  try {
    if (path === '/' || path === '') {
      const mod = await import('./home.js');
      mod.mount(root);
    } else if ((m = /^\/t\/([^/]+)\/?$/.exec(path))) {
      const tid = decodeURIComponent(m[1]);
      const mod = await import('./event.js');
      showLiveStatus();
      mod.mount(root, { tid });
    } else if ((m = /^\/g\/([^/]+)\/?$/.exec(path))) {
      const gid = decodeURIComponent(m[1]);
      const token = tokenFrom(`game:${gid}`);
      const mod = await import('./game.js');
      showLiveStatus();
      mod.mount(root, { gid, token });
    } else {
      clear(root, h('h1', {}, t('app.notFound')), h('p', {}, h('a', { href: '/' }, t('nav.home'))));
    }
  } catch (err) {
    console.error(err);
    clear(root, h('p', { class: 'error', role: 'alert' }, t('app.loadFailed', { msg: err.message })));
  }
}

chrome();
route();
