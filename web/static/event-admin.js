// event-admin.js — the organiser's console on the event page, loaded only
// when the page holds the event's organiser token: register players (one by
// one, or many from pasted or uploaded CSV), teams and lineups, appoint
// officials, pair and start rounds, manual changes, results and corrections,
// withdraw/pause/resume. Every refusal is shown with the API's message.
//
// Results: the organiser enters and corrects them; where the server leaves
// results to officials (O-1), the console appoints the organiser as an
// arbiter once ("Organiser") and keeps that token in this browser.

import { api, ApiError, getToken, newKey, saveToken } from './api.js';
import { addStrings, t } from './i18n.js';
import { playerStatus, resultName, resultShort } from './names.js';
import { act, checkbox, clear, field, h, linkBox, parseCSV, select, showError, showOk } from './ui.js';

addStrings({
  zh: {
    'adm.pair': '编排第 {n} 轮',
    'adm.paired': '第 {n} 轮已编排。',
    'adm.pairOptions': '编排选项',
    'adm.startsAt': '开始时间（可选）',
    'adm.unfinishedAsDraws': '未完成的对局按和棋计算后编排',
    'adm.start': '开始第 {n} 轮',
    'adm.started': '第 {n} 轮已开始。',
    'adm.startMissing': '此服务器在编排（或到达开始时间）时自动开始一轮。',
    'adm.round': '轮次管理',
    'adm.allPaired': '所有轮次都已编排。',
    'adm.result': '第 {table} 台结果',
    'adm.save': '保存',
    'adm.correct': '更正',
    'adm.saved': '第 {table} 台：{result}',
    'adm.changes': '人工调整对阵',
    'adm.action': '调整',
    'adm.act.swapColours': '交换先后手', 'adm.act.pair': '指定对阵', 'adm.act.bye': '指定轮空',
    'adm.table': '台号', 'adm.redPlayer': '红方', 'adm.blackPlayer': '黑方', 'adm.byePlayer': '轮空棋手', 'adm.note': '说明（记入日志）',
    'adm.apply': '应用', 'adm.applied': '已调整。',
    'adm.withdraw': '退赛', 'adm.pause': '暂停', 'adm.resume': '恢复',
    'adm.confirmWithdraw': '确定让 {name} 退赛？此操作不能撤销。',
    'adm.register': '报名棋手',
    'adm.name': '姓名', 'adm.rating': '等级分', 'adm.club': '单位', 'adm.seeded': '种子',
    'adm.add': '报名',
    'adm.added': '{name} 已报名（{n} 号）。',
    'adm.csv': '批量报名（CSV：姓名, 等级分, 单位）',
    'adm.csvPaste': '粘贴 CSV',
    'adm.csvFile': '或上传 CSV 文件',
    'adm.csvPreview': '将报名 {n} 名棋手。',
    'adm.csvGo': '全部报名',
    'adm.csvDone': '已报名 {ok} 名，失败 {bad} 名。',
    'adm.csvRow': '第 {line} 行 {name}：{msg}',
    'adm.csvEmpty': '没有找到棋手：每行一名，姓名在前。',
    'adm.links': '棋手链接（发给各位棋手，打开即可下棋）',
    'adm.linksNone': '本机还没有棋手链接（只在报名时显示一次）。',
    'adm.officials': '裁判与记录员',
    'adm.role': '角色', 'adm.role.arbiter': '裁判', 'adm.role.chiefArbiter': '裁判长', 'adm.role.scribe': '记录员',
    'adm.tables': '负责台次（逗号分隔，留空 = 全部）',
    'adm.appoint': '任命',
    'adm.appointed': '{name} 的链接（只显示这一次，请转交本人）：',
    'adm.organiserLink': '组织者链接',
    'adm.selfArbiter': '组织者',
    'adm.team': '报名队伍',
    'adm.teamName': '队名',
    'adm.members': '队员（每行一名：姓名, 等级分, 单位；共 {n} 名）',
    'adm.subs': '替补（每行一名，可选）',
    'adm.teamAdded': '{name} 已报名。',
    'adm.captainLink': '{name} 领队链接',
    'adm.lineup': '出场名单',
    'adm.lineupTeam': '队伍',
    'adm.board': '第 {n} 台',
    'adm.lineupSave': '提交名单',
    'adm.lineupSaved': '名单已提交。',
    'adm.drawMissing': '为未提交的队伍抽签排名单',
    'adm.withdrawTeam': '队伍退赛',
    'adm.downloads': '下载',
    'adm.console': '组织者控制台',
    'adm.consoleLead': '报名、编排、开始各轮、录入结果。公众看到的是同一页面（不含这些按钮）。',
    'adm.nextSteps': '步骤：① 报名棋手 → ② 编排第 1 轮 → ③ 开始本轮 → ④ 录入结果 → 编排下一轮。',
  },
  en: {
    'adm.pair': 'Pair round {n}',
    'adm.paired': 'Round {n} is paired.',
    'adm.pairOptions': 'Pairing options',
    'adm.startsAt': 'Starts at (optional)',
    'adm.unfinishedAsDraws': 'Pair although games are unfinished (they count as draws)',
    'adm.start': 'Start round {n}',
    'adm.started': 'Round {n} has started.',
    'adm.startMissing': 'This server starts a round when it is paired (or at its start time).',
    'adm.round': 'Rounds',
    'adm.allPaired': 'Every round is paired.',
    'adm.result': 'Result of table {table}',
    'adm.save': 'Save',
    'adm.correct': 'Correct',
    'adm.saved': 'Table {table}: {result}',
    'adm.changes': 'Manual changes',
    'adm.action': 'Change',
    'adm.act.swapColours': 'Swap colours', 'adm.act.pair': 'Pair two players', 'adm.act.bye': 'Give the bye',
    'adm.table': 'Table', 'adm.redPlayer': 'Red', 'adm.blackPlayer': 'Black', 'adm.byePlayer': 'Player with the bye', 'adm.note': 'Note (kept in the audit log)',
    'adm.apply': 'Apply', 'adm.applied': 'Changed.',
    'adm.withdraw': 'Withdraw', 'adm.pause': 'Pause', 'adm.resume': 'Resume',
    'adm.confirmWithdraw': 'Withdraw {name}? This cannot be undone.',
    'adm.register': 'Register a player',
    'adm.name': 'Name', 'adm.rating': 'Rating', 'adm.club': 'Club', 'adm.seeded': 'Seeded',
    'adm.add': 'Register',
    'adm.added': '{name} is registered (no. {n}).',
    'adm.csv': 'Register many (CSV: name, rating, club)',
    'adm.csvPaste': 'Paste CSV',
    'adm.csvFile': 'or upload a CSV file',
    'adm.csvPreview': '{n} players will be registered.',
    'adm.csvGo': 'Register them all',
    'adm.csvDone': '{ok} registered, {bad} refused.',
    'adm.csvRow': 'Line {line} {name}: {msg}',
    'adm.csvEmpty': 'No players found: one per line, the name first.',
    'adm.links': 'Player links (send each player theirs: it opens their games)',
    'adm.linksNone': 'This browser has no player links (they are shown once, at registration).',
    'adm.officials': 'Arbiters and scribes',
    'adm.role': 'Role', 'adm.role.arbiter': 'Arbiter', 'adm.role.chiefArbiter': 'Chief arbiter', 'adm.role.scribe': 'Scribe',
    'adm.tables': 'Tables (comma-separated; empty: all)',
    'adm.appoint': 'Appoint',
    'adm.appointed': 'Link for {name} (shown only once: hand it over):',
    'adm.organiserLink': 'Organiser link',
    'adm.selfArbiter': 'Organiser',
    'adm.team': 'Register a team',
    'adm.teamName': 'Team name',
    'adm.members': 'Members (one per line: name, rating, club; {n} of them)',
    'adm.subs': 'Substitutes (one per line, optional)',
    'adm.teamAdded': '{name} is registered.',
    'adm.captainLink': 'Captain link for {name}',
    'adm.lineup': 'Lineup',
    'adm.lineupTeam': 'Team',
    'adm.board': 'Board {n}',
    'adm.lineupSave': 'Submit the lineup',
    'adm.lineupSaved': 'The lineup is in.',
    'adm.drawMissing': 'Draw the missing lineups by lot',
    'adm.withdrawTeam': 'Withdraw the team',
    'adm.downloads': 'Downloads',
    'adm.console': 'Organiser console',
    'adm.consoleLead': 'Register, pair, start rounds, enter results. The public sees the same page without these controls.',
    'adm.nextSteps': 'Steps: ① register players → ② pair round 1 → ③ start the round → ④ enter results → pair the next round.',
  },
});

const RESULTS = ['1-0', '1/2-1/2', '0-1', '+-', '-+', '0-0'];

/** createAdmin gives the event page its organiser controls. */
export function createAdmin(page) {
  const tid = page.tid;
  const token = page.token;
  const base = () => page.base();
  const linksKey = `xqtour.links.${tid}`;
  const enc = encodeURIComponent;

  const links = () => { try { return JSON.parse(localStorage.getItem(linksKey) || '[]'); } catch { return []; } };
  const keepLink = (entry) => {
    const list = links().filter((l) => l.id !== entry.id);
    list.push(entry);
    try { localStorage.setItem(linksKey, JSON.stringify(list)); } catch { /* storage disabled */ }
  };
  const eventLink = (tok) => `${location.origin}/t/${tid}#token=${tok}`;

  // post sends a POST and retries once, with the same Idempotency-Key, when
  // the network failed (the first may have arrived: the retry replays it).
  async function post(path, body, tok = token) {
    const key = newKey();
    try {
      return await api('POST', path, { body, token: tok, key });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 0 || err.status === 429 || err.status === 503)) {
        await new Promise((r) => setTimeout(r, Math.min(5000, (err.retryAfter || 1) * 1000)));
        return api('POST', path, { body, token: tok, key });
      }
      throw err;
    }
  }

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
  async function recordResult(p, result) {
    const path = `/games/${enc(p.gameId)}/result`;
    const note = 'organiser console';
    try {
      return await post(path, p.result ? { result, correction: true, note } : { result });
    } catch (err) {
      if (!(err instanceof ApiError) || !(err.status === 403 || (err.status === 400 && err.code === 'unknown_field'))) throw err;
    }
    const arb = await arbiterToken();
    if (p.result) return post(`/games/${enc(p.gameId)}/rulings`, { kind: 'result', result, note }, arb);
    return post(path, { result }, arb);
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

  function roundControls(n) {
    return memo(`round-${page.ev.round}-${page.ev.status}-${n}`, () => buildRoundControls(n));
  }

  function buildRoundControls(n) {
    const ev = page.ev;
    const status = h('div', { class: 'status', 'aria-live': 'polite' });
    const next = ev.round + 1;
    const canPair = ev.status !== 'finished' && (!ev.rounds || next <= ev.rounds);
    const startsAt = h('input', { type: 'datetime-local', name: 'startsAt' });
    const asDraws = checkbox(t('adm.unfinishedAsDraws'), { name: 'unfinishedAsDraws' });
    const pairBtn = h('button', { type: 'button', class: 'primary', id: 'pair-next' }, t('adm.pair', { n: next }));
    pairBtn.addEventListener('click', () => act(pairBtn, status, async () => {
      const body = {};
      if (startsAt.value) body.startsAt = new Date(startsAt.value).toISOString();
      if (asDraws.querySelector('input').checked) body.unfinishedAsDraws = true;
      const r = await post(`${base()}/rounds`, body);
      page.view.round = r.round;
      page.roundCache.delete(r.round);
      after(status, t('adm.paired', { n: r.round }));
    }));
    const cur = n || ev.round;
    const startBtn = cur ? h('button', { type: 'button', id: 'start-round' }, t('adm.start', { n: cur })) : null;
    if (startBtn) {
      startBtn.addEventListener('click', () => act(startBtn, status, async () => {
        try {
          await post(`${base()}/rounds/${cur}/start`, {});
          after(status, t('adm.started', { n: cur }));
          startBtn.hidden = true; // a round starts once
        } catch (err) {
          if (err instanceof ApiError && err.status === 404 && /no route/.test(err.message)) {
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
      h('div', { class: 'row wrap' }, canPair ? pairBtn : h('p', { class: 'muted' }, t('adm.allPaired')), startBtn),
      canPair ? h('details', {}, h('summary', {}, t('adm.pairOptions')), field(t('adm.startsAt'), startsAt), asDraws) : null,
      status);
  }

  function resultControl(p, n) {
    return memo(`result-${p.gameId}-${p.result}`, () => buildResultControl(p, n));
  }

  function buildResultControl(p, n) {
    const label = t('adm.result', { table: p.board ? `${p.table}.${p.board}` : p.table });
    const sel = select([['', '—'], ...RESULTS.map((r) => [r, `${resultShort(r)} ${resultName(r)}`])], { 'aria-label': label, value: p.result || '', class: 'result-select' });
    const btn = h('button', { type: 'button', class: 'small' }, p.result ? t('adm.correct') : t('adm.save'));
    const status = h('span', { class: 'status inline', 'aria-live': 'polite' });
    btn.addEventListener('click', () => act(btn, status, async () => {
      if (!sel.value) return;
      await recordResult(p, sel.value);
      page.roundCache.delete(n);
      after(status, t('adm.saved', { table: p.table, result: sel.value }));
    }));
    return h('div', { class: 'result-entry no-print' }, sel, btn, status);
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
    const form = h('form', { class: 'inline-fields' }, field(t('adm.action'), action), tableF, redF, blackF, byeF, field(t('adm.note'), note), btn, status);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
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
    return memo(`player-${p.id}-${p.status}`, () => buildPlayerActions(p));
  }

  function buildPlayerActions(p) {
    const status = h('span', { class: 'status inline', 'aria-live': 'polite' });
    const mk = (what, label) => {
      const b = h('button', { type: 'button', class: 'small', 'aria-label': `${label}: ${p.name}` }, label);
      b.addEventListener('click', () => {
        if (what === 'withdraw' && !window.confirm(t('adm.confirmWithdraw', { name: p.name }))) return;
        act(b, status, async () => {
          await post(`${base()}/players/${enc(p.id)}/${what}`, {});
          after(status, `${p.name}: ${playerStatus(what === 'withdraw' ? 'withdrawn' : what === 'pause' ? 'paused' : 'active')}`);
        });
      });
      return b;
    };
    if (p.status === 'withdrawn') return status;
    return h('div', { class: 'row-actions' },
      p.status === 'paused' ? mk('resume', t('adm.resume')) : mk('pause', t('adm.pause')),
      mk('withdraw', t('adm.withdraw')), status);
  }

  async function register(p) {
    const body = { name: p.name };
    if (p.rating) body.rating = p.rating;
    if (p.club) body.club = p.club;
    if (p.seeded) body.seeded = true;
    const res = await post(`${base()}/players`, body);
    keepLink({ id: res.id, name: res.player.name, number: res.player.number, token: res.token });
    return res;
  }

  function linksList() {
    const list = links();
    if (!list.length) return h('p', { class: 'muted' }, t('adm.linksNone'));
    return h('ul', { class: 'plain links' }, list.map((l) => h('li', {}, linkBox(`${l.number ?? ''} ${l.name}`, eventLink(l.token)))));
  }

  /** csvPlayers turns CSV rows into players, skipping a header row. */
  function csvPlayers(text) {
    let rows = parseCSV(text);
    if (rows.length && /^(name|姓名|棋手|player)$/i.test(rows[0][0] || '')) rows = rows.slice(1);
    return rows.map((r, i) => ({ line: i + 1, name: r[0] || '', rating: r[1] && /^\d+$/.test(r[1]) ? Number(r[1]) : undefined, club: r[2] || undefined }))
      .filter((p) => p.name);
  }

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
    const one = h('form', { class: 'inline-fields', id: 'register-player' },
      field(t('adm.name'), name), field(t('adm.rating'), rating), field(t('adm.club'), club), seeded, addBtn, status);
    one.addEventListener('submit', (e) => {
      e.preventDefault();
      act(addBtn, status, async () => {
        const res = await register({ name: name.value.trim(), rating: rating.value ? Number(rating.value) : undefined, club: club.value.trim(), seeded: seeded.querySelector('input').checked });
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
    const many = h('form', { id: 'register-csv' }, field(t('adm.csvPaste'), area), field(t('adm.csvFile'), file), preview, goBtn, csvStatus);
    many.addEventListener('submit', (e) => {
      e.preventDefault();
      act(goBtn, csvStatus, async () => {
        const list = csvPlayers(area.value);
        if (!list.length) { showError(csvStatus, new Error(t('adm.csvEmpty'))); return; }
        let ok = 0;
        const bad = [];
        for (const p of list) {
          try {
            await register(p);
            ok++;
            preview.textContent = `${ok} / ${list.length}`;
          } catch (err) {
            bad.push(h('li', {}, t('adm.csvRow', { line: p.line, name: p.name, msg: err.message })));
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

  function parseMembers(text) {
    return parseCSV(text).map((r) => {
      const m = { name: r[0] };
      if (r[1] && /^\d+$/.test(r[1])) m.rating = Number(r[1]);
      if (r[2]) m.club = r[2];
      return m;
    }).filter((m) => m.name);
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
    const form = h('form', { id: 'register-team' }, field(t('adm.teamName'), name), field(t('adm.members', { n: ev.boards || '' }), members),
      ev.substitutes ? field(t('adm.subs'), subs) : null, btn, status, out);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
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
    const form = h('form', { id: 'lineup' }, field(t('adm.lineupTeam'), teamSel), boards, h('div', { class: 'row wrap' }, btn, drawBtn), status);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
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
    b.addEventListener('click', () => {
      if (!window.confirm(t('adm.confirmWithdraw', { name: tm.name }))) return;
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
    const form = h('form', { class: 'inline-fields', id: 'appoint' }, field(t('adm.role'), role), field(t('adm.name'), name),
      field(t('adm.tables'), tables), btn, status, out);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      act(btn, status, async () => {
        const body = { role: role.value, name: name.value.trim() };
        const tl = tables.value.split(/[,，\s]+/).filter(Boolean).map(Number);
        if (tl.length) body.tables = tl;
        const res = await post(`${base()}/officials`, body);
        keepLink({ id: res.id, name: `${body.name} (${t(`adm.role.${body.role}`)})`, token: res.token });
        clear(out, h('p', {}, t('adm.appointed', { name: body.name })), linkBox(body.name, eventLink(res.token)));
        name.value = '';
        tables.value = '';
      });
    });
    return form;
  }

  function consoleView() {
    return h('div', { class: 'console' },
      h('h2', {}, t('adm.console')),
      h('p', { class: 'muted' }, t('adm.consoleLead')),
      h('p', {}, t('adm.nextSteps')),
      roundControls(page.ev.round),
      h('section', { class: 'card' }, h('h3', {}, t('adm.organiserLink')), linkBox(t('adm.organiserLink'), eventLink(token))),
      h('section', { class: 'card' }, h('h3', {}, t('adm.officials')), memo('officials', officialsForm)),
      h('section', { class: 'card' }, h('h3', {}, t('adm.links')), linksList()));
  }

  return { roundControls, resultControl, changeForm, playerActions, registerForms, teamForms, teamActions, consoleView };
}
