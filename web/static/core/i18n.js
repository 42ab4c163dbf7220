// core/i18n.js — the client's words: 简体中文 (i18n/zh.js) and English
// (i18n/en.js), one catalogue per language. t(key, vars) reads a string and
// fills "{name}" from vars; a string kept as {one, other, …} is chosen by
// vars.n through Intl.PluralRules. Lists join with Intl.ListFormat ("A, B
// and C" / "A、B和C"), times and numbers with Intl formatters made once per
// option set. errorText(err) says a refusal in the reader's language from
// its code: a Chinese page never shows the server's English message for a
// code the catalogue knows. The reader's choice of language is kept in
// localStorage ("xqtour.lang"); else Chinese when the browser prefers it.

import zh from '../i18n/zh.js';
import en from '../i18n/en.js';

const catalogues = { zh, en };
const storeKey = 'xqtour.lang';

function pick() {
  try {
    const kept = globalThis.localStorage && localStorage.getItem(storeKey);
    if (kept === 'zh' || kept === 'en') return kept;
  } catch { /* storage disabled */ }
  const nav = globalThis.navigator || {};
  const prefs = nav.languages && nav.languages.length ? nav.languages : [nav.language || 'en'];
  return String(prefs[0] || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** lang is the page's language: "zh" (简体中文) or "en". */
export let lang = pick();

/** htmlLang is the BCP 47 tag of the page's language: "zh-Hans" or "en". */
export let htmlLang = lang === 'zh' ? 'zh-Hans' : 'en';

/** acceptLanguage is the Accept-Language every API request sends: the reader's choice first. */
export let acceptLanguage = lang === 'zh' ? 'zh-CN, zh;q=0.9, en;q=0.5' : 'en, zh;q=0.5';

/** useLanguage switches the module's language without a reload (unit tests; the page reloads instead). */
export function useLanguage(l) {
  lang = l === 'zh' ? 'zh' : 'en';
  htmlLang = lang === 'zh' ? 'zh-Hans' : 'en';
  acceptLanguage = lang === 'zh' ? 'zh-CN, zh;q=0.9, en;q=0.5' : 'en, zh;q=0.5';
  formatters.clear();
}

const formatters = new Map();
// cached returns the Intl formatter of a kind and options, made once.
function cached(Kind, opts = {}) {
  const id = `${Kind.name}|${htmlLang}|${JSON.stringify(opts)}`;
  let f = formatters.get(id);
  if (!f) { f = new Kind(htmlLang, opts); formatters.set(id, f); }
  return f;
}

/** has says whether the catalogue holds key (in the page's language or English). */
export function has(key) {
  return key in catalogues[lang] || key in catalogues.en;
}

/**
 * t returns the string for key in the page's language (English, then the
 * key itself, when missing), with "{name}" replaced by vars.name; a plural
 * entry is chosen by vars.n.
 */
export function t(key, vars) {
  let s = catalogues[lang][key] ?? catalogues.en[key] ?? key;
  if (s && typeof s === 'object') {
    const n = vars && typeof vars.n === 'number' ? vars.n : Number(vars && vars.n);
    s = s[cached(Intl.PluralRules).select(Number.isFinite(n) ? n : 0)] ?? s.other;
  }
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return s;
}

/** list joins items as the page's language writes a list ("a, b and c"; "a、b和c"). */
export function list(items, type = 'conjunction') {
  const xs = (items || []).map(String);
  return cached(Intl.ListFormat, { style: 'long', type }).format(xs);
}

/** formatTime shows an RFC 3339 time (or ms since the epoch) in the reader's language and zone. */
export function formatTime(v, opts = { dateStyle: 'medium', timeStyle: 'short' }) {
  if (v === null || v === undefined || v === '') return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return String(v);
  return cached(Intl.DateTimeFormat, opts).format(d);
}

/** relativeTime says "in 12 minutes" / "12分钟后" (unit: minute, hour, day …). */
export function relativeTime(n, unit) {
  return cached(Intl.RelativeTimeFormat, { numeric: 'auto' }).format(n, unit);
}

/** number writes a number in the page's language. */
export function number(n, opts) {
  return cached(Intl.NumberFormat, opts).format(n);
}

/**
 * errorParams reads what a refusal's English message names that the
 * reader's string needs: the field of an invalid_field ("rating: …",
 * "timeControl.periods[0].ms …"), and the rule.
 */
export function errorParams(err) {
  const p = { rule: (err && err.rule) || '' };
  const m = /^([A-Za-z][\w.[\]]*):\s/.exec((err && err.message) || '');
  p.field = fieldLabel((err && err.params && err.params.field) || (m ? m[1] : ''));
  return { ...p, ...sayParams((err && err.params) || {}), field: p.field };
}

// fieldLabels name a request field by the label of the form field that
// fills it; a field with no label here is not named at all (the reader
// never sees a JSON field name), and the refusal says the request is wrong.
const fieldLabels = {
  name: 'adm.name', rating: 'adm.rating', club: 'adm.club', rounds: 'home.rounds', tiebreaks: 'home.tiebreaks',
  startsAt: 'adm.startsAt', tables: 'adm.tables', note: 'adm.note', timeControl: 'home.tc', system: 'home.system', scoring: 'home.scoring',
};

/** fieldLabel is the reader's name of a refused field ("tiebreaks[0]" → "Tie-breaks"), or "". */
export function fieldLabel(field) {
  const base = /^([A-Za-z]+)/.exec(field || '');
  return base && fieldLabels[base[1]] ? t(fieldLabels[base[1]]) : '';
}

// optionLabels name a request option a refusal points to by the page's own
// control for it, never by its JSON name.
const optionLabels = { unfinishedAsDraws: 'adm.unfinishedAsDraws' };

/**
 * sayParams turns a refusal's structured params into words of the page's
 * language: games by round and table ("round 1 table 3"), player numbers as
 * a list, the option as the label of the page's control for it; an option
 * the page has no control for is left out rather than shown as a field name.
 */
export function sayParams(params) {
  const out = { ...params };
  if (Array.isArray(params.games)) out.games = list(params.games.map((g) => t('err.p.game', { round: g.round, table: g.table })));
  if (Array.isArray(params.tables)) out.tables = list(params.tables.map(String));
  if (Array.isArray(params.players)) out.players = list(params.players.map((n) => t('err.p.player', { n })));
  if ('option' in params) out.option = optionLabels[params.option] ? t(optionLabels[params.option]) : '';
  if (typeof params.count === 'number') out.n = params.count;
  else if (typeof params.active === 'number') out.n = params.active;
  return out;
}

// paramKeys are the refusals said in full from their params, in English
// too (the server's message names ids and JSON fields a page never shows).
const paramKeys = {
  unfinished_games: 'err.unfinished_games.params',
  round_already_started: 'err.round_already_started.params',
  too_few_players: 'err.too_few_players.params',
};

/** paramKey is the catalogue key that says err from its params, or '' when there is none. */
function paramKey(err) {
  const key = err && err.params && paramKeys[err.code];
  if (!key) return '';
  const need = { unfinished_games: 'games', round_already_started: 'round', too_few_players: 'active' }[err.code];
  return need in err.params ? key : '';
}

/**
 * errorText is how a refusal reads: "Refused: <why> (rule X-1)",
 * "被拒绝：<why>（规则 X-1）". A code the
 * catalogue knows is said in the page's language (in English the server's
 * own message is kept: it names the exact field or limit); an unknown code
 * shows the server's message; anything else its message.
 */
export function errorText(err) {
  const code = err && err.code;
  let why;
  const pk = paramKey(err);
  if (pk) {
    why = t(pk, errorParams(err));
  } else if (code && has(`err.${code}`)) {
    const params = errorParams(err);
    const key = code === 'invalid_field' && !params.field ? 'err.invalid_argument' : `err.${code}`;
    why = lang === 'en' && err.message && code !== 'network' ? err.message : t(key, params);
  } else {
    why = (err && err.message) || String(err);
  }
  return t('ui.refusal', { why, rule: err && err.rule ? t('ui.rule', { rule: err.rule }) : '' });
}

/** setLang keeps the reader's choice and reloads the page in that language. */
export function setLang(l) {
  try { localStorage.setItem(storeKey, l); } catch { /* storage disabled */ }
  location.reload();
}
