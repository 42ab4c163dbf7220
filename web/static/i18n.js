// i18n.js — 简体中文 and English. Each page module adds its strings with
// addStrings({zh: {...}, en: {...}}) and reads them with t(key, vars);
// "{name}" in a string is replaced by vars.name. Chinese is the default when
// the browser prefers Chinese; the reader's choice is kept in localStorage.

const dict = { zh: {}, en: {} };
const storeKey = 'xqtour.lang';

function pick() {
  try {
    const kept = localStorage.getItem(storeKey);
    if (kept === 'zh' || kept === 'en') return kept;
  } catch { /* storage disabled */ }
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  return String(prefs[0] || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** lang is the page's language: "zh" (简体中文) or "en". */
export const lang = pick();

/** htmlLang is the BCP 47 tag for <html lang>: "zh-Hans" or "en". */
export const htmlLang = lang === 'zh' ? 'zh-Hans' : 'en';

/** addStrings merges a module's strings into the dictionary. */
export function addStrings(strings) {
  for (const l of ['zh', 'en']) Object.assign(dict[l], (strings && strings[l]) || {});
}

/** t returns the string for key in the page's language (English, then the key, when missing). */
export function t(key, vars) {
  let s = dict[lang][key] ?? dict.en[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return s;
}

/** setLang keeps the reader's choice and reloads the page in that language. */
export function setLang(l) {
  try { localStorage.setItem(storeKey, l); } catch { /* storage disabled */ }
  location.reload();
}

/** formatTime shows an RFC 3339 time (or ms since the epoch) in the reader's language and zone. */
export function formatTime(v, opts = { dateStyle: 'medium', timeStyle: 'short' }) {
  if (v === null || v === undefined || v === '') return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return String(v);
  return new Intl.DateTimeFormat(htmlLang, opts).format(d);
}

addStrings({
  zh: {
    'app.name': '象棋赛事',
    'lang.switch': 'English',
    'lang.switchLabel': 'Switch to English',
    'nav.home': '首页',
    'err.prefix': '被拒绝',
    loading: '加载中…',
    offline: '离线',
    'offline.retry': '离线，{s} 秒后重连',
    live: '实时',
    polling: '轮询更新',
  },
  en: {
    'app.name': 'xqtour',
    'lang.switch': '中文',
    'lang.switchLabel': '切换到简体中文',
    'nav.home': 'Home',
    'err.prefix': 'Refused',
    loading: 'Loading…',
    offline: 'Offline',
    'offline.retry': 'Offline, reconnecting in {s} s',
    live: 'Live',
    polling: 'Polling',
  },
});
