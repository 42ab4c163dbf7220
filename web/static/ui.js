// ui.js — small DOM helpers shared by every page: element building without
// innerHTML (no markup injection from names), refusals shown in the reader's
// language (core/i18n.js errorText), busy buttons that say when a write is
// queued for a retry, copyable links, a confirmation <dialog>, CSV.

import { errorText, t } from './core/i18n.js';
import { events as outboxEvents } from './core/outbox.js';

export { errorText };

/**
 * h builds an element: attrs sets attributes (class, id, aria-*, …), `on`
 * functions as listeners (onclick → click), and value/checked/selected/
 * disabled as properties; children are nodes or text (null/false skipped).
 * An attribute whose value is null, undefined or false is left out; "" or
 * true sets it empty (checked: "" is checked, as in HTML).
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const e = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'value') e.value = v;
    else if (k === 'checked' || k === 'selected' || k === 'disabled') e[k] = v === '' || !!v; // as the attribute: present is on
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
  // A write of fn's that waits for a retry (offline, server busy) says so.
  const queued = () => { if (status) clear(status, h('p', { class: 'muted', role: 'status' }, t('ui.queued'))); };
  outboxEvents.addEventListener('queued', queued);
  try {
    return await fn();
  } catch (err) {
    if (status) showError(status, err);
    else console.warn(err);
    return undefined;
  } finally {
    outboxEvents.removeEventListener('queued', queued);
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
      btn.textContent = t('ui.copied');
    } catch {
      // No clipboard (an insecure origin, a refused permission): select the
      // link so the reader's own copy takes it.
      input.focus();
      input.select();
      btn.textContent = t('ui.copyByHand');
    }
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

/** select builds a <select> from [value, label] pairs; attrs.value picks the selected one. */
export function select(options, attrs = {}) {
  return h('select', attrs, options.map(([v, l]) => h('option', { value: v, selected: String(v) === String(attrs.value ?? '') }, l)));
}

/**
 * confirmDialog asks a yes/no question in a modal <dialog> (focus kept
 * inside, Escape cancels) and resolves to true when the reader confirms.
 */
export function confirmDialog(question, { yes = t('ui.yes'), no = t('ui.cancel') } = {}) {
  return new Promise((resolve) => {
    const ok = h('button', { type: 'submit', value: 'yes', class: 'primary' }, yes);
    const cancel = h('button', { type: 'submit', value: 'no', autofocus: true }, no);
    const dlg = h('dialog', { class: 'confirm-dialog', 'aria-label': question },
      h('form', { method: 'dialog' }, h('p', {}, question), h('div', { class: 'row' }, cancel, ok)));
    dlg.addEventListener('close', () => { resolve(dlg.returnValue === 'yes'); dlg.remove(); });
    document.body.append(dlg);
    dlg.showModal();
  });
}

/**
 * validate checks a form with the browser's own constraint validation,
 * saying every broken field in the page's language (a required field, a
 * number out of range) instead of the browser's or the server's words.
 * It returns true when the form may be sent; else it focuses the first bad
 * field and reports it.
 */
export function validate(form) {
  let first = null;
  for (const el of form.elements) {
    if (!el.willValidate) continue;
    el.setCustomValidity('');
    if (el.closest('[hidden]')) continue; // a folded-away system's options are not sent
    const v = el.validity;
    if (v.valid) continue;
    const msg = v.valueMissing ? t('ui.v.required') : v.rangeUnderflow ? t('ui.v.min', { min: el.min })
      : v.rangeOverflow ? t('ui.v.max', { max: el.max }) : v.tooLong ? t('ui.v.tooLong', { n: el.maxLength })
        : v.badInput || v.stepMismatch || v.typeMismatch ? t('ui.v.bad') : t('ui.v.bad');
    el.setCustomValidity(msg);
    first = first || el;
  }
  if (first) { first.reportValidity(); first.focus(); return false; }
  return true;
}

/** download offers text as a file (CSV, PGN) without a round trip. */
export function download(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = h('a', { href: url, download: name, class: 'visually-hidden' }, name);
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(url); a.remove(); }, 1000);
}

/**
 * parseCSV reads CSV text (RFC 4180 quotes, commas, tabs, semicolons or
 * full-width commas) into rows of trimmed cells. A quoted cell may hold the
 * separator, a doubled quote and line breaks: the text is read character by
 * character, so a line break inside quotes stays in its cell. Blank lines
 * are skipped.
 */
export function parseCSV(text) {
  const src = String(text).replace(/^\uFEFF/, '');
  const first = src.split(/\r?\n/).find((l) => l.trim()) || '';
  const sep = first.includes('\t') ? '\t' : (first.includes(';') && !first.includes(',') ? ';' : (first.includes('，') && !first.includes(',') ? '，' : ','));
  const rows = [];
  let cells = [];
  let cur = '';
  let quoted = false;
  let wasQuoted = false;
  const endCell = () => { cells.push(wasQuoted ? cur : cur.trim()); cur = ''; wasQuoted = false; };
  const endRow = () => {
    endCell();
    if (cells.length > 1 || cells[0] !== '') rows.push(cells.map((c) => c.trim()));
    cells = [];
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"' && cur.trim() === '' && !wasQuoted) { quoted = true; wasQuoted = true; cur = ''; }
    else if (c === sep) endCell();
    else if (c === '\n' || c === '\r') { if (c === '\r' && src[i + 1] === '\n') i++; endRow(); }
    else cur += c;
  }
  if (cur !== '' || cells.length || wasQuoted) endRow();
  return rows;
}
