// pages/game/state.js — what the game page derives from a game view and the
// reader's token, apart from how it is drawn (view.js) and from the page's
// I/O (page.js): who the reader is, what the status line says, which of the
// player's controls show, how the move list reads, what a new view does to a
// move still waiting, which sound a change makes. Pure functions, unit-tested
// in node (web/unit/pages.test.mjs); the reader's settings are kept here too.

import { formatTime, lang, t } from '../../core/i18n.js';
import { sideToMoveOf } from '../../board.js';

const settingKey = (k) => `xqtour.game.${k}`;

/** setting reads one of the reader's on/off settings (confirm, autoPress), dflt when unset. */
export function setting(k, dflt) {
  try {
    const v = localStorage.getItem(settingKey(k));
    return v === null ? dflt : v === '1';
  } catch { return dflt; }
}

/** saveSetting keeps an on/off setting in this browser. */
export function saveSetting(k, on) {
  try { localStorage.setItem(settingKey(k), on ? '1' : '0'); } catch { /* storage disabled */ }
}

/** NOTATIONS are the notations the move list offers. */
export const NOTATIONS = ['chinese', 'wxf', 'iccs'];

/** notationSetting is the reader's notation: kept, else Chinese for a Chinese page, WXF otherwise. */
export function notationSetting() {
  try {
    const v = localStorage.getItem(settingKey('notation'));
    if (NOTATIONS.includes(v)) return v;
  } catch { /* storage disabled */ }
  return lang === 'zh' ? 'chinese' : 'wxf';
}

/** saveNotation keeps the reader's notation. */
export function saveNotation(n) {
  try { localStorage.setItem(settingKey('notation'), n); } catch { /* storage disabled */ }
}

// The record's Chinese text uses traditional forms; the page shows 简体.
const SIMPLIFIED = { 進: '进', 車: '车', 俥: '车', 馬: '马', 傌: '马', 帥: '帅', 將: '将', 砲: '炮', 後: '后', 陣: '阵' };

/** simplify writes a Chinese move in simplified characters and ASCII digits. */
export function simplify(s) {
  return s.replace(/[進車俥馬傌帥將砲後陣]/g, (c) => SIMPLIFIED[c])
    .replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xFEE0));
}

/** parseRecord reads the moves out of a record in move-number form ("1. a b\n2. c d\n1-0 (…)"). */
export function parseRecord(text) {
  const out = [];
  for (const line of String(text || '').split('\n')) {
    const m = /^\s*\d+\.\s+(.*)$/.exec(line);
    if (!m) continue;
    for (const tok of m[1].trim().split(/\s+/)) if (tok && tok !== '...' && tok !== '…') out.push(tok);
  }
  return out;
}

/**
 * roleOf says who the reader of game (a game view) is, from their token's
 * shape: {role: "viewer"|"player"|"official"|"organiser", side} — side is
 * the player's colour. A seat token opens a standalone game; a player's,
 * an official's or the organiser's token the games of their event.
 */
export function roleOf(parts, game, gid) {
  const viewer = { role: 'viewer', side: '' };
  if (!parts || !parts.kind || !game) return viewer;
  const link = game.tournament;
  if (parts.kind === 'seat') return !link && parts.scope === gid ? { role: 'player', side: parts.id } : viewer;
  if (!link || parts.scope !== link.id) return viewer;
  if (parts.kind === 'player') {
    if (parts.id === link.red) return { role: 'player', side: 'red' };
    if (parts.id === link.black) return { role: 'player', side: 'black' };
    return viewer;
  }
  if (parts.kind === 'official') return { role: 'official', side: '' };
  if (parts.kind === 'organiser') return { role: 'organiser', side: '' };
  return viewer;
}

/** playing says whether the game is being played now (its round started, no result). */
export const playing = (game) => !!game && game.status === 'playing' && game.started !== false;

/** checkSide is the side whose king is in check (from the view; the mated side at checkmate), or "". */
export function checkSide(game) {
  let check = game.inCheck === true ? game.sideToMove : typeof game.inCheck === 'string' ? game.inCheck : '';
  if (game.status === 'over' && game.reason === 'checkmate') check = game.sideToMove;
  return check;
}

/** canMove says whether the reader may move on the board now. */
export function canMove(game, role, side, { pending = null, officialKind = '' } = {}) {
  return playing(game) && !pending && ((role === 'player' && game.sideToMove === side) || (role === 'official' && officialKind !== 'arbiter' && officialKind !== 'elsewhere'));
}

/** statusKey is the status line's string: [key, vars] ("" when the result box speaks instead). */
export function statusKey(game, role, side) {
  if (game.status === 'over') return ['', null];
  if (game.status === 'pendingRuling') return ['game.pendingRuling', null];
  if (game.started === false) return game.roundStartsAt ? ['game.startsAt', { at: formatTime(game.roundStartsAt, { timeStyle: 'short' }) }] : ['game.notStarted', null];
  const toMove = sideToMoveOf(game.fen);
  if (role === 'player') return [toMove === side ? 'game.yourMove' : 'game.theirMove', null];
  return ['game.toMove', { side: t(`game.${toMove}`) }];
}

/** factsText is the line under the moves: the no-capture count, fouls, a repetition warning. */
export function factsText(game) {
  const bits = [];
  if (game.noCapture) bits.push(t('game.noCaptureCount', { n: game.noCapture.moves, limit: game.noCapture.limit }));
  if (game.fouls && (game.fouls.red || game.fouls.black)) bits.push(t('game.fouls', game.fouls));
  if (game.repetition && game.repetition.warning) bits.push(t('game.repetition', { n: game.repetition.cycles }));
  return bits.join(' · ');
}

/**
 * pendingAfter is what a new game view leaves of a move still waiting (to
 * be confirmed, being sent, or in the outbox): the move, or null once the
 * game went on (with it or without it — the outbox settles the write
 * itself). A view that shows the move played, pushed before the POST's own
 * answer arrives, frees the board at once: the reader may go on.
 */
export function pendingAfter(pending, game) {
  if (!pending || !game) return pending;
  if (game.status !== 'playing') return null;
  return (pending.state === 'sending' ? game.ply > pending.ply : game.ply !== pending.ply) ? null : pending;
}

/** pieceCount counts the pieces of a FEN's placement. */
export const pieceCount = (fen) => (String(fen).split(' ')[0].match(/[a-zA-Z]/g) || []).length;

/**
 * soundOf is the sound a new view makes: "end" when the game just ended,
 * "check", "capture" (a piece fewer), "move" for a new ply, else "".
 */
export function soundOf(prevPly, prevStatus, prevPieces, next) {
  if (next.status === 'over' && prevStatus && prevStatus !== 'over') return 'end';
  if (prevPly < 0 || next.ply <= prevPly) return '';
  if (next.inCheck) return 'check';
  return prevPieces !== null && pieceCount(next.fen) < prevPieces ? 'capture' : 'move';
}

/**
 * movesShown are the moves the list shows: the record in the reader's
 * notation when it is loaded for this ply, else the view's ICCS; named says
 * whether they are in that notation (Chinese ones simplified).
 */
export function movesShown(game, record, notation) {
  const fits = record.notation === notation && record.ply === game.ply && record.moves.length === game.moves.length;
  const moves = fits ? record.moves : game.moves;
  const chinese = notation === 'chinese' && moves !== game.moves;
  return { moves: chinese ? moves.map(simplify) : moves, chinese, named: moves !== game.moves || notation === 'iccs' };
}

/**
 * barModel says which of a player's controls show under the board: the
 * ✓/✗ of a move waiting for confirmation, an incoming draw offer, arrival
 * (C-6), the clock press, the draw offer (D-1: now right after one's own
 * move, else armed to go with the next), resignation, the claims.
 * ui: {pending, ask, drawArmed, arrived}.
 */
export function barModel(game, role, side, ui) {
  const m = { confirm: '', offer: '', offerBy: '', bar: false, arrive: false, press: false, draw: '', resign: '', claims: false, noCaptureLimit: '' };
  if (ui.pending) m.confirm = ui.pending.state === 'confirm' ? 'ask' : 'sending';
  if (!playing(game)) return m;
  const isPlayer = role === 'player';
  const by = game.drawOffer && game.drawOffer.pending ? game.drawOffer.by : null;
  if (isPlayer && by && by !== side) m.offer = 'incoming';
  else if (by && role !== 'viewer') { m.offer = by === side ? 'mine' : 'other'; m.offerBy = by; }
  if (!isPlayer) return m;
  m.bar = true;
  const movedYet = game.ply >= (sideToMoveOf(game.startFen) === side ? 1 : 2);
  m.arrive = !!game.tournament && !ui.arrived && !movedYet;
  m.press = !!(game.clocks && game.clocks.awaitingPress && game.sideToMove !== side);
  m.justMoved = m.press;
  if (ui.drawArmed) m.draw = 'armed';
  else if (ui.ask === 'draw') m.draw = 'ask';
  else if (!by) m.draw = 'offer';
  m.resign = ui.ask === 'resign' ? 'ask' : 'resign';
  m.claims = true;
  m.noCaptureLimit = game.noCapture ? game.noCapture.limit : '';
  return m;
}
