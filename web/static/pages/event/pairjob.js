// pages/event/pairjob.js — a big event's round paired as a job: POST
// /tournaments/{tid}/rounds answers 202 with the job, whose state the
// console polls at its status path (GET …/rounds/{n}/job) until the round
// is paired, saying each state in the reader's language; a job that failed
// is the pairing's refusal, said as any refusal is.

import { ApiError } from '../../core/http.js';
import { t } from '../../core/i18n.js';

/** POLL_MS is the pause between two polls of a job's state. */
export const POLL_MS = 1000;

/** isPairJob says whether POST …/rounds answered with a job (202) rather than the round. */
export const isPairJob = (r) => !!(r && r.job && r.status && r.state);

/** jobText is the progress line of a job in the reader's language. */
export function jobText(job) {
  return t(`adm.pairJob.${job.state}`, { n: job.round });
}

/**
 * awaitPairJob polls job (the 202's body) through get until its state is
 * done, calling onState with each state read, and returns the round's
 * number; a failed job throws its refusal as an ApiError (status 422), so
 * the caller says it as it would the synchronous pairing's.
 */
export async function awaitPairJob(job, { get, onState = () => {}, sleep = (ms) => new Promise((r) => setTimeout(r, ms)), pollMs = POLL_MS }) {
  for (let cur = job; ; cur = await get(cur.status)) {
    onState(cur);
    if (cur.state === 'done') return cur.round;
    if (cur.state === 'failed') {
      const e = cur.error || {};
      throw new ApiError(422, e.code, e.message, e.rule, { error: e });
    }
    await sleep(pollMs);
  }
}
