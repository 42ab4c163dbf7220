// pages/event/admin.js — the organiser's console on the event page, loaded only
// when the page holds the event's organiser token: register players (one by
// one, or many from pasted or uploaded CSV), teams and lineups, appoint
// officials, pair and start rounds, manual changes, results and corrections,
// withdraw/pause/resume. Every write goes through core/outbox.js; every
// refusal is said in the reader's language.
//
// Results: the organiser enters and corrects them; where the server leaves
// results to officials (O-1), the console appoints the organiser as an
// arbiter once ("Organiser") and keeps that token in this browser.

import { ApiError, get } from '../../core/http.js';
import { errorText, lang, t } from '../../core/i18n.js';
import * as outbox from '../../core/outbox.js';
import { eventLink as linkTo, eventLinks, getToken, keepLink as keep, saveToken } from '../../core/tokens.js';
import { playerStatus, resultName, resultShort, RESULTS } from '../../names.js';
import { act, checkbox, clear, confirmDialog, field, h, linkBox, parseCSV, select, showError, showOk, validate } from '../../ui.js';
import { linksSection } from './links.js';
import { openSlips } from './slips.js';
import { officialsList } from './officials.js';
import { deskSection, entriesSection } from './entries.js';
import { awaitPairJob, isPairJob, jobText } from './pairjob.js';

/**
 * csvPlayers turns pasted or uploaded CSV (name, rating, club) into the
 * players to register, each with its line, skipping a header row and rows
 * without a name.
 */
export function csvPlayers(text) {
  let rows = parseCSV(text);
  if (rows.length && /^(name|姓名|棋手|player)$/i.test(rows[0][0] || '')) rows = rows.slice(1);
  return rows.map((r, i) => ({ line: i + 1, name: r[0] || '', rating: r[1] && /^\d+$/.test(r[1]) ? Number(r[1]) : undefined, club: r[2] || undefined }))
    .filter((p) => p.name);
}

/** parseMembers reads a team's members (or substitutes), one a line: name, rating, club. */
export function parseMembers(text) {
  return parseCSV(text).map((r) => {
    const m = { name: r[0] };
    if (r[1] && /^\d+$/.test(r[1])) m.rating = Number(r[1]);
    if (r[2]) m.club = r[2];
    return m;
  }).filter((m) => m.name);
}

/** tableList reads an official's tables, "1, 2 3，4" → [1, 2, 3, 4]. */
export const tableList = (text) => String(text).split(/[,，\s]+/).filter(Boolean).map(Number);

/** FORFEITS are the results that say a game was not played. */
const FORFEITS = ['+-', '-+', '0-0'];

/** createAdmin gives the event page its organiser controls. */
export function createAdmin(page) {
  const tid = page.tid;
  const token = page.token;
  const base = () => page.base();
  const enc = encodeURIComponent;

  const links = () => eventLinks(tid);
  const keepLink = (entry) => keep(tid, entry);
  const eventLink = (tok) => linkTo(tid, tok);

  // post writes through the outbox: retried under one Idempotency-Key while
  // the network or the server fails, refused otherwise.
  const post = (path, body, tok = token) => outbox.post(path, body, { token: tok });

  async function arbiterToken() {
    const kept = getToken(`event:${tid}:arbiter`);
    if (kept) return kept;
    const res = await post(`${base()}/officials`, { role: 'arbiter', name: t('adm.selfArbiter') });
    saveToken(`event:${tid}:arbiter`, res.token);
    return res.token;
  }

  // recordResult enters or corrects a game's result as the organiser; a
  // server where only officials record results (403, or a correction field it
  // does not know) gets it from the organiser appointed as an arbiter.
  async function recordResult(p, result, note = '') {
    const path = `/games/${enc(p.gameId)}/result`;
    // A forfeit (+-, -+, 0-0) is recorded as one, not as an arbiter's decision.
    const reason = FORFEITS.includes(result) ? { reason: 'forfeit' } : {};
    try {
      return await post(path, p.result ? { result, ...reason, correction: true, note } : { result, ...reason });
    } catch (err) {
      if (!(err instanceof ApiError) || !(err.status === 403 || (err.status === 400 && err.code === 'unknown_field'))) throw err;
    }
    const arb = await arbiterToken();
    if (p.result) return post(`/games/${enc(p.gameId)}/rulings`, { kind: 'result', result, note }, arb);
    return post(path, { result, ...reason }, arb);
  }

  function after(status, text) {
    showOk(status, text);
    page.refresh({ what: 'round', force: true });
  }

  // Controls are kept across redraws (polls, pushes) while what they depend
  // on is unchanged, so a half-filled form or a status message survives.
  const memoNodes = new Map();
  function memo(key, build) {
    if (!memoNodes.has(key)) memoNodes.set(key, build());
    return memoNodes.get(key);
  }

  // roundControls: started says whether the latest round's clocks have
  // started (GET /rounds/{n}'s started; read from the cache when not given);
  // while they have not, "Start round n" is the step to take. The players'
  // count is in the key: a refusal shown before registering ("too few
  // players") must not outlive the registrations that answer it.
  function roundControls(n, startedArg) {
    const started = startedArg ?? !!page.roundCache.get(n || page.ev.round)?.started;
    return memo(`round-${page.ev.round}-${page.ev.status}-${n}-${started}-${page.players.length}`, () => buildRoundControls(n, started));
  }

  function buildRoundControls(n, started = false) {
    const ev = page.ev;
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const next = ev.round + 1;
    const canPair = ev.status !== 'finished' && (!ev.rounds || next <= ev.rounds);
    const startsAt = h('input', { type: 'datetime-local', name: 'startsAt' });
    const asDraws = checkbox(t('adm.unfinishedAsDraws'), { name: 'unfinishedAsDraws' });
    const pairBtn = h('button', { type: 'button', class: started ? 'primary' : '', id: 'pair-next' }, t('adm.pair', { n: next }));
    pairBtn.addEventListener('click', () => act(pairBtn, status, async () => {
      const body = {};
      if (startsAt.value) body.startsAt = new Date(startsAt.value).toISOString();
      if (asDraws.querySelector('input').checked) body.unfinishedAsDraws = true;
      const r = await post(`${base()}/rounds`, body);
      // A big event's round is paired as a job (202): its progress is
      // shown until the round is paired, then the round as usual.
      if (isPairJob(r)) await awaitPairJob(r, { get: (path) => get(path), onState: (job) => showOk(status, jobText(job)) });
      page.view.round = r.round;
      page.roundCache.delete(r.round);
      after(status, t('adm.paired', { n: r.round }));
    }));
    const cur = ev.round;
    const startBtn = cur && !started && ev.status !== 'finished' ? h('button', { type: 'button', class: 'primary', id: 'start-round' }, t('adm.start', { n: cur })) : null;
    if (startBtn) {
      startBtn.addEventListener('click', () => act(startBtn, status, async () => {
        try {
          await post(`${base()}/rounds/${cur}/start`, {});
          after(status, t('adm.started', { n: cur }));
          startBtn.hidden = true; // a round starts once
        } catch (err) {
          if (err instanceof ApiError && err.status === 404 && err.code === 'not_found' && /no route/.test(err.message)) {
            showOk(status, t('adm.startMissing'));
            return;
          }
          if (err instanceof ApiError && err.code === 'round_already_started') {
            showOk(status, t('adm.started', { n: cur }));
            startBtn.hidden = true;
            return;
          }
          throw err;
        }
      }));
    }
    return h('section', { class: 'card admin no-print', 'aria-label': t('adm.round') },
      h('div', { class: 'row wrap' }, startBtn, canPair ? pairBtn : h('p', { class: 'muted' }, t('adm.allPaired')),
        cur && started && ev.status !== 'finished' ? h('p', { class: 'ok' }, t('adm.started', { n: cur })) : null),
      canPair ? h('details', {}, h('summary', {}, t('adm.pairOptions')), field(t('adm.startsAt'), startsAt), asDraws) : null,
      status);
  }

  function resultControl(p, n) {
    return memo(`result-${p.gameId}-${p.result}`, () => buildResultControl(p, n));
  }

  function buildResultControl(p, n) {
    const boardNo = p.board ? `${p.table}.${p.board}` : p.table;
    const label = t('adm.result', { table: boardNo });
    // A correction starts from no choice: the result it would replace is shown beside it, not pre-selected.
    const sel = select([['', '—'], ...RESULTS.map((r) => [r, `${resultShort(r)} ${resultName(r)}`])], { 'aria-label': label, value: '', class: 'result-select' });
    const btn = h('button', { type: 'button', class: 'small' }, p.result ? t('adm.correct') : t('adm.save'));
    const status = h('span', { class: 'status inline', 'aria-live': 'polite' });
    // O-1: a correction says why (kept in the game's log) and is confirmed before it is sent.
    const note = p.result ? h('input', { class: 'correction-note', maxlength: 500, 'aria-label': t('adm.correctNote', { table: boardNo }), placeholder: t('adm.correctNoteHint') }) : null;
    // A choice not yet saved says so: the select alone looks the same saved or not.
    sel.addEventListener('change', () => {
      const dirty = sel.value !== '';
      sel.classList.toggle('unsaved', dirty);
      clear(status, dirty ? h('span', { class: 'muted unsaved-note' }, t('adm.unsaved')) : null);
    });
    btn.addEventListener('click', () => act(btn, status, async () => {
      if (!sel.value) { showError(status, new Error(t('adm.pickResult'))); sel.focus(); return; }
      if (p.result) {
        if (sel.value === p.result) { showError(status, new Error(t('adm.sameResult'))); return; }
        if (!note.value.trim()) { showError(status, new Error(t('adm.correctNoteNeeded'))); note.focus(); return; }
        if (!(await confirmDialog(t('adm.correctConfirm', { table: boardNo, before: resultShort(p.result), after: resultShort(sel.value), note: note.value.trim() })))) return;
      }
      await recordResult(p, sel.value, note ? note.value.trim() : '');
      page.roundCache.delete(n);
      after(status, t('adm.saved', { table: p.table, result: sel.value }));
    }));
    return h('div', { class: 'result-entry no-print' }, sel, note, btn, status);
  }

  function playerOptions() {
    return page.players.filter((p) => p.status === 'active').map((p) => [p.id, `${p.number}. ${p.name}`]);
  }

  function changeForm(n, r) {
    if (!r || n !== page.ev.round) return null;
    return memo(`change-${n}-${page.players.map((p) => p.status).join()}`, () => buildChangeForm(n));
  }

  function buildChangeForm(n) {
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const action = select([['swapColours', t('adm.act.swapColours')], ['pair', t('adm.act.pair')], ['bye', t('adm.act.bye')]], { name: 'action' });
    const table = h('input', { type: 'number', name: 'table', min: 1, inputmode: 'numeric', value: 1 });
    const red = select(playerOptions(), { name: 'red' });
    const black = select(playerOptions(), { name: 'black' });
    const bye = select(playerOptions(), { name: 'player' });
    const note = h('input', { type: 'text', name: 'note', maxlength: 500 });
    const tableF = field(t('adm.table'), table);
    const redF = field(t('adm.redPlayer'), red);
    const blackF = field(t('adm.blackPlayer'), black);
    const byeF = field(t('adm.byePlayer'), bye);
    const show = () => {
      tableF.hidden = action.value !== 'swapColours';
      redF.hidden = blackF.hidden = action.value !== 'pair';
      byeF.hidden = action.value !== 'bye';
    };
    action.addEventListener('change', show);
    show();
    const btn = h('button', { type: 'submit' }, t('adm.apply'));
    const form = h('form', { novalidate: true, class: 'inline-fields' }, field(t('adm.action'), action), tableF, redF, blackF, byeF, field(t('adm.note'), note), btn, status);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!validate(e.currentTarget)) return;
      act(btn, status, async () => {
        const body = { action: action.value };
        if (action.value === 'swapColours') body.table = Number(table.value);
        if (action.value === 'pair') { body.red = red.value; body.black = black.value; }
        if (action.value === 'bye') body.player = bye.value;
        if (note.value.trim()) body.note = note.value.trim();
        await post(`${base()}/rounds/${n}/changes`, body);
        page.roundCache.delete(n);
        after(status, t('adm.applied'));
      });
    });
    return h('details', { class: 'card admin no-print' }, h('summary', {}, t('adm.changes')), form);
  }

  function playerActions(p) {
    return memo(`player-${p.id}-${p.status}-${page.ev.round ? 'on' : 'before'}`, () => buildPlayerActions(p));
  }

  function buildPlayerActions(p) {
    const status = h('span', { class: 'status inline', 'aria-live': 'polite' });
    const mk = (what, label) => {
      const b = h('button', { type: 'button', class: 'small', 'aria-label': `${label}: ${p.name}` }, label);
      b.addEventListener('click', async () => {
        // Say which player: two entrants may share a name.
        const who = p.number ? `${t('err.p.player', { n: p.number })} ${p.name}${p.club ? ` (${p.club})` : ''}` : p.name;
        if (what === 'withdraw' && !(await confirmDialog(t('adm.confirmWithdraw', { name: who }), { yes: t('adm.withdraw') }))) return;
        if (what === 'remove' && !(await confirmDialog(t('adm.confirmRemove', { name: who }), { yes: t('adm.remove') }))) return;
        act(b, status, async () => {
          await post(`${base()}/players/${enc(p.id)}/${what}`, {});
          if (what === 'remove') { showOk(status, t('adm.removed', { name: who })); page.refresh({ what: 'players', force: true }); return; }
          after(status, `${p.name}: ${playerStatus(what === 'withdraw' ? 'withdrawn' : what === 'pause' ? 'paused' : 'active')}`);
        });
      });
      return b;
    };
    if (p.status === 'withdrawn') return status;
    // Before round 1 a mistaken entry is removed (its number goes with it);
    // from then on a player can only withdraw.
    if (!page.ev.round) return h('div', { class: 'row-actions' }, mk('remove', t('adm.remove')), status);
    return h('div', { class: 'row-actions' },
      p.status === 'paused' ? mk('resume', t('adm.resume')) : mk('pause', t('adm.pause')),
      mk('withdraw', t('adm.withdraw')), status);
  }

  // sameAs finds a registered player (or an earlier CSV row) the new entry
  // repeats: the same name, and the same rating and club where both give one.
  const sameAs = (p, list) => list.find((q) => q.name.trim().toLowerCase() === p.name.trim().toLowerCase()
    && (!p.rating || !q.rating || Number(q.rating) === Number(p.rating)) && (!p.club || !q.club || q.club === p.club));

  async function register(p) {
    const body = { name: p.name };
    if (p.rating) body.rating = p.rating;
    if (p.club) body.club = p.club;
    if (p.seeded) body.seeded = true;
    const res = await post(`${base()}/players`, body);
    keepLink({ id: res.id, name: res.player.name, number: res.player.number, token: res.token });
    return res;
  }

  // linkCtx is what links.js and slips.js need of the console.
  const linkCtx = {
    tid, token, base,
    get players() { return page.players; },
    get teams() { return page.teams; },
    get eventName() { return page.ev.name; },
    links, keepLink, eventLink,
    post: (path, body) => post(path, body),
    openSlips: (status) => openSlips(linkCtx, status),
  };


  function registerForms() {
    if (page.ev.teams) return null;
    return memo('register', buildRegisterForms);
  }

  function buildRegisterForms() {
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const name = h('input', { type: 'text', name: 'name', required: true, maxlength: 120, autocomplete: 'off' });
    const rating = h('input', { type: 'number', name: 'rating', min: 0, max: 4000, inputmode: 'numeric' });
    const club = h('input', { type: 'text', name: 'club', maxlength: 120, autocomplete: 'off' });
    const seeded = checkbox(t('adm.seeded'), { name: 'seeded' });
    const addBtn = h('button', { type: 'submit', class: 'primary' }, t('adm.add'));
    const one = h('form', { novalidate: true, class: 'inline-fields', id: 'register-player' },
      field(t('adm.name'), name), field(t('adm.rating'), rating), field(t('adm.club'), club), seeded, addBtn, status);
    one.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!validate(e.currentTarget)) return;
      act(addBtn, status, async () => {
        const entry = { name: name.value.trim(), rating: rating.value ? Number(rating.value) : undefined, club: club.value.trim(), seeded: seeded.querySelector('input').checked };
        const dup = sameAs(entry, page.players);
        if (dup && !(await confirmDialog(t('adm.dupConfirm', { name: dup.name, n: dup.number ?? '' }), { yes: t('adm.add') }))) return;
        const res = await register(entry);
        one.reset();
        name.focus();
        after(status, t('adm.added', { name: res.player.name, n: res.player.number }));
      });
    });

    const csvStatus = h('div', { class: 'status', 'aria-live': 'polite' });
    const area = h('textarea', { name: 'csv', rows: 6, placeholder: 'Wang Tianyi, 2650, Hangzhou\nZheng Weitong, 2600, Beijing', spellcheck: 'false' });
    const file = h('input', { type: 'file', accept: '.csv,text/csv,text/plain' });
    const preview = h('p', { class: 'muted', 'aria-live': 'polite' });
    const updatePreview = () => { preview.textContent = area.value.trim() ? t('adm.csvPreview', { n: csvPlayers(area.value).length }) : ''; };
    area.addEventListener('input', updatePreview);
    file.addEventListener('change', async () => {
      const f = file.files && file.files[0];
      if (!f) return;
      area.value = await f.text();
      updatePreview();
    });
    const goBtn = h('button', { type: 'submit' }, t('adm.csvGo'));
    const many = h('form', { novalidate: true, id: 'register-csv' }, field(t('adm.csvPaste'), area), field(t('adm.csvFile'), file), preview, goBtn, csvStatus);
    many.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!validate(e.currentTarget)) return;
      act(goBtn, csvStatus, async () => {
        const list = csvPlayers(area.value);
        if (!list.length) { showError(csvStatus, new Error(t('adm.csvEmpty'))); return; }
        let ok = 0;
        const bad = [];
        const seen = [...page.players];
        for (const p of list) {
          const dup = sameAs(p, seen);
          seen.push(p);
          if (dup) { bad.push(h('li', {}, t('adm.csvRow', { line: p.line, name: p.name, msg: t('adm.dupSkipped', { name: dup.name, n: dup.number ?? '' }) }))); continue; }
          try {
            await register(p);
            ok++;
            preview.textContent = `${ok} / ${list.length}`;
          } catch (err) {
            bad.push(h('li', {}, t('adm.csvRow', { line: p.line, name: p.name, msg: errorText(err) })));
          }
        }
        area.value = bad.length ? area.value : '';
        preview.textContent = '';
        clear(csvStatus, h('p', { class: bad.length ? 'error' : 'ok', role: bad.length ? 'alert' : 'status' }, t('adm.csvDone', { ok, bad: bad.length })),
          bad.length ? h('ul', { class: 'error' }, bad) : null);
        page.refresh({ what: 'players', force: true });
      });
    });
    return h('div', { class: 'admin no-print' },
      h('section', { class: 'card' }, h('h2', {}, t('adm.register')), one),
      h('details', { class: 'card', open: page.players.length === 0 }, h('summary', {}, t('adm.csv')), many));
  }


  function teamForms() {
    const box = memo('teams', buildTeamForms);
    const slot = box.querySelector('.lineup-slot');
    if (page.ev.round) clear(slot, memo(`lineup-${page.ev.round}-${page.teams.length}`, lineupForm));
    return box;
  }

  function buildTeamForms() {
    const ev = page.ev;
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const name = h('input', { type: 'text', name: 'teamName', required: true, maxlength: 120, autocomplete: 'off' });
    const members = h('textarea', { name: 'members', rows: Math.max(3, ev.boards || 4), spellcheck: 'false' });
    const subs = h('textarea', { name: 'substitutes', rows: 2, spellcheck: 'false' });
    const btn = h('button', { type: 'submit', class: 'primary' }, t('adm.add'));
    const out = h('div', {});
    const form = h('form', { novalidate: true, id: 'register-team' }, field(t('adm.teamName'), name), field(t('adm.members', { n: ev.boards || '' }), members),
      ev.substitutes ? field(t('adm.subs'), subs) : null, btn, status, out);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!validate(e.currentTarget)) return;
      act(btn, status, async () => {
        const body = { name: name.value.trim(), members: parseMembers(members.value) };
        const s = parseMembers(subs.value);
        if (s.length) body.substitutes = s;
        const res = await post(`${base()}/teams`, body);
        if (res.token) keepLink({ id: res.id, name: `${body.name} (captain)`, token: res.token });
        for (const m of res.playerTokens || []) keepLink({ id: m.id, name: m.name, token: m.token });
        clear(out, res.token ? linkBox(t('adm.captainLink', { name: body.name }), eventLink(res.token)) : null);
        form.reset();
        after(status, t('adm.teamAdded', { name: body.name }));
      });
    });
    return h('div', { class: 'admin no-print' },
      h('section', { class: 'card' }, h('h2', {}, t('adm.team')), form),
      h('div', { class: 'lineup-slot' }));
  }

  function lineupForm() {
    const ev = page.ev;
    const n = ev.round;
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const teamSel = select(page.teams.filter((x) => x.status === 'active').map((x) => [x.id, x.name]), { name: 'team' });
    const boards = h('div', { class: 'inline-fields' });
    const drawBoards = () => {
      const tm = page.teamById(teamSel.value);
      const roster = tm ? [...(tm.members || []), ...(tm.substitutes || [])] : [];
      clear(boards, Array.from({ length: ev.boards || 0 }, (_, i) => field(t('adm.board', { n: i + 1 }),
        select(roster.map((m) => [m.id, m.name]), { name: `board${i + 1}`, value: roster[i]?.id || '' }))));
    };
    teamSel.addEventListener('change', drawBoards);
    drawBoards();
    const btn = h('button', { type: 'submit' }, t('adm.lineupSave'));
    const drawBtn = h('button', { type: 'button' }, t('adm.drawMissing'));
    drawBtn.addEventListener('click', () => act(drawBtn, status, async () => {
      await post(`${base()}/rounds/${n}/lineups`, { drawMissing: true });
      after(status, t('adm.lineupSaved'));
    }));
    const form = h('form', { novalidate: true, id: 'lineup' }, field(t('adm.lineupTeam'), teamSel), boards, h('div', { class: 'row wrap' }, btn, drawBtn), status);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!validate(e.currentTarget)) return;
      act(btn, status, async () => {
        const lineup = [...boards.querySelectorAll('select')].map((s) => s.value);
        await post(`${base()}/rounds/${n}/lineups`, { team: teamSel.value, lineup });
        after(status, t('adm.lineupSaved'));
      });
    });
    return h('details', { class: 'card' }, h('summary', {}, `${t('adm.lineup')} · ${t('ev.roundsOpen', { n })}`), form);
  }

  function teamActions(tm) {
    if (tm.status === 'withdrawn') return null;
    return memo(`team-${tm.id}-${tm.status}`, () => buildTeamActions(tm));
  }

  function buildTeamActions(tm) {
    const status = h('span', { class: 'status inline', 'aria-live': 'polite' });
    const b = h('button', { type: 'button', class: 'small no-print' }, t('adm.withdrawTeam'));
    b.addEventListener('click', async () => {
      if (!(await confirmDialog(t('adm.confirmWithdraw', { name: tm.name }), { yes: t('adm.withdrawTeam') }))) return;
      act(b, status, async () => {
        await post(`${base()}/teams/${enc(tm.id)}/withdraw`, {});
        after(status, `${tm.name}: ${playerStatus('withdrawn')}`);
      });
    });
    return h('div', { class: 'row-actions' }, b, status);
  }

  function officialsForm() {
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const role = select([['arbiter', t('adm.role.arbiter')], ['chiefArbiter', t('adm.role.chiefArbiter')], ['scribe', t('adm.role.scribe')]], { name: 'role' });
    const name = h('input', { type: 'text', name: 'officialName', required: true, maxlength: 120, autocomplete: 'off' });
    const tables = h('input', { type: 'text', name: 'tables', inputmode: 'numeric', autocomplete: 'off', placeholder: '1, 2' });
    const out = h('div', {});
    const btn = h('button', { type: 'submit' }, t('adm.appoint'));
    const form = h('form', { novalidate: true, class: 'inline-fields', id: 'appoint' }, field(t('adm.role'), role), field(t('adm.name'), name),
      field(t('adm.tables'), tables), btn, status, out);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!validate(e.currentTarget)) return;
      act(btn, status, async () => {
        const body = { role: role.value, name: name.value.trim() };
        const tl = tableList(tables.value);
        if (tl.length) body.tables = tl;
        const res = await post(`${base()}/officials`, body);
        keepLink({ id: res.id, name: `${body.name} (${t(`adm.role.${body.role}`)})`, token: res.token });
        clear(out, h('p', {}, t('adm.appointed', { name: body.name })), linkBox(body.name, eventLink(res.token)));
        memo('officials-list', listOfOfficials).reload();
        name.value = '';
        tables.value = '';
      });
    });
    return form;
  }

  // signOut forgets the organiser link on this device (a borrowed phone, a
  // venue laptop): the page reloads as the public's.
  function signOut() {
    const b = h('button', { type: 'button', class: 'small', id: 'sign-out' }, t('me.forget'));
    b.addEventListener('click', async () => {
      if (!(await confirmDialog(t('adm.signOutConfirm'), { yes: t('me.forget') }))) return;
      await saveToken(`event:${tid}`, '');
      location.reload();
    });
    return h('p', {}, b);
  }

  // The officials as the server has them: kept across reloads, each with a new link on request.
  const listOfOfficials = () => officialsList({ base, token, post, eventLink, keepLink });

  // The console is kept while what it shows is unchanged (a redraw keeps
  // the focus and a half-typed appointment in it).
  function consoleView() {
    const started = page.roundCache.get(page.ev.round)?.started !== false;
    return memo(`console-${page.ev.round}-${page.ev.status}-${started}-${page.players.length}-${page.teams.length}`, buildConsole);
  }

  function buildConsole() {
    return h('div', { class: 'console' },
      h('h2', {}, t('adm.console')),
      h('p', { class: 'muted' }, t('adm.consoleLead')),
      h('p', {}, t(page.ev.teams ? 'adm.nextStepsTeams' : 'adm.nextSteps')),
      roundControls(page.ev.round, page.roundCache.get(page.ev.round)?.started !== false),
      page.ev.checkIn && page.ev.status !== 'finished' ? deskSection(page) : null,
      page.ev.teams ? null : entriesSection(page),
      h('section', { class: 'card' }, h('h3', {}, t('adm.organiserLink')), linkBox(t('adm.organiserLink'), eventLink(token)), signOut()),
      h('section', { class: 'card' }, h('h3', {}, t('adm.officials')), memo('officials', officialsForm), memo('officials-list', listOfOfficials)),
      linksSection(linkCtx),
      h('p', { class: 'help-link' }, h('a', { href: `/help/organiser.${lang}`, target: '_blank', rel: 'noopener' }, t('help.link'))));
  }

  return { roundControls, resultControl, changeForm, playerActions, registerForms, teamForms, teamActions, consoleView };
}
