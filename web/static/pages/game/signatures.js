// pages/game/signatures.js — the scoresheet's three signatures (O-3; 000
// ch.7 §2 第6条: 双方棋手和书记当场签字认可,为对局结束). Every reader sees who
// signed and when, or that the record awaits signatures; on an official's
// pad each unsigned line takes a name, a tap and, optionally, a signature
// drawn with a finger or a mouse (kept as strokes, drawn as SVG), or a
// player's refusal, recorded for the chief arbiter (ch.4 (12)). The pad's
// signatures go through the offline queue like its moves.

import { formatTime, t } from '../../core/i18n.js';
import { h } from '../../ui.js';

const LINES = ['red', 'black', 'scribe'];
const BOX = 255; // the strokes' coordinate square (the server's SignatureBox)
const MAX_POINTS = 2000;
const SVGNS = 'http://www.w3.org/2000/svg';

/** strokesSVG draws strokes (flat x,y lists) as an SVG document, as the server does. */
export function strokesSVG(strokes) {
  if (!strokes || !strokes.length) return '';
  const lines = strokes.map((st) => {
    const pts = [];
    for (let i = 0; i + 1 < st.length; i += 2) pts.push(`${st[i] | 0},${st[i + 1] | 0}`);
    return `<polyline points="${pts.join(' ')}"/>`;
  });
  // the strokes' bounds with a margin for the pen, as the server draws it
  const xs = strokes.flatMap((st) => st.filter((_, i) => i % 2 === 0));
  const ys = strokes.flatMap((st) => st.filter((_, i) => i % 2 === 1));
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const box = `${x0 - 4} ${y0 - 4} ${Math.max(...xs) - x0 + 8} ${Math.max(...ys) - y0 + 8}`;
  return `<svg xmlns="${SVGNS}" viewBox="${box}" fill="none" stroke="#000" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">${lines.join('')}</svg>`;
}

/** svgImage shows an SVG document as an image (data: URL; the page's CSP allows data: images only). */
export function svgImage(svg, alt) {
  return h('img', { class: 'sig-img', src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt });
}

/** signatureText says one signed line in words: name and time, or the refusal. */
export function signatureText(s) {
  const at = formatTime(s.at, { dateStyle: 'short', timeStyle: 'short' });
  if (s.refused) return t('sig.refusedLine', { name: s.name, at });
  return s.pending ? t('sig.pendingLine', { name: s.name, at }) : t('sig.signedLine', { name: s.name, at });
}

// A drawing pad: an SVG square the pointer draws strokes on.
function drawPad(label) {
  const svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${BOX} ${BOX / 3}`);
  svg.setAttribute('class', 'sig-pad');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  let strokes = [];
  let cur = null;
  let el = null;
  let points = 0;
  const at = (ev) => {
    const r = svg.getBoundingClientRect();
    const x = Math.round(((ev.clientX - r.left) / r.width) * BOX);
    const y = Math.round(((ev.clientY - r.top) / r.height) * (BOX / 3));
    return [Math.max(0, Math.min(BOX, x)), Math.max(0, Math.min(BOX, y))];
  };
  svg.addEventListener('pointerdown', (ev) => {
    if (points >= MAX_POINTS) return;
    svg.setPointerCapture?.(ev.pointerId);
    cur = at(ev);
    points++;
    el = document.createElementNS(SVGNS, 'polyline');
    el.setAttribute('points', `${cur[0]},${cur[1]}`);
    svg.append(el);
    strokes.push(cur);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!cur || points >= MAX_POINTS) return;
    const [x, y] = at(ev);
    const n = cur.length;
    if (Math.abs(cur[n - 2] - x) + Math.abs(cur[n - 1] - y) < 3) return;
    cur.push(x, y);
    points++;
    el.setAttribute('points', `${el.getAttribute('points')} ${x},${y}`);
  });
  const end = () => {
    if (cur && cur.length < 4) cur.push(cur[0], cur[1]); // a dot is a stroke of one point
    cur = null;
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  return {
    el: svg,
    strokes: () => strokes.filter((s) => s.length >= 2).slice(0, 40),
    clear: () => { strokes = []; points = 0; svg.replaceChildren(); },
  };
}

/**
 * mountSignatures draws the signatures section into host. ctx: {canSign(),
 * nameOf(line), sign(body)}. It returns {update(game)}: hidden until the
 * game is over.
 */
export function mountSignatures(host, ctx) {
  const head = h('h2', { id: 'sig-h' });
  const state = h('p', { class: 'sig-state', role: 'status', 'aria-live': 'polite' });
  const rows = h('div', { class: 'sig-lines' });
  const section = h('section', { class: 'signatures', 'aria-labelledby': 'sig-h', hidden: '' }, head, state, rows);
  host.replaceChildren(section);
  const forms = new Map(); // line → {row, name, pad}
  let lastKey = '';

  function form(line) {
    const id = `sig-${line}-name`;
    const name = h('input', { id, maxlength: 60, autocomplete: 'off', value: ctx.nameOf(line) || '' });
    const pad = drawPad(t('sig.drawLabel', { line: t(`sig.line.${line}`) }));
    const signBtn = h('button', { type: 'submit', class: 'primary' }, t('sig.sign'));
    const clear = h('button', { type: 'button' }, t('sig.clear'));
    clear.addEventListener('click', () => pad.clear());
    const f = h('form', { class: 'sig-form' },
      h('div', { class: 'form-row' }, h('label', { for: id }, t('sig.name')), name),
      h('p', { class: 'seat-meta' }, t('sig.drawHint')), pad.el,
      h('div', { class: 'form-row' }, signBtn, clear));
    f.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (!name.value.trim()) { name.setCustomValidity(t('sig.nameMissing')); name.reportValidity(); return; }
      name.setCustomValidity('');
      const body = { line, name: name.value.trim() };
      const strokes = pad.strokes();
      if (strokes.length) body.strokes = strokes;
      ctx.sign(body);
    });
    if (line !== 'scribe') {
      const refuse = h('button', { type: 'button', class: 'sig-refuse' }, t('sig.refuse'));
      refuse.addEventListener('click', () => {
        if (!name.value.trim()) { name.setCustomValidity(t('sig.nameMissing')); name.reportValidity(); return; }
        ctx.sign({ line, name: name.value.trim(), refused: true });
      });
      f.lastElementChild.append(refuse);
    }
    return f;
  }

  return {
    update(game) {
      section.hidden = !game || game.status !== 'over';
      if (section.hidden) return;
      const sigs = game.signatures || [];
      const byLine = new Map(sigs.map((s) => [s.line, s]));
      const closed = byLine.get('closed');
      const done = LINES.every((l) => byLine.has(l));
      head.textContent = t('sig.title');
      // An arbiter may close a sheet that will not be signed (O-3).
      state.textContent = done ? t('sig.allSigned') : closed ? t('sig.closed', { name: closed.name, at: formatTime(closed.at, { dateStyle: 'short', timeStyle: 'short' }) }) : t('sig.awaiting');
      section.dataset.signed = String(!!game.signed);
      const key = JSON.stringify(sigs.map((s) => [s.line, s.at, !!s.pending])) + ctx.canSign();
      if (key === lastKey) return;
      lastKey = key;
      rows.replaceChildren(...LINES.map((line) => {
        const s = byLine.get(line);
        const row = h('div', { class: 'sig-line', 'data-line': line }, h('h3', {}, t(`sig.line.${line}`)));
        if (s) {
          row.append(h('p', { class: s.refused ? 'sig-text refused' : 'sig-text' }, signatureText(s)));
          const svg = s.svg || strokesSVG(s.strokes);
          if (svg) row.append(svgImage(svg, t('sig.drawn', { name: s.name })));
          forms.delete(line);
        } else if (ctx.canSign() && !closed) {
          if (!forms.has(line)) forms.set(line, form(line));
          row.append(forms.get(line));
        } else {
          row.append(h('p', { class: 'seat-meta' }, t('sig.awaitingLine')));
        }
        return row;
      }));
    },
  };
}
