// game.js — the page of one game, /g/{gid}: the board, both players and
// clocks, the move list in the reader's notation, the result and the
// record's downloads, live. With a seat or player token (#token=…) the
// reader plays: moves by tap or drag (with an optional ✓/✗ confirmation),
// the clock press, draw offers and answers, resignation and claims. With an
// official's (or the organiser's) token the page is the table's pad: a
// scribe records moves and presses, an arbiter enters results and rulings
// (see game-official.js).
//
// Nothing here knows the rules: legal targets are the game view's
// legalMoves, and every action is the API's to accept or refuse (said in
// the reader's language). Every write goes through core/outbox.js; a move
// names its ply, so a retry after a lost answer first reads the game and is
// sent again only when the move did not land.

import { ApiError, get, newKey } from './core/http.js';
import { errorText, formatTime, lang, t } from './core/i18n.js';
import * as outbox from './core/outbox.js';
import { getToken, tokenFrom, tokenParts } from './core/tokens.js';
import { onStatus, setGame, watchGame, refreshGame } from './core/live.js';
import { createBoard, isICCS, sideToMoveOf } from './board.js';
import { createClocks } from './clock.js';
import { muted, play, setMuted } from './sound.js';
import { reasonText, resultName } from './names.js';
import { h } from './ui.js';
import { mountOfficial } from './game-official.js';

const settingKey = (k) => `xqtour.game.${k}`;
function setting(k, dflt) {
  try {
    const v = localStorage.getItem(settingKey(k));
    return v === null ? dflt : v === '1';
  } catch { return dflt; }
}
function saveSetting(k, on) {
  try { localStorage.setItem(settingKey(k), on ? '1' : '0'); } catch { /* storage disabled */ }
}
function notationSetting() {
  try {
    const v = localStorage.getItem(settingKey('notation'));
    if (v === 'chinese' || v === 'wxf' || v === 'iccs') return v;
  } catch { /* storage disabled */ }
  return lang === 'zh' ? 'chinese' : 'wxf';
}

// The record's Chinese text uses traditional forms; the page shows 简体.
const SIMPLIFIED = { 進: '进', 車: '车', 俥: '车', 馬: '马', 傌: '马', 帥: '帅', 將: '将', 砲: '炮', 後: '后', 陣: '阵' };
function simplify(s) {
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

/** mount draws the game page for gid into root. */
export function mount(root, { gid, token: given = '' }) {
  const page = h('section', { class: 'game-page', 'aria-labelledby': 'game-title' });
  root.replaceChildren(page);

  let token = given || tokenFrom(`game:${gid}`);
  let game = null;
  let names = { red: '', black: '' };
  let eventName = '';
  let role = 'viewer'; // viewer | player | official | organiser
  let mySide = ''; // the player's side
  let pending = null; // {move, ply, key, state: 'confirm'|'sending'|'retry'}
  let ask = ''; // the action asking ✓/✗ in place: 'draw' | 'resign' | ''
  let arrived = false; // this page recorded the player's arrival (C-6)
  let drawArmed = false; // D-1: an offer goes with the next move, before the clock press
  let lastPly = -1;
  let lastStatus = '';
  let notation = notationSetting();
  let recordTexts = { ply: -1, notation: '', moves: [] };
  let alive = true;
  let unwatch = () => {};
  let official = null;
  let officialKind = ''; // 'scribe' | 'arbiter' once GET /me says

  // ---- layout ----
  const title = h('h1', { id: 'game-title' }, t('game.title'));
  const status = h('span', { class: 'game-status', role: 'status', 'aria-live': 'polite' });
  const eventLink = h('a', { href: '#', hidden: '' }, t('game.event'));
  const roleLine = h('span', { class: 'seat-meta' });
  const head = h('div', { class: 'game-head' }, title, status, roleLine, eventLink);
  const announce = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  const offline = h('div', { class: 'game-offline', role: 'alert', hidden: '' });
  const errorBox = h('div', { class: 'game-error', role: 'alert', hidden: '' });
  const resultBox = h('div', { class: 'game-result', role: 'status', hidden: '' });

  const seat = (side) => {
    const name = h('span', { class: 'seat-label' });
    const meta = h('span', { class: 'seat-meta' });
    const clockEl = h('div', { class: 'clock' });
    const row = h('div', { class: `seat seat-${side}` },
      h('div', { class: 'seat-name' }, h('span', { class: 'seat-dot', 'aria-hidden': 'true' }), name, meta), clockEl);
    return { row, name, meta, clockEl };
  };
  const seats = { red: seat('red'), black: seat('black') };
  const topSlot = h('div');
  const bottomSlot = h('div');
  const boardHost = h('div', { class: 'board-host' });
  const confirmBar = h('div', { class: 'confirm-bar', hidden: '' });
  const offerBar = h('div', { class: 'offer-bar', role: 'status', hidden: '' });
  const bar = h('div', { class: 'game-bar', hidden: '' });
  const boardCol = h('div', { class: 'game-col' }, topSlot, boardHost, bottomSlot, errorBox, confirmBar, offerBar, resultBox, bar);

  const movesList = h('ol', { class: 'moves', 'aria-label': t('game.moves') });
  const notationSel = h('select', { id: 'game-notation' },
    ...['chinese', 'wxf', 'iccs'].map((n) => h('option', { value: n, ...(n === notation ? { selected: '' } : {}) }, t(`game.notation.${n}`))));
  const facts = h('p', { class: 'seat-meta' });
  const movesBox = h('section', { 'aria-labelledby': 'game-moves-h' },
    h('h2', { id: 'game-moves-h' }, t('game.moves')),
    h('div', { class: 'form-row' }, h('label', { for: 'game-notation' }, t('game.notation')), notationSel),
    movesList, facts);
  const downloads = h('div', { class: 'downloads' },
    ...['pgn', 'chinese', 'wxf', 'iccs', 'fen', 'yz3', 'yz4'].map((f) =>
      h('a', { href: `/games/${encodeURIComponent(gid)}/record?format=${f}`, download: `${gid}.${f === 'pgn' ? 'pgn' : `${f}.txt`}` }, f.toUpperCase())));
  const downloadsBox = h('section', { 'aria-labelledby': 'game-dl-h' }, h('h2', { id: 'game-dl-h' }, t('game.downloads')), downloads);

  const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  const check = (id, label, on, change) => {
    const input = h('input', { type: 'checkbox', id, ...(on ? { checked: '' } : {}) });
    input.addEventListener('change', () => change(input.checked));
    return { input, row: h('label', { for: id }, input, label) };
  };
  const confirmOpt = check('game-confirm', t('game.confirmMoves'), false, (on) => saveSetting('confirm', on));
  const pressOpt = check('game-autopress', t('game.autoPress'), setting('autoPress', true), (on) => saveSetting('autoPress', on));
  const muteOpt = check('game-mute', t('game.mute'), muted(), (on) => setMuted(on));
  const flip = h('button', { type: 'button', class: 'flip' }, t('game.flip'));
  flip.addEventListener('click', () => { board.setOrientation(board.orientation === 'red' ? 'black' : 'red'); render(); });
  const tokenInput = h('input', { id: 'game-token', type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const tokenForm = h('form', { class: 'form-row' }, h('label', { for: 'game-token' }, t('game.tokenLabel')), tokenInput,
    h('button', { type: 'submit' }, t('game.tokenSave')));
  const tokenBox = h('details', {}, h('summary', {}, t('game.token')), tokenForm);
  const settingsBox = h('section', { class: 'settings', 'aria-labelledby': 'game-set-h' },
    h('h2', { id: 'game-set-h' }, t('game.settings')), confirmOpt.row, pressOpt.row, muteOpt.row, flip, tokenBox);
  const officialHost = h('div');
  const side = h('aside', { class: 'game-side' }, officialHost, movesBox, downloadsBox, settingsBox);
  page.append(offline, head, announce, h('div', { class: 'game-layout' }, boardCol, side));

  const board = createBoard(boardHost, { orientation: 'red', onMove: (mv) => chooseMove(mv) });
  const clocks = createClocks({ red: seats.red.clockEl, black: seats.black.clockEl }, {
    onLow: (s) => { if (role === 'player' && s === mySide) play('low'); },
  });

  // ---- helpers ----
  function showError(err) {
    if (!err) { errorBox.hidden = true; errorBox.textContent = ''; return; }
    errorBox.textContent = errorText(err);
    errorBox.hidden = false;
  }

  // post writes to the game through the outbox; opts may hold the outbox's
  // key, settle, onQueued, contentType.
  async function post(path, body, opts = {}) {
    showError(null);
    const view = await outbox.post(`/games/${encodeURIComponent(gid)}${path}`, body, { token, ...opts });
    if (view && view.id) setGame(gid, view);
    return view;
  }

  async function act(path, body) {
    try {
      await post(path, body);
    } catch (err) {
      showError(err);
      refreshGame(gid);
    }
  }

  function whoAmI() {
    const parts = tokenParts(token);
    role = 'viewer'; mySide = '';
    if (!token || !game) return;
    const link = game.tournament;
    if (parts.kind === 'seat' && !link && parts.scope === gid) { role = 'player'; mySide = parts.id; }
    else if (parts.kind === 'player' && link && parts.scope === link.id) {
      if (parts.id === link.red) { role = 'player'; mySide = 'red'; } else if (parts.id === link.black) { role = 'player'; mySide = 'black'; }
    } else if (parts.kind === 'official' && link && parts.scope === link.id) role = 'official';
    else if (parts.kind === 'organiser' && link && parts.scope === link.id) role = 'organiser';
  }

  // ---- moves ----
  function chooseMove(mv) {
    if (!game || pending) return;
    ask = '';
    const useConfirm = confirmOpt.input.checked && role === 'player';
    pending = { move: mv, ply: game.ply, key: newKey(), state: useConfirm ? 'confirm' : 'sending' };
    render();
    if (!useConfirm) sendMove();
  }

  async function sendMove() {
    if (!pending) return;
    const p = pending;
    p.state = 'sending';
    render();
    const body = { move: p.move, ply: p.ply };
    const offer = drawArmed && role === 'player';
    if (pressOpt.input.checked && !offer) body.press = true;
    try {
      // Lost on the way (or the server busy), the move waits in the outbox
      // under its one Idempotency-Key; before each resend the outbox reads
      // the game and sends again only while it still stands at this ply.
      await post('/moves', body, {
        key: p.key, settle: { game: gid, ply: p.ply },
        onQueued: () => { if (pending === p) { p.state = 'retry'; render(); } },
      });
      if (pending === p) pending = null;
      render();
      if (offer) {
        // D-1: offer after one's own move and before pressing the clock.
        drawArmed = false;
        try {
          await post('/draw', { action: 'offer' });
        } catch (err) {
          showError(err);
        }
        if (pressOpt.input.checked) await act('/clock', {});
        render();
      }
    } catch (err) {
      if (pending !== p) return;
      pending = null;
      showError(err);
      render();
      refreshGame(gid);
    }
  }

  // A view arrived while a move waits (to be confirmed, or in the outbox):
  // when the game went on — with the move or without it — the board stops
  // showing it (the outbox settles the write itself, without a resend).
  function settlePending() {
    if (!pending || !game || pending.state === 'sending') return;
    if (game.ply !== pending.ply || game.status !== 'playing') pending = null;
  }

  // ---- rendering ----
  // A name the game view itself carries, when the API sends one.
  function viewName(s) {
    const link = game && game.tournament;
    return (game && game.names && game.names[s]) || (link && link[`${s}Name`]) || '';
  }

  function playerLabel(s) {
    const base = names[s] || viewName(s) || t(`game.${s}`);
    return base + (role === 'player' && s === mySide ? t('game.you') : '');
  }

  function renderSeats() {
    const bottom = board.orientation;
    const top = bottom === 'red' ? 'black' : 'red';
    if (topSlot.firstChild !== seats[top].row) topSlot.replaceChildren(seats[top].row);
    if (bottomSlot.firstChild !== seats[bottom].row) bottomSlot.replaceChildren(seats[bottom].row);
    for (const s of ['red', 'black']) {
      seats[s].name.textContent = playerLabel(s);
      seats[s].meta.textContent = names[s] ? `· ${t(`game.${s}`)}` : '';
      seats[s].row.classList.toggle('seat-tomove', !!game && game.status === 'playing' && game.sideToMove === s);
    }
  }

  function renderMoves() {
    const shown = recordTexts.notation === notation && recordTexts.ply === game.ply ? recordTexts.moves : null;
    const moves = shown && shown.length === game.moves.length ? shown : game.moves;
    movesList.replaceChildren();
    if (!moves.length) {
      if (announced < 0) announced = 0;
      movesList.append(h('li', { class: 'moves-empty' }, h('span', { class: 'm' }, t('game.noMoves'))));
      return;
    }
    for (let i = 0; i < moves.length; i += 2) {
      const li = h('li', {}, h('span', { class: 'n' }, `${i / 2 + 1}.`));
      for (const j of [i, i + 1]) {
        const txt = j < moves.length ? (notation === 'chinese' && moves !== game.moves ? simplify(moves[j]) : moves[j]) : '';
        li.append(h('span', { class: `m${j === moves.length - 1 ? ' cur' : ''}`, lang: notation === 'chinese' && moves !== game.moves ? 'zh-Hans' : 'en' }, txt));
      }
      movesList.append(li);
    }
    // a screen reader hears each new move once, in the reader's notation
    const named = moves !== game.moves || notation === 'iccs';
    if (announced < 0) announced = moves.length;
    else if (named && moves.length > announced) {
      announced = moves.length;
      const mover = moves.length % 2 === 1 ? sideToMoveOf(game.startFen) : (sideToMoveOf(game.startFen) === 'red' ? 'black' : 'red');
      const txt = notation === 'chinese' ? simplify(moves[moves.length - 1]) : moves[moves.length - 1];
      announce.textContent = `${t(`game.${mover}`)}: ${txt}`;
    }
    const last = movesList.lastElementChild;
    if (last && last.lastElementChild) movesList.scrollTop = movesList.scrollHeight;
  }

  let announced = -1;
  let recordBusy = false;
  async function loadNotation() {
    if (!game || recordBusy) return;
    if (recordTexts.notation === notation && recordTexts.ply === game.ply) return;
    if (notation === 'iccs' || !game.moves.length) {
      recordTexts = { ply: game.ply, notation, moves: game.moves };
      renderMoves();
      return;
    }
    recordBusy = true;
    const want = { ply: game.ply, notation };
    const path = `/games/${encodeURIComponent(gid)}`;
    try {
      // The game view writes its moves in the notation asked for (?notation=);
      // an API without it answers the plain view, and the record is read instead.
      const view = await get(`${path}?notation=${notation}`);
      if (view && view.notation && Array.isArray(view.notation.moves) && !view.since) {
        recordTexts = { ...want, ply: view.ply, moves: view.notation.moves };
      } else {
        const text = await get(`${path}/record?format=${notation}`, { as: 'text' });
        recordTexts = { ...want, moves: parseRecord(text) };
      }
    } catch {
      recordTexts = { ...want, moves: game.moves };
    } finally {
      recordBusy = false;
    }
    if (!alive) return;
    renderMoves();
    if (game.ply !== want.ply || notation !== want.notation) loadNotation();
  }

  function renderBar() {
    bar.replaceChildren();
    confirmBar.replaceChildren();
    offerBar.replaceChildren();
    const playing = game && game.status === 'playing' && game.started !== false;
    const isPlayer = role === 'player';
    confirmBar.hidden = true;
    offerBar.hidden = true;
    bar.hidden = !(isPlayer && playing);
    if (pending && pending.state === 'confirm') {
      const yes = h('button', { type: 'button', class: 'yes', 'aria-label': t('game.confirm') }, '✓');
      const no = h('button', { type: 'button', class: 'no', 'aria-label': t('game.cancel') }, '✗');
      yes.addEventListener('click', () => sendMove());
      no.addEventListener('click', () => { pending = null; render(); });
      confirmBar.append(h('span', {}, t('game.confirmMove')), yes, no);
      confirmBar.hidden = false;
    } else if (pending) {
      confirmBar.append(h('span', {}, t('game.sending')));
      confirmBar.hidden = false;
    }
    if (!playing) return;
    const by = game.drawOffer && game.drawOffer.pending ? game.drawOffer.by : null;
    if (isPlayer && by && by !== mySide) {
      const acc = h('button', { type: 'button', class: 'yes' }, t('game.accept'));
      const dec = h('button', { type: 'button' }, t('game.decline'));
      acc.addEventListener('click', () => act('/draw', { action: 'accept' }));
      dec.addEventListener('click', () => act('/draw', { action: 'decline' }));
      offerBar.append(h('span', {}, t('game.drawIncoming')), acc, dec);
      offerBar.hidden = false;
    } else if (by && role !== 'viewer') {
      offerBar.append(h('span', {}, by === mySide ? t('game.drawOffered') : `${t(`game.${by}`)}: ${t('game.offerDraw')}`));
      offerBar.hidden = false;
    }
    if (!isPlayer) return;
    const button = (label, cls, onClick, attrs = {}) => {
      const b = h('button', { type: 'button', class: cls, ...attrs }, label);
      b.addEventListener('click', onClick);
      return b;
    };
    // The clock press: the last mover (that is, not the side to move) while its press is awaited.
    // C-6: in an event a player records arriving at the board (a first move counts too)
    const movedYet = game.ply >= (sideToMoveOf(game.startFen) === mySide ? 1 : 2);
    if (game.tournament && !arrived && !movedYet) {
      bar.append(button(t('game.arrive'), '', async () => { arrived = true; await act('/arrive', {}); render(); }));
    }
    if (game.clocks.awaitingPress && game.sideToMove !== mySide) {
      bar.append(button(t('game.press'), 'primary', () => act('/clock', {})));
    }
    const confirmIn = (what, q, run) => {
      const wrap = h('span', { class: 'confirm-inline', role: 'group', 'aria-label': q }, h('span', {}, q));
      wrap.append(
        button('✓', 'primary', () => { ask = ''; render(); run(); }, { 'aria-label': `${q} ${t('game.confirm')}` }),
        button('✗', '', () => { ask = ''; render(); }, { 'aria-label': t('game.cancel') }));
      return wrap;
    };
    // D-1: a draw is offered right after one's own move, before the press:
    // now, if that is where the game stands, else together with the next move.
    const justMoved = game.clocks.awaitingPress && game.sideToMove !== mySide;
    const offerNow = () => (justMoved ? act('/draw', { action: 'offer' }) : (drawArmed = true, render()));
    if (drawArmed) {
      bar.append(h('span', { class: 'armed' }, t('game.drawArmed')),
        button(t('game.drawArmedCancel'), '', () => { drawArmed = false; render(); }));
    } else if (ask === 'draw') bar.append(confirmIn('draw', t('game.offerDrawConfirm'), offerNow));
    else if (!by) bar.append(button(t('game.offerDraw'), '', () => { ask = 'draw'; render(); focusAsk(); }));
    if (ask === 'resign') bar.append(confirmIn('resign', t('game.resignConfirm'), () => act('/resign', {})));
    else bar.append(button(t('game.resign'), 'danger', () => { ask = 'resign'; render(); focusAsk(); }));
    const claims = h('details', { class: 'claims' }, h('summary', {}, t('game.claims')),
      h('div', { class: 'form-row' },
        button(t('game.claim.time'), '', () => act('/claims', { kind: 'time' })),
        button(t('game.claim.noCapture', { n: game.noCapture ? game.noCapture.limit : '' }), '', () => act('/claims', { kind: 'noCapture' })),
        button(t('game.claim.ruling'), '', () => act('/claims', { kind: 'ruling' }))));
    bar.append(claims);
  }

  function focusAsk() {
    const b = bar.querySelector('.confirm-inline button');
    if (b) b.focus();
  }

  function render() {
    if (!game) return;
    page.dataset.ply = String(game.ply);
    page.dataset.status = game.status;
    renderSeats();
    const playing = game.status === 'playing' && game.started !== false;
    const lastMove = game.moves.length ? game.moves[game.moves.length - 1] : '';
    const canMove = playing && !pending && (
      (role === 'player' && game.sideToMove === mySide) || (role === 'official' && officialKind !== 'arbiter'));
    // The king in check: from the view's inCheck when the API sends it, and
    // the mated side when the result says checkmate (never computed here).
    let check = game.inCheck === true ? game.sideToMove : typeof game.inCheck === 'string' ? game.inCheck : '';
    if (game.status === 'over' && game.reason === 'checkmate') check = game.sideToMove;
    board.set({
      fen: game.fen, legalMoves: canMove ? game.legalMoves : [], lastMove: isICCS(lastMove) ? lastMove : '',
      check, movable: canMove, pending: pending ? pending.move : '',
    });
    if (game.status === 'over') {
      status.textContent = '';
      resultBox.textContent = `${resultName(game.result)}${game.reason ? ` · ${reasonText(game.reason)}` : ''}`;
      resultBox.hidden = false;
    } else {
      resultBox.hidden = true;
      status.textContent = game.status === 'pendingRuling' ? t('game.pendingRuling')
        : game.started === false ? (game.roundStartsAt ? t('game.startsAt', { at: formatTime(game.roundStartsAt, { timeStyle: 'short' }) }) : t('game.notStarted'))
          : role === 'player' ? t(sideToMoveOf(game.fen) === mySide ? 'game.yourMove' : 'game.theirMove')
            : t('game.toMove', { side: t(`game.${sideToMoveOf(game.fen)}`) });
    }
    roleLine.textContent = role === 'player' ? t('game.role.player', { side: t(`game.${mySide}`) })
      : role === 'official' ? t('game.role.official') : role === 'organiser' ? t('game.role.organiser') : t('game.viewer');
    const bits = [];
    if (game.noCapture) bits.push(t('game.noCaptureCount', { n: game.noCapture.moves, limit: game.noCapture.limit }));
    if (game.fouls && (game.fouls.red || game.fouls.black)) bits.push(t('game.fouls', game.fouls));
    if (game.repetition && game.repetition.warning) bits.push(t('game.repetition', { n: game.repetition.cycles }));
    facts.textContent = bits.join(' · ');
    renderBar();
    renderMoves();
    if (official) official.update(game);
  }

  function soundFor(prev, next) {
    if (next.status === 'over' && lastStatus && lastStatus !== 'over') { play('end'); return; }
    if (prev < 0 || next.ply <= prev) return;
    if (next.inCheck) { play('check'); return; }
    // a capture shows as one piece fewer in the placement
    const count = (fen) => (String(fen).split(' ')[0].match(/[a-zA-Z]/g) || []).length;
    play(lastFenPieces !== null && count(next.fen) < lastFenPieces ? 'capture' : 'move');
  }
  let lastFenPieces = null;

  function onGame(view, meta) {
    if (!alive) return;
    const first = !game;
    const prevPly = lastPly;
    game = view;
    if (!Array.isArray(game.moves)) game.moves = [];
    if (first) {
      whoAmI();
      if (!token || role === 'viewer') {
        const link = game.tournament;
        if (link) {
          const t2 = getToken(`event:${link.id}`);
          if (t2) { token = t2; whoAmI(); }
        }
      }
      startOnce();
    }
    if (game.ply !== prevPly && ask) ask = '';
    soundFor(prevPly, game);
    lastPly = game.ply;
    lastStatus = game.status;
    lastFenPieces = (String(game.fen).split(' ')[0].match(/[a-zA-Z]/g) || []).length;
    settlePending();
    clocks.sync(game, meta || {});
    render();
    loadNotation();
  }

  let started = false;
  function startOnce() {
    if (started) return;
    started = true;
    if (role === 'player') board.setOrientation(mySide);
    const slow = game.timeControl && game.timeControl.periods && game.timeControl.periods[0]
      && game.timeControl.periods[0].ms >= 15 * 60000;
    confirmOpt.input.checked = setting('confirm', touch && (slow || game.clocks.untimed));
    if (role === 'player') confirmOpt.row.hidden = false;
    else { confirmOpt.row.hidden = true; }
    if (role === 'viewer') pressOpt.row.hidden = true;
    const link = game.tournament;
    if (link) {
      title.textContent = t('game.titleEvent', { round: link.round, table: link.table });
      eventLink.href = `/t/${encodeURIComponent(link.id)}`;
      eventLink.hidden = false;
      loadNames(link);
    }
    if (role === 'official' || role === 'organiser') {
      const ctx = { gid, token, role, post, showError, refresh: () => refreshGame(gid), setView: (v) => setGame(gid, v) };
      official = mountOfficial(officialHost, ctx);
      // GET /me (when the API has it) says whether the official is a scribe
      // (records moves and presses) or an arbiter (rules): show only their tools.
      if (role === 'official') {
        get('/me', { token }).then((me) => {
          if (!alive || !me || (me.role !== 'scribe' && me.role !== 'arbiter')) return;
          officialKind = me.role;
          official.only(officialKind);
          render();
        }).catch(() => { /* no /me: every tool stays, the API refuses what is not theirs */ });
      }
    }
    document.title = `${title.textContent} · xqtour`;
  }

  async function loadNames(link) {
    try {
      const [ev, pl] = await Promise.all([
        get(`/tournaments/${encodeURIComponent(link.id)}`),
        get(`/tournaments/${encodeURIComponent(link.id)}/players`),
      ]);
      const byId = new Map((pl.players || []).map((p) => [p.id, p]));
      const label = (id) => { const p = byId.get(id); return p ? `${p.name}${p.rating ? ` (${p.rating})` : ''}` : ''; };
      names = { red: label(link.red), black: label(link.black) };
      eventName = ev && ev.name ? ev.name : '';
      if (eventName) {
        title.textContent = `${eventName} · ${t('game.titleEvent', { round: link.round, table: link.table })}`;
        document.title = `${title.textContent} · xqtour`;
      }
      if (alive) render();
    } catch { /* names are a nicety: the seats keep 红方/黑方 */ }
  }

  tokenForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = tokenInput.value.trim();
    if (!v) return;
    location.hash = `token=${encodeURIComponent(v)}`;
    location.reload();
  });
  notationSel.addEventListener('change', () => {
    notation = notationSel.value;
    try { localStorage.setItem(settingKey('notation'), notation); } catch { /* storage disabled */ }
    loadNotation();
  });

  // ---- offline banner with its countdown ----
  let countdown = 0;
  const stopStatus = onStatus((s) => {
    clearInterval(countdown);
    if (s.status === 'offline') {
      const until = Date.now() + s.retryInSec * 1000;
      const draw = () => {
        const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
        offline.textContent = left ? t('game.offline', { s: left }) : t('game.offlineNow');
      };
      draw();
      countdown = setInterval(draw, 1000);
      offline.hidden = false;
    } else {
      offline.hidden = true;
      if (game) refreshGame(gid); // back: re-read by ply
    }
  });
  const wentOffline = () => { offline.textContent = t('game.offlineNow'); offline.hidden = false; };
  const cameOnline = () => { offline.hidden = true; refreshGame(gid); };
  addEventListener('offline', wentOffline);
  addEventListener('online', cameOnline);

  const watcher = (view, meta) => onGame(view, meta);
  watcher.onError = (err) => {
    if (!game && err instanceof ApiError && err.status === 404) {
      page.replaceChildren(h('p', { class: 'game-error', role: 'alert' }, t('game.notFound')));
    }
  };
  unwatch = watchGame(gid, watcher);

  return () => {
    alive = false;
    unwatch();
    stopStatus();
    clearInterval(countdown);
    clocks.stop();
    removeEventListener('offline', wentOffline);
    removeEventListener('online', cameOnline);
  };
}
