// sound.js — the game's sounds, synthesized with WebAudio (no audio files):
// move, capture, check, low time and game end, and a mute switch kept in
// the browser. Browsers start audio only after a user gesture; until then a
// sound is silently skipped.

const muteKey = 'xqtour.mute';
let ctx = null;

/** muted says whether the reader switched sounds off. */
export function muted() {
  try { return localStorage.getItem(muteKey) === '1'; } catch { return false; }
}

/** setMuted keeps the reader's choice. */
export function setMuted(on) {
  try { localStorage.setItem(muteKey, on ? '1' : '0'); } catch { /* storage disabled */ }
}

function audio() {
  if (ctx) return ctx;
  const AC = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!AC) return null;
  try { ctx = new AC(); } catch { ctx = null; }
  return ctx;
}

// Unlock audio on the first gesture so later sounds (the opponent's move) play.
if (typeof document !== 'undefined') {
  const unlock = () => {
    const a = audio();
    if (a && a.state === 'suspended') a.resume().catch(() => {});
    document.removeEventListener('pointerdown', unlock, true);
    document.removeEventListener('keydown', unlock, true);
  };
  document.addEventListener('pointerdown', unlock, true);
  document.addEventListener('keydown', unlock, true);
}

// tone plays one note: frequency Hz, start offset and length in seconds.
function tone(a, freq, at, len, type = 'sine', gain = 0.25) {
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, a.currentTime + at);
  g.gain.setValueAtTime(0.0001, a.currentTime + at);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + at + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + len);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + at);
  o.stop(a.currentTime + at + len + 0.02);
}

const SOUNDS = {
  // a short wooden knock
  move: (a) => { tone(a, 320, 0, 0.09, 'triangle', 0.35); tone(a, 640, 0, 0.04, 'sine', 0.1); },
  // two knocks, lower
  capture: (a) => { tone(a, 260, 0, 0.08, 'triangle', 0.4); tone(a, 190, 0.07, 0.12, 'triangle', 0.4); },
  // a rising alert
  check: (a) => { tone(a, 660, 0, 0.12, 'square', 0.12); tone(a, 880, 0.12, 0.18, 'square', 0.12); },
  // three quick high beeps
  low: (a) => { for (let i = 0; i < 3; i++) tone(a, 1200, i * 0.16, 0.09, 'sine', 0.2); },
  // a falling chord
  end: (a) => { tone(a, 784, 0, 0.35, 'sine', 0.2); tone(a, 659, 0.15, 0.35, 'sine', 0.2); tone(a, 523, 0.3, 0.6, 'sine', 0.2); },
};

/** play plays a sound by name ("move", "capture", "check", "low", "end") unless muted. */
export function play(name) {
  if (muted() || !SOUNDS[name]) return;
  const a = ctx; // made by the first gesture: none before, so no console warning
  if (!a || a.state !== 'running') return;
  try { SOUNDS[name](a); } catch { /* a browser without some node type: stay silent */ }
}
