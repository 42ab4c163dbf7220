// ui.js — small DOM helpers shared by the home and event pages: element
// building without innerHTML (no markup injection from names), refusals shown
// with the API's message, busy buttons and copyable links.

import { ApiError } from './api.js';
import { addStrings, t } from './i18n.js';

addStrings({
  zh: {
    'ui.copy': '复制',
    'ui.copied': '已复制',
    'ui.rule': '规则 {rule}',
    'ui.working': '处理中…',
    'ui.retry': '重试',
    'ui.close': '关闭',
  },
  en: {
    'ui.copy': 'Copy',
    'ui.copied': 'Copied',
    'ui.rule': 'rule {rule}',
    'ui.working': 'Working…',
    'ui.retry': 'Retry',
    'ui.close': 'Close',
  },
});

/**
 * h builds an element: attrs sets attributes (class, id, aria-*, …), `on`
 * functions as listeners (onclick → click), and value/checked/selected/
 * disabled as properties; children are nodes or text (null/false skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const e = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled') e[k] = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** clear empties an element and appends children. */
export function clear(e, ...children) {
  e.replaceChildren();
  append(e, children);
  return e;
}

/** errorText is how a refusal reads: the API's message and, when a rule decided, its id. */
export function errorText(err) {
  if (err instanceof ApiError) {
    const rule = err.rule ? ` (${t('ui.rule', { rule: err.rule })})` : '';
    return `${t('err.prefix')}: ${err.message}${rule}`;
  }
  return `${t('err.prefix')}: ${(err && err.message) || String(err)}`;
}

/** showError puts a refusal in a status element (role=alert so screen readers hear it). */
export function showError(el, err) {
  clear(el, h('p', { class: 'error', role: 'alert' }, errorText(err)));
}

/** showOk puts a short success message in a status element. */
export function showOk(el, text) {
  clear(el, h('p', { class: 'ok', role: 'status' }, text));
}

/**
 * act runs fn for a button press: the button is disabled meanwhile, the status
 * element cleared and then given the refusal if fn throws. Returns fn's value
 * (undefined after a refusal).
 */
export async function act(button, status, fn) {
  if (button) button.disabled = true;
  if (status) clear(status);
  try {
    return await fn();
  } catch (err) {
    if (status) showError(status, err);
    else console.warn(err);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

/** linkBox shows a URL to keep (a token link) with a copy button. */
export function linkBox(label, url) {
  const input = h('input', { type: 'text', readonly: true, value: url, class: 'link-input', 'aria-label': label });
  input.setAttribute('value', url); // survives a reset of the form it sits in
  const btn = h('button', { type: 'button', class: 'small' }, t('ui.copy'));
  btn.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      input.select();
      document.execCommand('copy');
    }
    btn.textContent = t('ui.copied');
    setTimeout(() => { btn.textContent = t('ui.copy'); }, 1500);
  });
  return h('div', { class: 'linkbox' }, h('span', { class: 'linkbox-label' }, label), h('div', { class: 'linkbox-row' }, input, btn));
}

/** field wraps a control with its visible label (and an optional hint). */
export function field(label, control, hint) {
  const id = control.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  const hintEl = hint ? h('small', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hintEl);
}

/** checkbox is a labelled checkbox. */
export function checkbox(label, attrs = {}) {
  const id = attrs.id || `c-${Math.random().toString(36).slice(2, 9)}`;
  return h('div', { class: 'field check' }, h('input', { type: 'checkbox', ...attrs, id }), h('label', { for: id }, label));
}

/** select builds a <select> from [value, label] pairs. */
export function select(options, attrs = {}) {
  return h('select', attrs, options.map(([v, l]) => h('option', { value: v, selected: String(v) === String(attrs.value ?? '') }, l)));
}

/** download offers text as a file (CSV, PGN) without a round trip. */
export function download(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = h('a', { href: url, download: name, class: 'visually-hidden' }, name);
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(url); a.remove(); }, 1000);
}

/** parseCSV reads CSV text (quotes, commas, tabs or semicolons) into rows of trimmed cells. */
export function parseCSV(text) {
  const rows = [];
  const lines = String(text).replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.find((l) => l.trim()) || '';
  const sep = first.includes('\t') ? '\t' : (first.includes(';') && !first.includes(',') ? ';' : (first.includes('，') && !first.includes(',') ? '，' : ','));
  for (const line of lines) {
    if (!line.trim()) continue;
    const cells = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
      } else if (c === '"' && cur.trim() === '') { quoted = true; cur = ''; } else if (c === sep) { cells.push(cur.trim()); cur = ''; } else cur += c;
    }
    cells.push(cur.trim());
    rows.push(cells);
  }
  return rows;
}
