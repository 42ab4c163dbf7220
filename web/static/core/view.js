// core/view.js — drawing a page by patching: a page's view is a pure
// function from its state to a tree of virtual nodes, and snabbdom
// (vendor/snabbdom, MIT, pinned) patches the DOM to match, touching only
// what changed — so a redraw keeps the focused control, a half-typed field,
// an open <details> and the scroll position, where replacing the panel lost
// them. v() writes nodes with the same attrs as ui.js's h(), so a view reads
// like the DOM code it replaced:
//
//   v('button', { type: 'button', class: 'tab', onclick: pick, key: name }, label)
//
// attrs: on<event> functions become listeners; value, checked, selected,
// disabled and indeterminate are properties; key and hook go to snabbdom;
// everything else is an attribute (null/undefined/false leave it out, true
// sets it empty). Children are nodes, strings or numbers (null, false and
// undefined skipped, arrays flattened).
//
// island(key, node) places a DOM node the view does not own (the board, a
// form kept across redraws) at a point of the tree: snabbdom leaves its
// inside alone.

import { init } from '../vendor/snabbdom/init.js';
import { h } from '../vendor/snabbdom/h.js';
import { attributesModule } from '../vendor/snabbdom/modules/attributes.js';
import { propsModule } from '../vendor/snabbdom/modules/props.js';
import { eventListenersModule } from '../vendor/snabbdom/modules/eventlisteners.js';

/** patch is snabbdom's patch with the attribute, property and listener modules. */
export const patch = init([attributesModule, propsModule, eventListenersModule]);

const PROPS = new Set(['value', 'checked', 'selected', 'disabled', 'indeterminate']);

function flat(children, out = []) {
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === true) continue;
    if (Array.isArray(c)) flat(c, out);
    else out.push(typeof c === 'object' ? c : String(c));
  }
  return out;
}

/** v builds a virtual node: v(tag, attrs, ...children) (see the file's comment). */
export function v(tag, attrs, ...children) {
  const data = { attrs: {}, props: {}, on: {} };
  for (const [k, val] of Object.entries(attrs || {})) {
    if (k === 'key') data.key = val;
    else if (k === 'hook') data.hook = val;
    else if (k.startsWith('on') && typeof val === 'function') data.on[k.slice(2).toLowerCase()] = val;
    else if (PROPS.has(k)) data.props[k] = k === 'value' ? val : val === '' || !!val;
    else if (val !== null && val !== undefined && val !== false) data.attrs[k] = val === true ? '' : String(val);
  }
  const kids = flat(children);
  // One text child is the node's text (snabbdom's fast path).
  if (kids.length === 1 && typeof kids[0] === 'string') return h(tag, data, kids[0]);
  return h(tag, data, kids); // snabbdom makes text nodes of the strings
}

/**
 * island is a <div> (or tag) holding node, a DOM element the view does not
 * draw: it is put in when the island is created and whenever node changes.
 */
export function island(key, node, tag = 'div', attrs = {}) {
  const put = (vnode) => {
    const host = vnode.elm;
    if (node && host.firstChild !== node) host.replaceChildren(node);
    else if (!node && host.firstChild) host.replaceChildren();
  };
  return v(tag, { ...attrs, key, hook: { insert: put, postpatch: (_, vnode) => put(vnode) } });
}

/**
 * mountView draws render(state) into root and returns redraw(state), which
 * patches root to the new tree. root's own element stays; its children are
 * the view's.
 */
export function mountView(root, render) {
  const host = document.createElement('div');
  root.replaceChildren(host);
  let current = host;
  return (state) => {
    const next = v('div', { class: 'view-root' }, render(state));
    current = patch(current, next);
    return current;
  };
}
