/**
 * A call that may become a background job (issue 14), followed as the screen follows it: the call waits
 * up to 5 s for its job and answers as before, or answers 202 with the job, which the screen then
 * polls at `GET /api/jobs/:id`. Here the job is also looked for in the person's jobs list
 * (`GET /api/jobs`, the bell's jobs view) while the call still waits, so its progress is seen from
 * the start, as the jobs view shows it.
 */
import { performance } from 'node:perf_hooks';
import type { Job, JobKind, JobsList } from '@guardian/contract';
import { ApiError, type Api } from './api';

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** One answer about the job: when it arrived (performance.now()) and the progress it showed. */
export interface JobPoll {
  at: number;
  done: number;
  total: number | null;
  state: string;
  /** How long the poll took to answer (ms). */
  ms: number;
}

export interface FollowedCall {
  /** The call's own status: 200 when the job ended within its wait, 202 when it answered the job. */
  status: number;
  /** When the call was sent and when its answer arrived (performance.now()). */
  sentAt: number;
  answeredAt: number;
  /** When the caller knew the work was over: the answer (200), or the poll that saw the job end (202). */
  endedAt: number;
  /** The same instants by the wall clock (Date.now()), to set beside the job's own timestamps. */
  sentAtWall: number;
  endedAtWall: number;
  /** The job as it ended (read once more after the end); null if it could not be found. */
  job: Job | null;
  polls: JobPoll[];
}

export interface FollowOptions {
  kind: JobKind;
  /** The job's `list_id` (a list's sync): tells it apart from other jobs of the same kind. */
  listId?: string;
  /** Poll every this many ms while the job runs; null: no polls (the job is read once at the end). */
  pollMs: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function jobsList(api: Api): Promise<Job[]> {
  return (await api.read<JobsList>('/api/jobs')).jobs;
}

/** Waits until none of the person's jobs is queued or running (at most `timeoutMs`). */
export async function jobsEnded(api: Api, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const going = (await jobsList(api)).filter((job) => job.state === 'queued' || job.state === 'running');
    if (going.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `${going.length} jobs still under way after ${timeoutMs} ms: ${going.map((job) => job.kind).join(', ')}`,
      );
    await sleep(100);
  }
}

async function jobById(api: Api, id: string): Promise<Job> {
  return api.read<Job>(`/api/jobs/${encodeURIComponent(id)}`);
}

/**
 * Sends `method path` and follows its job to the end. A job that failed or was cancelled, or a call
 * answered with an error, is an ApiError (as `Api.request` throws).
 */
export async function followJobCall(
  api: Api,
  method: string,
  path: string,
  options: FollowOptions,
): Promise<FollowedCall> {
  const known = new Set((await jobsList(api)).map((job) => job.id));
  const isOurs = (job: Job) =>
    !known.has(job.id) &&
    job.kind === options.kind &&
    (options.listId === undefined || job.list_id === options.listId);
  const polls: JobPoll[] = [];
  const sentAtWall = Date.now();
  const sentAt = performance.now();
  let answer: { status: number; text: string; at: number; wall: number } | undefined;
  let failure: unknown;
  const call = api.raw(method, path).then(
    (raw) => void (answer = { status: raw.status, text: raw.text, at: performance.now(), wall: Date.now() }),
    (err: unknown) => void (failure = err),
  );
  let jobId: string | undefined;
  let job: Job | null = null;
  let endedAt = 0;
  let endedAtWall = 0;
  for (;;) {
    if (failure) throw failure;
    if (answer && answer.status >= 300 && answer.status !== 202)
      throw new ApiError(answer.status, method, path, answer.text);
    if (answer && answer.status !== 202) {
      endedAt = answer.at;
      endedAtWall = answer.wall;
      break;
    }
    if (answer && jobId === undefined) jobId = (JSON.parse(answer.text) as Job).id;
    if (job && ENDED.has(job.state)) break;
    if (options.pollMs === null) {
      // No polls while the call waits; after a 202, the end is still looked for (every 50 ms).
      await (answer ? sleep(50) : call);
      if (!answer) continue;
    } else {
      await (answer ? sleep(options.pollMs) : Promise.race([sleep(options.pollMs), call]));
      // The call answered meanwhile: see what it said before asking about the job.
      if (answer && answer.status !== 202) continue;
    }
    const pollStart = performance.now();
    const seen =
      jobId === undefined ? ((await jobsList(api)).find(isOurs) ?? null) : await jobById(api, jobId);
    const at = performance.now();
    if (!seen) continue;
    jobId = seen.id;
    job = seen;
    if (options.pollMs !== null)
      polls.push({ at, done: seen.done, total: seen.total, state: seen.state, ms: at - pollStart });
    if (ENDED.has(seen.state)) {
      endedAt = at;
      endedAtWall = Date.now();
    }
  }
  await call;
  // The job as it ended: its timestamps (a call answered 200 says nothing of its job).
  const final =
    jobId === undefined ? ((await jobsList(api)).find(isOurs) ?? null) : await jobById(api, jobId);
  if (final && (final.state === 'failed' || final.state === 'cancelled'))
    throw new ApiError(answer?.status ?? 0, method, path, `job ${final.state}: ${final.error}`);
  return {
    status: answer!.status,
    sentAt,
    answeredAt: answer!.at,
    endedAt,
    sentAtWall,
    endedAtWall,
    job: final,
    polls,
  };
}
