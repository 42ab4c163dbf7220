// pages/home/state.js — what the home page sends, apart from its forms
// (page.js): a form's values read once (formValues), and the pure functions
// that turn them into the API's request bodies — an event with every
// option its system takes, a time control — and read an event reference.
// Unit-tested in node (web/unit/pages.test.mjs).

/** formValues reads a form's named controls: a checkbox as true/false, anything else as its value. */
export function formValues(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    out[el.name] = el.type === 'checkbox' ? el.checked : el.value;
  }
  return out;
}

function num(f, name) {
  const v = String(f[name] ?? '').trim();
  return v === '' ? undefined : Number(v);
}

/** tcBody is the time control of the values: a preset's name, or the custom period. */
export function tcBody(f) {
  const v = f.tc;
  if (v !== 'custom') return v;
  return {
    periods: [{ moves: num(f, 'tcMoves') || 0, ms: Math.round((num(f, 'tcMinutes') || 1) * 60000) }],
    incrementMs: Math.round((num(f, 'tcIncrement') || 0) * 1000),
  };
}

/**
 * eventBody is POST /tournaments's body from the create form's values: the
 * defaults left out, each system's own options only for that system.
 */
export function eventBody(f) {
  const body = { name: f.name.trim(), system: f.system, timeControl: tcBody(f) };
  const rounds = num(f, 'rounds');
  if (rounds !== undefined) body.rounds = rounds;
  if (f.teams) {
    body.teams = true;
    body.boards = num(f, 'boards');
    const subs = num(f, 'substitutes');
    if (subs) body.substitutes = subs;
    if (f.teamFormat) body.teamFormat = f.teamFormat;
    if (f.keepEntryOrder) body.keepEntryOrder = true;
  }
  if (f.scoring !== '2-1-0') body.scoring = f.scoring;
  const tb = f.tiebreaks.split(/[,，\s]+/).filter(Boolean);
  if (tb.length) body.tiebreaks = tb;
  if (f.firstRound !== 'positional') body.firstRound = f.firstRound;
  if (f.avoidSameClub) body.avoidSameClub = true;
  if (num(f, 'gamesPerMatch') !== undefined) body.gamesPerMatch = num(f, 'gamesPerMatch');
  if (f.playoff) body.playoff = true;
  if (f.startsAt) body.startsAt = new Date(f.startsAt).toISOString();
  const sys = body.system;
  if ((sys === 'roundRobin' || sys === 'doubleRoundRobin') && f.numbering) body.numbering = f.numbering;
  if (sys === 'swissElimination') {
    const el = {};
    if (num(f, 'elFromRound') !== undefined) el.fromRound = num(f, 'elFromRound');
    if (num(f, 'elPerRound') !== undefined) el.perRound = num(f, 'elPerRound');
    if (num(f, 'elKeep') !== undefined) el.keep = num(f, 'elKeep');
    if (Object.keys(el).length) body.elimination = el;
  }
  if (sys === 'groups') body.groups = { count: num(f, 'grCount') || 2, finals: f.grFinals };
  if (['knockout', 'doubleElimination', 'swissKnockout'].includes(sys) || (sys === 'groups' && f.grFinals === 'cross')) {
    const ko = {};
    if (sys === 'knockout' && f.koThirdPlace) ko.thirdPlace = true;
    if (sys === 'doubleElimination' && !f.koReset) ko.reset = false;
    if (sys === 'swissKnockout' && f.koFinalists) ko.finalists = Number(f.koFinalists);
    if (f.koTieBreak) ko.tieBreak = f.koTieBreak;
    if (Object.keys(ko).length) body.knockout = ko;
  }
  if (sys.startsWith('swiss') && !f.teams) {
    const late = {};
    if (num(f, 'lateUntil')) late.untilRound = num(f, 'lateUntil');
    if (f.lateMissed !== 'zero') late.missedRounds = f.lateMissed;
    if (Object.keys(late).length) body.lateEntries = late;
  }
  const rules = {};
  if (f.rRepetition) rules.repetition = f.rRepetition;
  if (f.rIllegal) rules.illegalMoves = f.rIllegal;
  if (num(f, 'rNoCapture') !== undefined) rules.noCaptureMoves = num(f, 'rNoCapture');
  if (num(f, 'rDrawLimit') !== undefined) rules.drawOfferLimit = num(f, 'rDrawLimit');
  if (num(f, 'rLateMin') !== undefined) rules.lateForfeitMs = Math.round(num(f, 'rLateMin') * 60000);
  if (f.rDead) rules.deadPositionDraw = true;
  if (f.rArrivals) rules.recordArrivals = true;
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
