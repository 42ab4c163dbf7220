// core/store.js — a page's state in one place, drawn at most once per
// animation frame: set() merges a change and asks for a frame; every
// listener runs once in that frame with the whole state, however many
// changes (pushes, polls, clicks) came before it.

const frame = globalThis.requestAnimationFrame ? (fn) => globalThis.requestAnimationFrame(fn) : (fn) => setTimeout(fn, 16);

/** createStore returns {get(), set(patch | fn), subscribe(fn) → unsubscribe, flush()} around initial. */
export function createStore(initial = {}) {
  let state = { ...initial };
  let asked = false;
  const listeners = new Set();
  const draw = () => {
    asked = false;
    for (const fn of listeners) fn(state);
  };
  return {
    /** get returns the current state. */
    get: () => state,
    /** set merges patch (or fn(state)'s result) into the state and asks for one redraw. */
    set(patch) {
      const p = typeof patch === 'function' ? patch(state) : patch;
      if (!p) return;
      state = { ...state, ...p };
      if (!asked && listeners.size) { asked = true; frame(draw); }
    },
    /** subscribe calls fn(state) on every frame with a change; it returns the unsubscribe. */
    subscribe(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    /** flush draws now (a test; an action that must show at once). */
    flush() { if (listeners.size) draw(); },
  };
}
