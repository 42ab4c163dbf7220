// pages/home/page.js — the home page: create an event (every system and option the API
// offers, sensible defaults, the advanced ones folded away), open an event
// by id or link, and create a standalone game with a link for each seat.
// The forms are drawn and wired here; what they send is state.js's.

import { ApiError } from '../../core/http.js';
import { t } from '../../core/i18n.js';
import * as outbox from '../../core/outbox.js';
import { eventLink, gameLink, getToken, saveToken } from '../../core/tokens.js';
import { PRESETS, SYSTEMS, systemName } from '../../names.js';
import { tiebreakPicker } from './tiebreaks.js';
import { act, checkbox, clear, field, h, linkBox, select, validate } from '../../ui.js';
import { eventBody, eventIdFrom, formValues, tcBody } from './state.js';

const MINE = 'xqtour.myEvents';

// A server may ask for its creation key (X-Creation-Key) to create events
// and games: the field shows when it refuses without one, and the key is
// kept in this browser with the tokens (scope "creation").
function creationKey() {
  return getToken('creation');
}

function keyField() {
  const input = h('input', { type: 'password', name: 'creationKey', autocomplete: 'off', value: creationKey() });
  const f = field(t('home.creationKey'), input, t('home.creationKeyHint'));
  f.classList.add('creation-key');
  f.hidden = !creationKey();
  return f;
}

// create POSTs with the creation key when there is one; a refusal for want of
// it (or a wrong one) shows the key field.
async function create(form, path, body, opts = {}) {
  const box = form.querySelector('.creation-key');
  const keyInput = box.querySelector('input');
  const key = keyInput.value.trim();
  try {
    const res = await outbox.post(path, body, { ...opts, headers: key ? { 'X-Creation-Key': key } : undefined });
    if (key) saveToken('creation', key);
    return res;
  } catch (err) {
    if (err.code === 'creation_key_required' || err.code === 'bad_creation_key') {
      for (const b of document.querySelectorAll('.creation-key')) b.hidden = false;
      keyInput.focus();
    }
    throw err;
  }
}

/** myEvents lists the events this browser created or organises: [{id, name}]. */
export function myEvents() {
  try { return JSON.parse(localStorage.getItem(MINE) || '[]').filter((e) => getToken(`event:${e.id}`)); } catch { return []; }
}

/** rememberEvent adds an event to this browser's list. */
export function rememberEvent(id, name) {
  const list = myEvents().filter((e) => e.id !== id);
  list.unshift({ id, name });
  try { localStorage.setItem(MINE, JSON.stringify(list.slice(0, 20))); } catch { /* storage disabled */ }
}


function opts(prefix, keys) {
  return keys.map((k) => [k, t(`${prefix}.${k}`)]);
}

function tcControls(idPrefix) {
  const preset = select([...PRESETS.map((p) => [p, t(`tc.${p}`)]), ['custom', t('tc.custom')]], { name: 'tc', id: `${idPrefix}-tc`, value: 'rapid-10/40+5/30' });
  const custom = h('fieldset', { class: 'inline-fields', hidden: true },
    h('legend', {}, t('tc.custom')),
    field(t('home.custom.minutes'), h('input', { type: 'number', name: 'tcMinutes', min: 1, max: 600, value: 15, inputmode: 'numeric' })),
    field(t('home.custom.moves'), h('input', { type: 'number', name: 'tcMoves', min: 0, max: 200, value: 0, inputmode: 'numeric' })),
    field(t('home.custom.increment'), h('input', { type: 'number', name: 'tcIncrement', min: 0, max: 600, value: 10, inputmode: 'numeric' })));
  preset.addEventListener('change', () => { custom.hidden = preset.value !== 'custom'; });
  return [field(t('home.tc'), preset), custom];
}


function createEventForm(out) {
  const sys = select(SYSTEMS.map((s) => [s, systemName(s)]), { name: 'system', value: 'swiss' });
  const teams = checkbox(t('home.teams'), { name: 'teams' });
  const teamBox = h('fieldset', { class: 'inline-fields', hidden: true },
    h('legend', {}, t('home.teams')),
    field(t('home.boards'), h('input', { type: 'number', name: 'boards', min: 1, max: 16, value: 4, inputmode: 'numeric' })),
    field(t('home.substitutes'), h('input', { type: 'number', name: 'substitutes', min: 0, max: 8, value: 0, inputmode: 'numeric' })),
    field(t('home.teamFormat'), select([['', t('home.default')], ...opts('home.tf', ['fixedBoards', 'boardsWithSubstitutes', 'lineupPerMatch', 'allPlayAll'])], { name: 'teamFormat' })),
    checkbox(t('home.keepEntryOrder'), { name: 'keepEntryOrder' }));
  const elim = h('fieldset', { class: 'inline-fields', 'data-system': 'swissElimination', hidden: true },
    h('legend', {}, t('home.elimination')),
    field(t('home.el.fromRound'), h('input', { type: 'number', name: 'elFromRound', min: 0, inputmode: 'numeric' })),
    field(t('home.el.perRound'), h('input', { type: 'number', name: 'elPerRound', min: 0, inputmode: 'numeric' })),
    field(t('home.el.keep'), h('input', { type: 'number', name: 'elKeep', min: 0, inputmode: 'numeric' })));
  const groups = h('fieldset', { class: 'inline-fields', 'data-system': 'groups', hidden: true },
    h('legend', {}, t('home.groups')),
    field(t('home.gr.count'), h('input', { type: 'number', name: 'grCount', min: 2, max: 26, value: 2, inputmode: 'numeric' })),
    field(t('home.gr.finals'), select(opts('home.gr', ['samePlace', 'cross']), { name: 'grFinals' })));
  const ko = h('fieldset', { class: 'inline-fields', 'data-system': 'knockout doubleElimination swissKnockout', hidden: true },
    h('legend', {}, t('home.knockout')),
    h('div', { 'data-system': 'knockout' }, checkbox(t('home.ko.thirdPlace'), { name: 'koThirdPlace' })),
    h('div', { 'data-system': 'doubleElimination' }, checkbox(t('home.ko.reset'), { name: 'koReset', checked: true })),
    h('div', { 'data-system': 'swissKnockout' }, field(t('home.ko.finalists'), select([['', t('home.default')], ['2', '2'], ['4', '4']], { name: 'koFinalists' }))),
    field(t('home.ko.tieBreak'), select([['', t('home.default')], ...PRESETS.filter((p) => p.startsWith('rapid')).map((p) => [p, t(`tc.${p}`)])], { name: 'koTieBreak' })));
  const late = h('fieldset', { class: 'inline-fields', 'data-system': 'swiss swissKnockout swissElimination swissNPlusOne', hidden: true },
    h('legend', {}, t('home.late')),
    field(t('home.late.untilRound'), h('input', { type: 'number', name: 'lateUntil', min: 0, max: 99, inputmode: 'numeric' })),
    field(t('home.late.missedRounds'), select(opts('home.late', ['zero', 'draw', 'win']), { name: 'lateMissed' })));
  const rr = h('div', { 'data-system': 'roundRobin doubleRoundRobin', hidden: true },
    field(t('home.numbering'), select([['', t('home.default')], ...opts('home.nb', ['registration', 'rating', 'draw'])], { name: 'numbering' })));
  const rules = h('fieldset', { class: 'inline-fields' },
    h('legend', {}, t('home.rules')),
    field(t('home.r.repetition'), select([['', t('home.default')], ...opts('home.r', ['ruling', 'threefoldDraw', 'perpetualCheckLoses'])], { name: 'rRepetition' })),
    field(t('home.r.illegalMoves'), select([['', t('home.default')], ...opts('home.r', ['reject', 'foul', 'lose'])], { name: 'rIllegal' })),
    field(t('home.r.noCaptureMoves'), h('input', { type: 'number', name: 'rNoCapture', min: 10, max: 200, inputmode: 'numeric' })),
    field(t('home.r.drawOfferLimit'), h('input', { type: 'number', name: 'rDrawLimit', min: -1, max: 50, inputmode: 'numeric' })),
    field(t('home.r.lateForfeitMinutes'), h('input', { type: 'number', name: 'rLateMin', min: 1, max: 600, inputmode: 'numeric' })),
    checkbox(t('home.r.deadPositionDraw'), { name: 'rDead' }),
    checkbox(t('home.r.recordArrivals'), { name: 'rArrivals' }));
  const advanced = h('details', { class: 'advanced' }, h('summary', {}, t('home.advanced')),
    field(t('home.scoring'), select(opts('home.sc', ['2-1-0', '3-1-0', '3-0-redblack']), { name: 'scoring' })),
    h('fieldset', { class: 'tb-field' }, h('legend', {}, t('home.tiebreaks')), tiebreakPicker()),
    field(t('home.firstRound'), select(opts('home.fr', ['positional', 'topBottom', 'halves']), { name: 'firstRound' })),
    checkbox(t('home.avoidSameClub'), { name: 'avoidSameClub' }),
    field(t('home.gamesPerMatch'), h('input', { type: 'number', name: 'gamesPerMatch', min: 0, max: 12, inputmode: 'numeric' })),
    checkbox(t('home.playoff'), { name: 'playoff' }),
    field(t('home.startsAt'), h('input', { type: 'datetime-local', name: 'startsAt' })),
    rr, elim, groups, ko, late, rules);
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const btn = h('button', { type: 'submit', class: 'primary' }, t('home.createBtn'));
  const form = h('form', { class: 'card', id: 'create-event', novalidate: true },
    h('h2', {}, t('home.create')),
    field(t('home.name'), h('input', { type: 'text', name: 'name', required: true, maxlength: 200, placeholder: t('home.namePh'), autocomplete: 'off' })),
    field(t('home.system'), sys),
    field(t('home.rounds'), h('input', { type: 'number', name: 'rounds', min: 0, max: 99, value: 5, inputmode: 'numeric' }), t('home.roundsHint')),
    tcControls('ev'),
    teams, teamBox, advanced, keyField(), btn, status);
  const showSystem = () => {
    for (const el of form.querySelectorAll('[data-system]')) el.hidden = !el.dataset.system.split(' ').includes(sys.value);
    const roundsInput = form.elements.rounds;
    if (sys.value !== 'swiss' && !sys.value.startsWith('swiss') && roundsInput.value === '5') roundsInput.value = '';
  };
  sys.addEventListener('change', showSystem);
  teams.querySelector('input').addEventListener('change', (e) => { teamBox.hidden = !e.target.checked; });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!validate(e.currentTarget)) return;
    act(btn, status, async () => {
      const body = eventBody(formValues(form));
      const res = await create(form, '/tournaments', body);
      saveToken(`event:${res.id}`, res.token);
      rememberEvent(res.id, res.tournament.name);
      const link = eventLink(res.id, res.token);
      clear(out, h('div', { class: 'card created', role: 'status' },
        h('h2', {}, t('home.created')),
        h('p', {}, t('home.keepLink')),
        linkBox(t('adm.organiserLink'), link), // the sentence above says the rest: said once
        h('p', {}, h('a', { class: 'button primary', href: `/t/${res.id}` }, t('home.openConsole')))));
      out.scrollIntoView({ block: 'nearest' });
      out.querySelector('a.button')?.focus();
    });
  });
  return form;
}



function openEventForm() {
  const input = h('input', { type: 'text', name: 'event', autocomplete: 'off', placeholder: 'tabc123… / https://…/t/…' });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const form = h('form', { novalidate: true, class: 'card', id: 'open-event' },
    h('h2', {}, t('home.open')),
    h('div', { class: 'row' }, field(t('home.openLabel'), input), h('button', { type: 'submit' }, t('home.openBtn'))),
    status);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!validate(e.currentTarget)) return;
    const ref = eventIdFrom(input.value);
    if (!ref) {
      clear(status, h('p', { class: 'error', role: 'alert' }, t('home.openBad')));
      return;
    }
    location.assign(`/t/${ref.id}${ref.token ? `#token=${ref.token}` : ''}`);
  });
  const mine = myEvents();
  if (mine.length) {
    form.append(h('h3', {}, t('home.mine')), h('ul', { class: 'plain' }, mine.map((e) => h('li', {}, h('a', { href: `/t/${e.id}` }, e.name || e.id)))));
  }
  return form;
}

function gameForm() {
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const out = h('div', {});
  const btn = h('button', { type: 'submit' }, t('home.gameBtn'));
  const form = h('form', { novalidate: true, class: 'card', id: 'create-game' },
    h('h2', {}, t('home.game')),
    h('p', { class: 'muted' }, t('home.gameLead')),
    tcControls('game'), keyField(), btn, status, out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!validate(e.currentTarget)) return;
    act(btn, status, async () => {
      const res = await create(form, '/games', { timeControl: tcBody(formValues(form)) });
      clear(out,
        linkBox(t('home.redLink'), gameLink(res.id, res.redToken)),
        linkBox(t('home.blackLink'), gameLink(res.id, res.blackToken)),
        linkBox(t('home.watch'), gameLink(res.id)),
        h('p', {}, h('a', { class: 'button primary', href: `/g/${res.id}#token=${res.redToken}` }, t('home.playRed'))));
    });
  });
  return form;
}

// importForm posts pasted or uploaded PGN to POST /games/import as it is
// (a file's bytes unchanged, so the server tells GB18030 and Big5 apart) and
// lists every game: a link to the new game, or where the record breaks.
function importForm() {
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const out = h('div', { class: 'import-results' });
  const text = h('textarea', { name: 'pgn', rows: 6, spellcheck: 'false', placeholder: '[Event "…"]\n1. 炮二平五 马8进7 2. 马二进三 车9平8 *' });
  const file = h('input', { type: 'file', name: 'file', accept: '.pgn,.txt,application/x-chess-pgn,text/plain' });
  const btn = h('button', { type: 'submit' }, t('home.importBtn'));
  const form = h('form', { novalidate: true, class: 'card', id: 'import-games' },
    h('h2', {}, t('home.import')),
    h('p', { class: 'muted' }, t('home.importLead')),
    field(t('home.importText'), text), field(t('home.importFile'), file), keyField(), btn, status, out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!validate(e.currentTarget)) return;
    act(btn, status, async () => {
      const chosen = file.files && file.files[0];
      const body = chosen ? await chosen.arrayBuffer() : text.value;
      if (!chosen && !text.value.trim()) throw new Error(t('home.importEmpty'));
      let data;
      try {
        data = await create(form, '/games/import', body, { contentType: 'application/x-chess-pgn' });
      } catch (err) {
        // A refusal that still lists the games (none imported) is drawn like an answer.
        if (!(err instanceof ApiError && err.body && Array.isArray(err.body.games))) throw err;
        data = err.body;
      }
      clear(out,
        h('p', {}, t('home.importDone', { imported: data.imported, failed: data.failed })),
        h('ol', { class: 'plain' }, data.games.map((g) => {
          const title = [g.event, g.red && g.black ? `${g.red} – ${g.black}` : ''].filter(Boolean).join(' · ');
          const head = h('strong', {}, t('home.importGame', { index: g.index, line: g.line }));
          if (g.id) {
            return h('li', {}, head, ' ', title, ' ', g.result ? `${g.result} ` : '',
              h('a', { href: `/g/${g.id}#token=${g.redToken}` }, t('home.importOpen')), ' · ',
              h('a', { href: `/g/${g.id}` }, t('home.importWatch')));
          }
          const er = g.error || {};
          const why = er.text
            ? t('home.importFail', { move: er.move, side: er.side || '', text: er.text, reason: er.reason })
            : t('home.importStart', { reason: er.reason || '' });
          return h('li', { class: 'error' }, head, ' ', title, h('br'), why);
        })));
    });
  });
  return form;
}

/** mount draws the home page into root. */
export function mount(root) {
  document.title = `${t('home.title')} · xqtour`;
  const out = h('div', { id: 'created' });
  clear(root,
    h('section', { class: 'hero' }, h('h1', {}, t('home.title')), h('p', { class: 'lead' }, t('home.lead'))),
    h('div', { class: 'home-grid' },
      h('div', {}, createEventForm(out), out),
      h('div', {}, openEventForm(), gameForm(), importForm())));
}
