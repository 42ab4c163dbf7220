// clock.js — the game's two clocks: big digits, tenths under ten seconds, a
// low-time colour (and one sound) below min(60 s, 12.5% of the first
// period), counting down smoothly between updates and snapped to the
// server's reading whenever a game view arrives.

import { t } from './core/i18n.js';

/** formatClock shows ms as h:mm:ss, m:ss, or s.t with tenths under ten seconds. */
export function formatClock(ms) {
  const v = Math.max(0, ms);
  if (v < 10000) {
    const tenths = Math.floor(v / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(v / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** lowTimeMs is lichess's threshold: min(60 s, 12.5% of the first period's time). */
export function lowTimeMs(timeControl) {
  const first = timeControl && timeControl.periods && timeControl.periods[0];
  const initial = first ? first.ms : 0;
  return initial ? Math.min(60000, initial * 0.125) : 0;
}

/**
 * createClocks drives two clock elements {red, black}. sync(game, {serverTime,
 * receivedAt}) snaps them to a game view; onLow(side) is called once per side
 * when its time first falls below the threshold; onZero(side) once per view
 * when the running clock shows 0:00.0 (the page then asks the server, which
 * alone decides a flag fall, C-4).
 */
export function createClocks(els, { onLow, onZero } = {}) {
  let view = null;
  let anchor = 0; // local time (performance.now) the view's readings hold for
  let skew = null; // best estimate of server clock minus local clock (Date.now)
  let timer = 0;
  const warned = { red: false, black: false };
  let zeroed = false; // onZero called for the current view

  for (const side of ['red', 'black']) {
    els[side].setAttribute('role', 'timer');
    els[side].setAttribute('aria-label', t(`clock.label.${side}`));
  }

  function remaining(side) {
    const f = view.clocks[side];
    let ms = f ? f.remainingMs : view.clocks[`${side}Ms`];
    if (view.clocks.running === side && view.status === 'playing') ms -= performance.now() - anchor;
    return Math.max(0, ms);
  }

  function draw() {
    if (!view) return;
    const low = lowTimeMs(view.timeControl);
    for (const side of ['red', 'black']) {
      const e = els[side];
      if (view.clocks.untimed) {
        e.textContent = t('clock.untimed');
        e.className = 'clock clock-untimed';
        continue;
      }
      const ms = remaining(side);
      const face = view.clocks[side] || {};
      const running = view.clocks.running === side && view.status === 'playing';
      e.textContent = formatClock(ms);
      const cls = ['clock'];
      if (running) cls.push('clock-running');
      if (low && ms < low) cls.push('clock-low');
      if (face.flagged || (ms <= 0 && running)) cls.push('clock-flagged');
      e.className = cls.join(' ');
      if (face.movesDue > 0) e.title = t('clock.movesDue', { n: face.movesDue });
      if (low && ms < low && running && !warned[side]) {
        warned[side] = true;
        if (onLow) onLow(side);
      }
      if (ms >= low) warned[side] = false;
      if (running && ms <= 0 && !face.flagged && !zeroed) {
        zeroed = true;
        if (onZero) onZero(side);
      }
    }
  }

  function tick() {
    draw();
    const running = view && view.status === 'playing' && view.clocks.running && !view.clocks.untimed;
    if (!running) { timer = 0; return; }
    // redraw as the shown digit changes: every 100 ms under ten seconds, else at the next second
    const ms = remaining(view.clocks.running);
    const next = ms < 10000 ? (ms % 100) || 100 : (ms % 1000) || 1000;
    timer = setTimeout(tick, Math.min(next + 5, 1000));
  }

  return {
    /** sync snaps the clocks to a game view received at meta.receivedAt (Date.now()). */
    sync(game, meta = {}) {
      view = game;
      zeroed = false;
      const now = Date.now();
      const received = meta.receivedAt || now;
      let readAt = received;
      if (typeof meta.serverTime === 'number') {
        // The view was read at serverTime by the server's clock; keep the
        // smallest-delay sample as the offset so one slow message cannot skew it.
        const sample = meta.serverTime - received;
        skew = skew === null ? sample : Math.max(skew, sample);
        readAt = Math.min(received, meta.serverTime - skew);
      }
      anchor = performance.now() - (now - readAt);
      clearTimeout(timer);
      tick();
    },
    /** remaining is a side's time left now, in ms. */
    remaining(side) { return view ? remaining(side) : 0; },
    /** stop ends the ticking (page left). */
    stop() { clearTimeout(timer); timer = 0; },
  };
}
