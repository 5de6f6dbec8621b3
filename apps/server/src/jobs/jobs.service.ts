import { ERROR_STATUS, type ErrorCode, type Job, type JobKind, type JobsList } from '@guardian/contract';
import { AppError } from '../app-error';
import type { JobQueue, JoinWaiting, NewJobOf } from './job-queue';
import type { GuardianJobKinds } from './job-kinds';
import type { JobRecord } from './jobs.repository';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

export function toJobDto(job: JobRecord): Job {
  return {
    id: job.id,
    kind: job.kind as JobKind,
    started_by: job.userEmail,
    account_name: job.accountName,
    target: job.target,
    list_id: typeof job.data.listId === 'string' ? job.data.listId : null,
    state: job.state,
    done: job.progressDone,
    total: job.progressTotal,
    attempts: job.attempts,
    error: job.error,
    result: job.state === 'succeeded' ? (job.result ?? null) : null,
    cancel_requested: job.cancelRequested && (job.state === 'queued' || job.state === 'running'),
    created_at: new Date(job.createdAt).toISOString(),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
  };
}

const jobNotFound = () => new AppError('NOT_FOUND', 'Job not found.');

/** What a call that started a job gets: the job's result when it ended within the wait, else the job. */
export type JobOutcome<T> = { result: T } | { job: Job };

export interface Person {
  id: number;
  level: number;
}

/** What people do with jobs: see theirs (administrators everyone's), cancel theirs, start and wait. */
export class JobsService {
  constructor(
    readonly queue: JobQueue<GuardianJobKinds>,
    /** How long a call that starts a job waits for it before it answers 202 with the job. */
    readonly waitMs: number,
    private readonly listMax = 100,
  ) {}

  async list(person: Person, scope: 'mine' | 'all' = 'mine'): Promise<JobsList> {
    if (scope === 'all' && person.level !== 0)
      throw new AppError('FORBIDDEN', "Only administrators can see everyone's jobs.");
    const [jobs, unseen] = await Promise.all([
      this.queue.jobs.list(scope === 'all' ? undefined : person.id, this.listMax),
      this.queue.jobs.unseen(person.id),
    ]);
    return { jobs: jobs.map(toJobDto), unseen };
  }

  async get(person: Person, id: string): Promise<Job> {
    const job = await this.queue.jobs.find(id);
    if (!job || (job.userId !== person.id && person.level !== 0)) throw jobNotFound();
    return toJobDto(job);
  }

  /** Only the person who started it cancels it (another's is "not found"). */
  async cancel(person: Person, id: string): Promise<Job> {
    const job = await this.queue.jobs.find(id);
    if (!job || job.userId !== person.id) throw jobNotFound();
    await this.queue.cancel(id);
    return toJobDto((await this.queue.jobs.find(id))!);
  }

  seen(userId: number): Promise<void> {
    return this.queue.jobs.markSeen(userId);
  }

  /**
   * Starts a job and waits up to `waitMs` for it: its result when it ended well, its error (the code
   * and words the API would have answered) when it failed, else the job itself, still going, for the
   * caller to answer 202 with. Run once: the person who waits is answered a failure, it is not
   * tried again behind their back (Cloudflare calls are retried within the run already); a restart
   * still carries it on. With `join`, the same job already waiting (or under way) is waited for instead.
   */
  async startAndWait<T>(job: NewJobOf<GuardianJobKinds>, join?: JoinWaiting): Promise<JobOutcome<T>> {
    const queued = await this.queue.enqueue({ ...job, attempts: 1 }, join);
    const now = await this.queue.waitFor(queued.id, this.waitMs, queued);
    if (!now) throw jobNotFound();
    // The kind's handler answered it, in the type its caller names.
    if (now.state === 'succeeded') return { result: now.result as T };
    if (now.state === 'failed') {
      const { code, retryAfterSeconds } =
        (now.result as { code?: string; retryAfterSeconds?: number } | null) ?? {};
      throw new AppError(
        code && code in ERROR_STATUS ? (code as ErrorCode) : 'INTERNAL',
        now.error ?? 'The operation failed.',
        typeof retryAfterSeconds === 'number' ? { retryAfterSeconds } : {},
      );
    }
    return { job: toJobDto(now) };
  }
}
