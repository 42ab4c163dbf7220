// pages/game/page.js — the page of one game, /g/{gid}: the board, both players and
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
// sent again only when the move did not land. What the page derives is in
// state.js (pure), its controls and move list are drawn by view.js and
// patched in place, so a new view keeps the reader's focus.

import { ApiError, get, newKey } from '../../core/http.js';
import { errorText, t } from '../../core/i18n.js';
import * as outbox from '../../core/outbox.js';
import { getToken, tokenFrom, tokenParts } from '../../core/tokens.js';
import { onStatus, setGame, watchGame, refreshGame } from '../../core/live.js';
import { createBoard, isICCS, sideToMoveOf } from '../../board.js';
import { createClocks } from '../../clock.js';
import { muted, play, setMuted } from '../../sound.js';
import { reasonText, resultName } from '../../names.js';
import { patch } from '../../core/view.js';
import { h } from '../../ui.js';
import { mountOfficial } from './official.js';
import { mountRuling } from './ruling.js';
import * as sync from '../../core/sync.js';
import { mountSync } from './sync.js';
import { mountSignatures } from './signatures.js';
import { scoresheet } from '../scoresheet/sheet.js';
import { barModel, canMove, checkSide, factsText, movesShown, NOTATIONS, notationSetting, pendingAfter, pieceCount, parseRecord, roleOf,
  saveNotation, saveSetting, setting, soundOf, statusKey } from './state.js';
import { barView, confirmView, movesView, offerView } from './view.js';

export { parseRecord };

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
  let drawSide = ''; // the side a scribe's armed offer is for (the pad's draw row)
  let lastPly = -1;
  let lastStatus = '';
  let notation = notationSetting();
  let recordTexts = { ply: -1, notation: '', moves: [] };
  let alive = true;
  let unwatch = () => {};
  let official = null;
  let officialKind = ''; // 'scribe' | 'arbiter' once GET /me says
  // An official's writes go to the offline queue (core/sync.js): the game
  // shown is the server's view with the queued moves played on it.
  let queueMode = false;
  let serverGame = null;
  let syncPanel = null;

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
  // G-6: the repetition ruling (the three verdicts and their notes) stays on the page for players and spectators.
  const publicRuling = mountRuling(h('div'), { token: '' }, { readOnly: true });
  const boardCol = h('div', { class: 'game-col' }, topSlot, boardHost, bottomSlot, errorBox, confirmBar, offerBar, resultBox, publicRuling.node, bar);

  const movesList = h('ol', { class: 'moves', 'aria-label': t('game.moves') });
  const notationSel = h('select', { id: 'game-notation' },
    ...NOTATIONS.map((n) => h('option', { value: n, ...(n === notation ? { selected: '' } : {}) }, t(`game.notation.${n}`))));
  const facts = h('p', { class: 'seat-meta' });
  const movesBox = h('section', { 'aria-labelledby': 'game-moves-h' },
    h('h2', { id: 'game-moves-h' }, t('game.moves')),
    h('div', { class: 'form-row' }, h('label', { for: 'game-notation' }, t('game.notation')), notationSel),
    movesList, facts);
  const downloads = h('div', { class: 'downloads' },
    ...['pgn', 'chinese', 'wxf', 'iccs', 'fen', 'yz3', 'yz4'].map((f) =>
      h('a', { href: `/games/${encodeURIComponent(gid)}/record?format=${f}`, download: `${gid}.${f === 'pgn' ? 'pgn' : `${f}.txt`}` }, f.toUpperCase())));
  const printSheet = h('button', { type: 'button', class: 'print-sheet' }, t('sheet.print'));
  const downloadsBox = h('section', { 'aria-labelledby': 'game-dl-h' }, h('h2', { id: 'game-dl-h' }, t('game.downloads')), downloads,
    h('div', { class: 'form-row' }, printSheet));
  const sheetHost = h('div', { class: 'sheet-host' });

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
  const sigHost = h('div');
  const side = h('aside', { class: 'game-side' }, officialHost, sigHost, movesBox, downloadsBox, settingsBox);
  const syncHost = h('div');
  page.append(offline, syncHost, head, announce, h('div', { class: 'game-layout' }, boardCol, side), sheetHost);

  // O-3: the scoresheet's signatures, taken on an official's pad.
  let officialName = '';
  const sigPanel = mountSignatures(sigHost, {
    canSign: () => role === 'official' || role === 'organiser',
    nameOf: (line) => (line === 'scribe' ? officialName : viewName(line) || (names[line] || '').replace(/ \(\d+\)$/, '')),
    sign: (body) => act('/signatures', body),
  });

  // The printable scoresheet: drawn when asked for, printed alone.
  printSheet.addEventListener('click', async () => {
    if (!game) return;
    let moves = game.moves;
    if (notation !== 'iccs') {
      try { moves = await (await import('../../engine.js')).notation(game.startFen, game.moves, notation); } catch { /* ICCS then */ }
    }
    const link = game.tournament || {};
    sheetHost.replaceChildren(scoresheet(game, {
      event: eventName, round: link.round, table: link.table, moves,
      red: viewName('red') || names.red, black: viewName('black') || names.black,
    }));
    document.body.classList.add('print-sheet');
    addEventListener('afterprint', () => document.body.classList.remove('print-sheet'), { once: true });
    print();
  });

  const board = createBoard(boardHost, { orientation: 'red', onMove: (mv) => chooseMove(mv) });
  // A clock that reaches zero here is a question for the server, which
  // decides a flag fall at its read (C-4): ask soon, then less often while
  // it still says the game goes on (the two clocks may differ a little).
  let zeroAsks = 0;
  const clocks = createClocks({ red: seats.red.clockEl, black: seats.black.clockEl }, {
    onLow: (s) => { if (role === 'player' && s === mySide) play('low'); },
    onZero: () => { setTimeout(() => refreshGame(gid), [250, 1000, 2000, 5000][Math.min(zeroAsks++, 3)]); },
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
    if (queueMode && (path === '/clock' || path === '/signatures')) {
      // Recorded at the table: kept on the device and sent in order (offline too).
      await sync.enqueue(gid, { kind: path === '/clock' ? 'press' : 'sign', path, body, ply: game.ply, token });
      return null;
    }
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
    ({ role, side: mySide } = roleOf(token ? tokenParts(token) : null, game, gid));
  }

  // ---- moves ----
  function chooseMove(mv) {
    if (!game || pending) return;
    ask = '';
    if (queueMode) {
      // The scribe's move: into the queue with the ply it was made at; the
      // board shows it at once (played by the engine), the server gets it
      // when the network lets it.
      const body = { move: mv, ply: game.ply };
      // A scribe's armed offer (D-1) goes in order behind the move of the side
      // it is for and before the clock press, all three in the one queue.
      const offer = drawArmed && drawSide !== '' && drawSide === game.sideToMove;
      if (pressOpt.input.checked && !offer) body.press = true;
      const ply = game.ply;
      sync.enqueue(gid, { kind: 'move', path: '/moves', body, ply, token });
      if (offer) {
        drawArmed = false;
        sync.enqueue(gid, { kind: 'draw', path: '/draw', body: { action: 'offer', side: drawSide }, ply: ply + 1, token });
        if (pressOpt.input.checked) sync.enqueue(gid, { kind: 'press', path: '/clock', body: {}, ply: ply + 1, token });
        render();
      }
      return;
    }
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
    // A scribe's armed offer goes with the move of the side it is for (D-1, with auto-press on).
    const offer = drawArmed && (role === 'player' || (drawSide !== '' && drawSide === game.sideToMove));
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
          await post('/draw', role === 'player' ? { action: 'offer' } : { action: 'offer', side: drawSide });
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
    pending = pendingAfter(pending, game);
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

  // The move list is patched (view.js), the announcement said once per new move.
  let movesV = movesList;
  function renderMoves() {
    const shown = movesShown(game, recordTexts, notation);
    movesV = patch(movesV, movesView(shown));
    const { moves } = shown;
    // a screen reader hears each new move once, in the reader's notation
    if (announced < 0) announced = moves.length;
    else if (shown.named && moves.length > announced) {
      announced = moves.length;
      const mover = moves.length % 2 === 1 ? sideToMoveOf(game.startFen) : (sideToMoveOf(game.startFen) === 'red' ? 'black' : 'red');
      announce.textContent = `${t(`game.${mover}`)}: ${moves[moves.length - 1]}`;
    }
    const list = movesV.elm;
    if (list.lastElementChild && list.lastElementChild.lastElementChild) list.scrollTop = list.scrollHeight;
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
    if (queueMode && (game.queued || navigator.onLine === false)) {
      // Moves not yet on the server (or no server to ask): the rules engine
      // in the browser writes them, as the server would.
      try {
        const { notation: write } = await import('../../engine.js');
        recordTexts = { ...want, moves: await write(game.startFen, game.moves, notation) };
      } catch {
        recordTexts = { ...want, moves: game.moves };
      } finally {
        recordBusy = false;
      }
      if (!alive) return;
      renderMoves();
      if (game.ply !== want.ply || notation !== want.notation) loadNotation();
      return;
    }
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
    if (official) official.update(game); // the repetition pad writes its cycle in these texts
    if (game.ply !== want.ply || notation !== want.notation) loadNotation();
  }

  // The bars under the board: state.js says what shows, view.js draws it,
  // patched in place (the focused button stays focused across new views).
  let confirmV = confirmBar;
  let offerV = offerBar;
  let barV = bar;
  const barAct = {
    confirmMove: () => sendMove(),
    cancelMove: () => { pending = null; render(); },
    draw: (action) => act('/draw', { action }),
    arrive: async () => { arrived = true; await act('/arrive', {}); render(); },
    press: () => act('/clock', {}),
    disarmDraw: () => { drawArmed = false; render(); },
    ask: (what) => { ask = what; render(); focusAsk(); },
    unask: () => { ask = ''; render(); },
    // D-1: a draw is offered right after one's own move, before the press:
    // now, if that is where the game stands, else together with the next move.
    offerDraw: () => {
      ask = '';
      const justMoved = game.clocks.awaitingPress && game.sideToMove !== mySide;
      if (justMoved) act('/draw', { action: 'offer' }); else drawArmed = true;
      render();
    },
    resign: () => { ask = ''; render(); act('/resign', {}); },
    claim: (kind) => act('/claims', { kind }),
  };

  function renderBar() {
    const m = barModel(game, role, mySide, { pending, ask, drawArmed, arrived });
    confirmV = patch(confirmV, confirmView(m, barAct));
    offerV = patch(offerV, offerView(m, barAct));
    barV = patch(barV, barView(m, barAct));
  }

  function focusAsk() {
    const b = barV.elm.querySelector('.confirm-inline button');
    if (b) b.focus();
  }

  function render() {
    if (!game) return;
    page.dataset.ply = String(game.ply);
    page.dataset.status = game.status;
    renderSeats();
    const lastMove = game.moves.length ? game.moves[game.moves.length - 1] : '';
    const movable = canMove(game, role, mySide, { pending, officialKind });
    // The king in check: from the view (never computed here).
    board.set({
      fen: game.fen, legalMoves: movable ? game.legalMoves : [], lastMove: isICCS(lastMove) ? lastMove : '',
      check: checkSide(game), movable, pending: pending ? pending.move : '',
    });
    if (role === 'official' || role === 'organiser') publicRuling.node.hidden = true; // their pad shows it
    else publicRuling.update(game);
    if (game.status === 'over') {
      status.textContent = '';
      resultBox.textContent = `${resultName(game.result)}${game.reason ? ` · ${reasonText(game.reason)}` : ''}`;
      resultBox.hidden = false;
    } else {
      resultBox.hidden = true;
      const [key, vars] = statusKey(game, role, mySide);
      status.textContent = t(key, vars);
    }
    roleLine.textContent = role === 'player' ? t('game.role.player', { side: t(`game.${mySide}`) })
      : role === 'official' ? t('game.role.official') : role === 'organiser' ? t('game.role.organiser') : t('game.viewer');
    facts.textContent = factsText(game);
    renderBar();
    renderMoves();
    if (official) official.update(game);
    sigPanel.update(game);
  }

  let lastFenPieces = null;

  // declinedNote tells the offerer their draw offer is gone while the game
  // goes on: declined (or answered by a move); a page that only watched the
  // offer vanish would say nothing.
  const declinedNote = h('div', { class: 'game-notice', role: 'status', hidden: '' });
  offerBar.after(declinedNote);
  let declinedTimer = 0;
  function noteDeclined(prev, next) {
    const mine = (g) => g && g.drawOffer && g.drawOffer.pending && g.drawOffer.by === mySide;
    if (role !== 'player' || !mine(prev) || mine(next) || next.status !== 'playing') return;
    declinedNote.textContent = t('game.drawDeclined');
    declinedNote.hidden = false;
    announce.textContent = t('game.drawDeclined');
    clearTimeout(declinedTimer);
    declinedTimer = setTimeout(() => { declinedNote.hidden = true; }, 15000);
  }

  // The offline queue of an official's pad: load what an earlier page left,
  // fetch the rules engine while online (the service worker keeps it), and
  // show the queue's state and any conflict above the board.
  function startQueue() {
    queueMode = true;
    import('../../engine.js').then((m) => m.load()).catch(() => { /* offline before the first load: the queue still keeps the moves */ });
    syncPanel = mountSync(syncHost, {
      gid, token, serverView: () => serverGame, notation: () => notation,
      onView: (v) => setGame(gid, v), showError,
    });
    sync.start(gid);
  }
  const onSyncChange = (ev) => {
    if (ev.detail.gid !== gid || !alive) return;
    if (syncPanel) syncPanel.update();
    showQueued({ source: 'local' });
  };
  const onSyncSent = (ev) => {
    if (ev.detail.gid !== gid || !alive) return;
    const v = ev.detail.view;
    if (v && v.id) setGame(gid, v);
  };
  sync.events.addEventListener('change', onSyncChange);
  sync.events.addEventListener('sent', onSyncSent);

  // onGame takes a server view; showGame shows the game as the device has
  // it (for an official with moves queued, the view with them played).
  let overlaySeq = 0;
  function onGame(view, meta) {
    if (!alive) return;
    if (queueMode || !serverGame) sync.saveView(gid, view); // a pad's, for a page opened offline
    serverGame = view;
    showQueued(meta);
  }

  function showQueued(meta) {
    if (!serverGame) return;
    const queued = queueMode ? sync.entries(gid) : [];
    const n = ++overlaySeq;
    if (!queued.length) { showGame({ ...serverGame, queued: 0 }, meta); return; }
    sync.overlay(serverGame, queued).then((v) => { if (n === overlaySeq && alive) showGame(v, meta); });
  }

  function showGame(view, meta) {
    const first = !game;
    const prevPly = lastPly;
    const prevGame = game;
    game = view;
    if (!first) noteDeclined(prevGame, game);
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
    const sound = soundOf(prevPly, lastStatus, lastFenPieces, game);
    if (sound) play(sound);
    lastPly = game.ply;
    lastStatus = game.status;
    lastFenPieces = pieceCount(game.fen);
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
      const ctx = { gid, token, role, post, showError, refresh: () => refreshGame(gid), setView: (v) => setGame(gid, v),
        // D-1 for a scribe with auto-press on: the offer waits for that side's next move, made without the press.
        armDraw: (side) => { drawArmed = !!side; drawSide = side || ''; render(); },
        autoPress: () => pressOpt.input.checked,
        // The moves as the move list writes them (the reader's notation), for the repetition pad's cycle.
        moveTexts: () => (game ? movesShown(game, recordTexts, notation).moves : []) };
      official = mountOfficial(officialHost, ctx);
      if (role === 'official') startQueue();
      // GET /me (when the API has it) says whether the official is a scribe
      // (records moves and presses) or an arbiter (rules): show only their tools.
      if (role === 'official') {
        get('/me', { token }).then((me) => {
          if (!alive || !me || (me.role !== 'scribe' && me.role !== 'arbiter' && me.role !== 'chiefArbiter')) return;
          officialKind = me.role === 'chiefArbiter' ? 'arbiter' : me.role; // the chief arbiter's pad is an arbiter's
          officialName = me.name || '';
          // A scribe keeps only its own tables (O-1): elsewhere the page is a
          // spectator's — no pad, no legal targets — and says why.
          const tables = Array.isArray(me.tables) ? me.tables : [];
          if (officialKind === 'scribe' && tables.length && game.tournament && !tables.includes(game.tournament.table)) {
            officialKind = 'elsewhere';
            officialHost.replaceChildren(h('p', { class: 'muted not-your-table' }, t('game.notYourTable', { tables: tables.join(', ') })));
            render();
            return;
          }
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
    saveNotation(notation);
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
    } else if (!game && err instanceof ApiError && err.status === 0) {
      // Opened offline: the view this device kept when it was last online.
      sync.lastView(gid).then((v) => { if (v && !game && alive) setGame(gid, v); });
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
    sync.events.removeEventListener('change', onSyncChange);
    sync.events.removeEventListener('sent', onSyncSent);
  };
}
