// home.js — the home page: create an event (every system and option the API
// offers, sensible defaults, the advanced ones folded away), open an event
// by id or link, and create a standalone game with a link for each seat.

import { ApiError, api, getToken, newKey, saveToken } from './api.js';
import { addStrings, t } from './i18n.js';
import { PRESETS, SYSTEMS, TIEBREAKS, systemName, tiebreakName } from './names.js';
import { act, checkbox, clear, field, h, linkBox, select } from './ui.js';

addStrings({
  zh: {
    'home.title': '象棋赛事',
    'home.default': '默认',
    'home.creationKey': '创建密钥',
    'home.creationKeyHint': '本服务器要求创建密钥才能创建赛事和对局，请向服务器管理员索取。',
    'home.lead': '编排瑞士制、循环赛、淘汰赛和团体赛，实时公布对阵与名次，在手机上下棋。',
    'home.create': '创建赛事',
    'home.name': '赛事名称',
    'home.namePh': '例如：周六快棋公开赛',
    'home.system': '赛制',
    'home.rounds': '轮数',
    'home.roundsHint': '瑞士制常用 5–9 轮；循环赛和淘汰赛留空按人数自动计算。',
    'home.tc': '用时',
    'home.teams': '团体赛',
    'home.boards': '每队台数',
    'home.substitutes': '替补人数',
    'home.teamFormat': '团体赛形式',
    'home.tf.fixedBoards': '固定台次', 'home.tf.boardsWithSubstitutes': '台次可替补', 'home.tf.lineupPerMatch': '每场报名单', 'home.tf.allPlayAll': '队员全对全',
    'home.keepEntryOrder': '按报名顺序排台次（而非等级分）',
    'home.advanced': '更多设置',
    'home.scoring': '计分',
    'home.sc.2-1-0': '胜 2 和 1 负 0', 'home.sc.3-1-0': '胜 3 和 1 负 0', 'home.sc.3-0-redblack': '胜 3，和棋红 1 黑 2',
    'home.tiebreaks': '名次区分（按顺序，逗号分隔；留空用赛制默认）',
    'home.firstRound': '首轮配对',
    'home.fr.positional': '按序号（1–2、3–4…）', 'home.fr.topBottom': '首尾（1–N…）', 'home.fr.halves': '上下半区（1–N/2+1…）',
    'home.avoidSameClub': '尽量避免同单位相遇',
    'home.gamesPerMatch': '每对局数（淘汰赛/多局制）',
    'home.playoff': '并列时加赛',
    'home.startsAt': '开赛时间',
    'home.numbering': '循环赛编号',
    'home.nb.registration': '报名顺序', 'home.nb.rating': '等级分', 'home.nb.draw': '抽签',
    'home.elimination': '逐轮淘汰',
    'home.el.fromRound': '从第几轮后开始淘汰', 'home.el.perRound': '每轮淘汰人数', 'home.el.keep': '至少保留人数',
    'home.groups': '分组',
    'home.gr.count': '组数', 'home.gr.finals': '决赛', 'home.gr.samePlace': '同名次循环', 'home.gr.cross': '交叉决赛（两组）',
    'home.knockout': '淘汰赛',
    'home.ko.thirdPlace': '决三四名', 'home.ko.reset': '胜者组冠军首败后再赛一局', 'home.ko.finalists': '决赛人数', 'home.ko.tieBreak': '加赛快棋用时',
    'home.late': '迟到报名',
    'home.late.untilRound': '最晚可加入的轮次（0 = 不限）', 'home.late.missedRounds': '缺席轮次计分',
    'home.late.zero': '0 分', 'home.late.draw': '和棋分', 'home.late.win': '胜棋分',
    'home.rules': '规则',
    'home.r.repetition': '长打处理', 'home.r.ruling': '裁判裁决', 'home.r.threefoldDraw': '三次重复判和', 'home.r.perpetualCheckLoses': '长将判负',
    'home.r.illegalMoves': '违例着法', 'home.r.reject': '拒绝', 'home.r.foul': '记犯规', 'home.r.lose': '判负',
    'home.r.noCaptureMoves': '无吃子限着（回合）', 'home.r.drawOfferLimit': '提和次数上限（-1 不限）',
    'home.r.deadPositionDraw': '无胜可能时自动判和', 'home.r.lateForfeitMinutes': '迟到判负（分钟）', 'home.r.recordArrivals': '记录到场，迟到自动判负',
    'home.custom.minutes': '基本用时（分钟）', 'home.custom.moves': '回合数（0 = 包干）', 'home.custom.increment': '每步加秒',
    'home.createBtn': '创建赛事',
    'home.created': '赛事已创建。',
    'home.keepLink': '组织者链接：请妥善保存（含管理令牌，只显示这一次）。',
    'home.openConsole': '进入管理页面',
    'home.open': '打开赛事',
    'home.openLabel': '赛事编号或链接',
    'home.openBtn': '打开',
    'home.openBad': '请输入赛事编号（t 开头）或赛事链接。',
    'home.mine': '我管理的赛事',
    'home.game': '单独对局',
    'home.gameLead': '不属于赛事的一盘棋：创建后把黑方链接发给对手。',
    'home.gameBtn': '创建对局',
    'home.import': '导入棋谱',
    'home.importLead': '粘贴或上传 PGN 棋谱（一盘或多盘；UTF-8、GB18030 或 Big5；中文、WXF 或 ICCS 着法）：每盘成为一盘单独对局。',
    'home.importText': 'PGN 棋谱',
    'home.importFile': '或选择文件',
    'home.importBtn': '导入',
    'home.importDone': '导入 {imported} 盘，{failed} 盘未能读取。',
    'home.importOpen': '打开（红方座位）',
    'home.importWatch': '观看',
    'home.importGame': '第 {index} 盘（第 {line} 行）',
    'home.importFail': '第 {move} 回合 {side} “{text}”：{reason}',
    'home.importStart': '开局局面：{reason}',
    'home.importEmpty': '请粘贴棋谱或选择文件。',
    'home.redLink': '红方链接',
    'home.blackLink': '黑方链接',
    'home.playRed': '执红下棋',
    'home.watch': '观战链接',
  },
  en: {
    'home.title': 'Xiangqi tournaments',
    'home.default': 'Default',
    'home.creationKey': 'Creation key',
    'home.creationKeyHint': 'This server asks for its creation key to create events and games; its administrator has it.',
    'home.lead': 'Pair Swiss, round-robin, knockout and team events, publish pairings and standings live, and play on a phone.',
    'home.create': 'Create an event',
    'home.name': 'Event name',
    'home.namePh': 'e.g. Saturday Rapid Open',
    'home.system': 'System',
    'home.rounds': 'Rounds',
    'home.roundsHint': 'A Swiss usually has 5–9; leave empty for round robins and knockouts to follow the entries.',
    'home.tc': 'Time control',
    'home.teams': 'Team event',
    'home.boards': 'Boards per team',
    'home.substitutes': 'Substitutes',
    'home.teamFormat': 'Team format',
    'home.tf.fixedBoards': 'Fixed boards', 'home.tf.boardsWithSubstitutes': 'Boards with substitutes', 'home.tf.lineupPerMatch': 'A lineup per match', 'home.tf.allPlayAll': 'All-play-all matches',
    'home.keepEntryOrder': 'Keep each roster’s entry order (not rating order)',
    'home.advanced': 'More settings',
    'home.scoring': 'Scoring',
    'home.sc.2-1-0': 'Win 2, draw 1, loss 0', 'home.sc.3-1-0': 'Win 3, draw 1, loss 0', 'home.sc.3-0-redblack': 'Win 3; a draw 1 for red, 2 for black',
    'home.tiebreaks': 'Tie-breaks (in order, comma-separated; empty for the system’s default)',
    'home.firstRound': 'First-round pairing',
    'home.fr.positional': 'By number (1–2, 3–4, …)', 'home.fr.topBottom': 'Top–bottom (1–N, …)', 'home.fr.halves': 'Halves (1–N/2+1, …)',
    'home.avoidSameClub': 'Avoid pairing players of the same club',
    'home.gamesPerMatch': 'Games per match (knockouts, matches)',
    'home.playoff': 'Play-off for tied places',
    'home.startsAt': 'Starts at',
    'home.numbering': 'Round-robin numbers',
    'home.nb.registration': 'Registration order', 'home.nb.rating': 'Rating', 'home.nb.draw': 'Drawn by lot',
    'home.elimination': 'Elimination',
    'home.el.fromRound': 'Drop players after round', 'home.el.perRound': 'Players dropped per round', 'home.el.keep': 'Never fewer than',
    'home.groups': 'Groups',
    'home.gr.count': 'Groups', 'home.gr.finals': 'Finals', 'home.gr.samePlace': 'Same-place round robins', 'home.gr.cross': 'Cross finals (two groups)',
    'home.knockout': 'Knockout',
    'home.ko.thirdPlace': 'Match for third place', 'home.ko.reset': 'Grand-final reset', 'home.ko.finalists': 'Finalists', 'home.ko.tieBreak': 'Tie-break rapid games',
    'home.late': 'Late entries',
    'home.late.untilRound': 'Last round a late entrant may join (0: any)', 'home.late.missedRounds': 'Missed rounds score',
    'home.late.zero': 'Nothing', 'home.late.draw': 'A draw', 'home.late.win': 'A win',
    'home.rules': 'Rules',
    'home.r.repetition': 'Repetition', 'home.r.ruling': 'Arbiter rules', 'home.r.threefoldDraw': 'Threefold is a draw', 'home.r.perpetualCheckLoses': 'Perpetual check loses',
    'home.r.illegalMoves': 'Illegal moves', 'home.r.reject': 'Refused', 'home.r.foul': 'A foul', 'home.r.lose': 'Lose the game',
    'home.r.noCaptureMoves': 'No-capture limit (moves)', 'home.r.drawOfferLimit': 'Draw offers per player (-1: no limit)',
    'home.r.deadPositionDraw': 'Dead positions are drawn', 'home.r.lateForfeitMinutes': 'Late forfeit after (minutes)', 'home.r.recordArrivals': 'Record arrivals; late forfeits are automatic',
    'home.custom.minutes': 'Minutes', 'home.custom.moves': 'Moves (0: the rest of the game)', 'home.custom.increment': 'Increment (seconds)',
    'home.createBtn': 'Create the event',
    'home.created': 'The event is created.',
    'home.keepLink': 'Organiser link: keep it safe (it holds the organiser’s token and is shown only once).',
    'home.openConsole': 'Open the organiser console',
    'home.open': 'Open an event',
    'home.openLabel': 'Event id or link',
    'home.openBtn': 'Open',
    'home.openBad': 'Enter an event id (starting with t) or an event link.',
    'home.mine': 'Events I organise',
    'home.game': 'A single game',
    'home.gameLead': 'A game outside any event: create it, then send the black link to your opponent.',
    'home.gameBtn': 'Create the game',
    'home.import': 'Import game records',
    'home.importLead': 'Paste or upload PGN (one game or many; UTF-8, GB18030 or Big5; Chinese, WXF or ICCS moves): each game becomes a game of its own.',
    'home.importText': 'PGN records',
    'home.importFile': 'or choose a file',
    'home.importBtn': 'Import',
    'home.importDone': '{imported} imported, {failed} could not be read.',
    'home.importOpen': 'Open (red seat)',
    'home.importWatch': 'Watch',
    'home.importGame': 'Game {index} (line {line})',
    'home.importFail': 'move {move} ({side}) “{text}”: {reason}',
    'home.importStart': 'start position: {reason}',
    'home.importEmpty': 'Paste a record or choose a file.',
    'home.redLink': 'Red’s link',
    'home.blackLink': 'Black’s link',
    'home.playRed': 'Play red here',
    'home.watch': 'Spectators’ link',
  },
});

const MINE = 'xqtour.myEvents';
const CREATION_KEY = 'xqtour.creationKey';

// A server may ask for its creation key (X-Creation-Key) to create events
// and games: the field shows when it refuses without one, and the key is
// kept in this browser.
function creationKey() {
  try { return localStorage.getItem(CREATION_KEY) || ''; } catch { return ''; }
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
async function create(form, path, body) {
  const box = form.querySelector('.creation-key');
  const keyInput = box.querySelector('input');
  const key = keyInput.value.trim();
  try {
    const res = await api('POST', path, { body, headers: key ? { 'X-Creation-Key': key } : undefined });
    if (key) { try { localStorage.setItem(CREATION_KEY, key); } catch { /* storage disabled */ } }
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

function num(form, name) {
  const v = form.elements[name]?.value?.trim();
  return v === '' || v === undefined ? undefined : Number(v);
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

function readTC(form) {
  const v = form.elements.tc.value;
  if (v !== 'custom') return v;
  return {
    periods: [{ moves: num(form, 'tcMoves') || 0, ms: Math.round((num(form, 'tcMinutes') || 1) * 60000) }],
    incrementMs: Math.round((num(form, 'tcIncrement') || 0) * 1000),
  };
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
  const tbList = h('datalist', { id: 'tiebreak-list' }, TIEBREAKS.map((c) => h('option', { value: c }, tiebreakName(c))));
  const advanced = h('details', { class: 'advanced' }, h('summary', {}, t('home.advanced')),
    field(t('home.scoring'), select(opts('home.sc', ['2-1-0', '3-1-0', '3-0-redblack']), { name: 'scoring' })),
    field(t('home.tiebreaks'), h('input', { type: 'text', name: 'tiebreaks', list: 'tiebreak-list', placeholder: 'opponentScore, wins, …', autocomplete: 'off' })),
    tbList,
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
    act(btn, status, async () => {
      const body = readEvent(form);
      const res = await create(form, '/tournaments', body);
      saveToken(`event:${res.id}`, res.token);
      rememberEvent(res.id, res.tournament.name);
      const link = `${location.origin}/t/${res.id}#token=${res.token}`;
      clear(out, h('div', { class: 'card created', role: 'status' },
        h('h2', {}, t('home.created')),
        h('p', {}, t('home.keepLink')),
        linkBox(t('home.keepLink'), link),
        h('p', {}, h('a', { class: 'button primary', href: `/t/${res.id}` }, t('home.openConsole')))));
      out.scrollIntoView({ block: 'nearest' });
      out.querySelector('a.button')?.focus();
    });
  });
  return form;
}

function readEvent(form) {
  const f = form.elements;
  const body = { name: f.name.value.trim(), system: f.system.value, timeControl: readTC(form) };
  const rounds = num(form, 'rounds');
  if (rounds !== undefined) body.rounds = rounds;
  if (f.teams.checked) {
    body.teams = true;
    body.boards = num(form, 'boards');
    const subs = num(form, 'substitutes');
    if (subs) body.substitutes = subs;
    if (f.teamFormat.value) body.teamFormat = f.teamFormat.value;
    if (f.keepEntryOrder.checked) body.keepEntryOrder = true;
  }
  if (f.scoring.value !== '2-1-0') body.scoring = f.scoring.value;
  const tb = f.tiebreaks.value.split(/[,，\s]+/).filter(Boolean);
  if (tb.length) body.tiebreaks = tb;
  if (f.firstRound.value !== 'positional') body.firstRound = f.firstRound.value;
  if (f.avoidSameClub.checked) body.avoidSameClub = true;
  if (num(form, 'gamesPerMatch') !== undefined) body.gamesPerMatch = num(form, 'gamesPerMatch');
  if (f.playoff.checked) body.playoff = true;
  if (f.startsAt.value) body.startsAt = new Date(f.startsAt.value).toISOString();
  const sys = body.system;
  if ((sys === 'roundRobin' || sys === 'doubleRoundRobin') && f.numbering.value) body.numbering = f.numbering.value;
  if (sys === 'swissElimination') {
    const el = {};
    if (num(form, 'elFromRound') !== undefined) el.fromRound = num(form, 'elFromRound');
    if (num(form, 'elPerRound') !== undefined) el.perRound = num(form, 'elPerRound');
    if (num(form, 'elKeep') !== undefined) el.keep = num(form, 'elKeep');
    if (Object.keys(el).length) body.elimination = el;
  }
  if (sys === 'groups') body.groups = { count: num(form, 'grCount') || 2, finals: f.grFinals.value };
  if (['knockout', 'doubleElimination', 'swissKnockout'].includes(sys) || (sys === 'groups' && f.grFinals.value === 'cross')) {
    const ko = {};
    if (sys === 'knockout' && f.koThirdPlace.checked) ko.thirdPlace = true;
    if (sys === 'doubleElimination' && !f.koReset.checked) ko.reset = false;
    if (sys === 'swissKnockout' && f.koFinalists.value) ko.finalists = Number(f.koFinalists.value);
    if (f.koTieBreak.value) ko.tieBreak = f.koTieBreak.value;
    if (Object.keys(ko).length) body.knockout = ko;
  }
  if (sys.startsWith('swiss') && !f.teams.checked) {
    const late = {};
    if (num(form, 'lateUntil')) late.untilRound = num(form, 'lateUntil');
    if (f.lateMissed.value !== 'zero') late.missedRounds = f.lateMissed.value;
    if (Object.keys(late).length) body.lateEntries = late;
  }
  const rules = {};
  if (f.rRepetition.value) rules.repetition = f.rRepetition.value;
  if (f.rIllegal.value) rules.illegalMoves = f.rIllegal.value;
  if (num(form, 'rNoCapture') !== undefined) rules.noCaptureMoves = num(form, 'rNoCapture');
  if (num(form, 'rDrawLimit') !== undefined) rules.drawOfferLimit = num(form, 'rDrawLimit');
  if (num(form, 'rLateMin') !== undefined) rules.lateForfeitMs = Math.round(num(form, 'rLateMin') * 60000);
  if (f.rDead.checked) rules.deadPositionDraw = true;
  if (f.rArrivals.checked) rules.recordArrivals = true;
  if (Object.keys(rules).length) body.rules = rules;
  return body;
}

/** eventIdFrom reads an event id from an id or any link to /t/{tid}. */
export function eventIdFrom(text) {
  const s = String(text || '').trim();
  const m = /\/t\/([a-z0-9]+)/i.exec(s);
  if (m) return { id: m[1], token: (/#token=([^&\s]+)/.exec(s) || [])[1] || '' };
  if (/^t[a-z0-9]{6,}$/i.test(s)) return { id: s, token: '' };
  return null;
}

function openEventForm() {
  const input = h('input', { type: 'text', name: 'event', autocomplete: 'off', placeholder: 'tabc123… / https://…/t/…' });
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const form = h('form', { class: 'card', id: 'open-event' },
    h('h2', {}, t('home.open')),
    h('div', { class: 'row' }, field(t('home.openLabel'), input), h('button', { type: 'submit' }, t('home.openBtn'))),
    status);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
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
  const form = h('form', { class: 'card', id: 'create-game' },
    h('h2', {}, t('home.game')),
    h('p', { class: 'muted' }, t('home.gameLead')),
    tcControls('game'), keyField(), btn, status, out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    act(btn, status, async () => {
      const res = await create(form, '/games', { timeControl: readTC(form) });
      const base = `${location.origin}/g/${res.id}`;
      clear(out,
        linkBox(t('home.redLink'), `${base}#token=${res.redToken}`),
        linkBox(t('home.blackLink'), `${base}#token=${res.blackToken}`),
        linkBox(t('home.watch'), base),
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
  const form = h('form', { class: 'card', id: 'import-games' },
    h('h2', {}, t('home.import')),
    h('p', { class: 'muted' }, t('home.importLead')),
    field(t('home.importText'), text), field(t('home.importFile'), file), keyField(), btn, status, out);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    act(btn, status, async () => {
      const chosen = file.files && file.files[0];
      const body = chosen ? await chosen.arrayBuffer() : text.value;
      if (!chosen && !text.value.trim()) throw new ApiError(400, 'empty', t('home.importEmpty'));
      const key = form.querySelector('.creation-key input').value.trim();
      const headers = { 'Content-Type': 'application/x-chess-pgn', Accept: 'application/json', 'Idempotency-Key': newKey() };
      if (key) headers['X-Creation-Key'] = key;
      const res = await fetch('/games/import', { method: 'POST', headers, body, cache: 'no-store' });
      const data = await res.json().catch(() => null);
      if (!data || !Array.isArray(data.games)) {
        const err = (data && data.error) || {};
        if (err.code === 'creation_key_required' || err.code === 'bad_creation_key') {
          for (const b of document.querySelectorAll('.creation-key')) b.hidden = false;
        }
        throw new ApiError(res.status, err.code, err.message || `${res.status}`, err.rule, data);
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
