import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { z } from 'zod';
import { AppError } from '../app-error';
import type { Db } from '../db';
import { JobsRepository, type JobRecord } from './jobs.repository';
import { jobErrorCode, jobErrorInWords, jobErrorRetryAfter, isRetryable } from './job-errors';

export interface JobContext<P = Record<string, unknown>> {
  /** The job, its details (`data`) as its kind's schema read them. */
  job: Omit<JobRecord, 'data'> & { data: P };
  /** Aborted when the person cancels, or the server stops: stop at the next step and throw. */
  signal: AbortSignal;
  /** How far it got (items or lists done of total); written at most a few times a second. */
  progress(done: number, total?: number | null): void;
  /**
   * Writes the last report now, if the throttle held it back, and waits for it: before a long step
   * that reports nothing (a sync building its indexes), so the screen shows the count meanwhile.
   */
  flushProgress(): Promise<void>;
}

/** Does a job's work; its answer is the job's result (JSON). */
export type JobHandler<P = Record<string, unknown>> = (context: JobContext<P>) => Promise<unknown>;

/** How often a run that failed in a way that may pass (Cloudflare 429/5xx, the database away) is tried. */
export interface RetryPolicy {
  /** Runs in all (1: never tried again). */
  attempts: number;
  /** The first retry's delay; each next one doubles. */
  delaySeconds: number;
}

/** A kind of job as the queue knows it, before its handler is given (`JobQueue.handle`). */
export interface JobKindDeclaration<S extends z.ZodType = z.ZodType> {
  /** What the job's stored details must be: checked when a run takes it (a job that does not fit fails). */
  payload: S;
  /**
   * Whether its jobs take their Cloudflare account's turn: one such job per account runs at once,
   * in all processes (the others of the account wait queued); a job without an account takes none.
   */
  accountTurn: boolean;
  retry: RetryPolicy;
  /**
   * A routine kind run on an interval (a CrowdSec pull a minute): its jobs stay out of the people's
   * jobs view and the bell's count of jobs ended unless one failed, which shows as any failure.
   */
  quiet?: boolean;
}

export type JobKindTable = Record<string, JobKindDeclaration>;

/** The handler of every kind of a table, each given its kind's details. */
export type JobHandlers<K extends JobKindTable> = {
  [N in keyof K]: JobHandler<z.output<K[N]['payload']>>;
};

/** A job to queue: a kind of the table and the details its schema takes. */
export type NewJobOf<K extends JobKindTable, N extends keyof K & string = keyof K & string> = {
  [M in N]: {
    kind: M;
    userId: number;
    accountId?: number | null;
    target: string;
    data: z.input<K[M]['payload']>;
    /** Runs at most this many times (a person waiting for it: 1); else the kind's retry policy. */
    attempts?: number;
  };
}[N];

/** Which of the same job already there a new one joins (see `JobQueue.enqueue`). */
export type JoinWaiting = 'queued' | 'queued-or-running';

export interface JobQueueOptions {
  /** Jobs one process runs at once. */
  concurrency: number;
  /** How often an idle worker asks the queue for a job (a job sent from this process wakes it at once). */
  pollMs: number;
  /** How often a running job's row is marked alive (and its cancel looked for). */
  heartbeatMs: number;
  /** A running job whose worker was silent this long is given back to the queue (its process died). */
  staleMs: number;
  /** Written at most this often while a job reports progress. */
  progressEveryMs: number;
  logger?: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /** Told of every job that ended (succeeded, failed or cancelled) in this process: the alerts of failed jobs. */
  onEnded?: (job: JobRecord) => Promise<void>;
}

/** Whether a database error is a unique index refusing a row (SQLSTATE 23505). */
const isUniqueViolation = (err: unknown) => (err as { code?: unknown }).code === '23505';

/** How many times rarer a worker with a run in flight asks the queue for another job. */
const BUSY_POLL_FACTOR = 5;
/**
 * Runs a job may be stopped without failing (its server stopping, or going silent) beyond the runs
 * its retry policy gives failures: past them it fails, so a job that brings its server down each
 * time does not go round for ever.
 */
const RESTART_ROOM = 5;

export const JOB_QUEUE_DEFAULTS: JobQueueOptions = {
  concurrency: 2,
  pollMs: 1_000,
  heartbeatMs: 2_000,
  staleMs: 30_000,
  progressEveryMs: 500,
};

/** Thrown into a run whose job was cancelled. */
export class JobCancelled extends Error {
  constructor() {
    super('Cancelled.');
  }
}

/** Thrown into a run whose job the sweep gave to another worker (this one was thought dead). */
class JobLost extends Error {}

/**
 * A job whose stored details do not fit its kind's schema (written by another version, or by hand):
 * failed, not run, and not tried again; its error names each detail the schema refused.
 */
export class JobDetailsRefused extends AppError {
  constructor(kind: string, issues: z.ZodError) {
    super(
      'INTERNAL',
      `This job's details are not what a "${kind}" job takes, so it was not run: ${issues.issues
        .map((issue) => `${issue.path.join('.') || 'details'}: ${issue.message}`)
        .join('; ')}.`,
    );
  }
}

/** Thrown into a run stopped because the server stops (the job goes back to the queue). */
export class WorkerStopping extends Error {
  constructor() {
    super('The server stopped while it was working on this; it will carry on.');
  }
}

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Durable jobs on the app's own database, in its `jobs` table alone: a job is taken by one worker of
 * one process (`FOR UPDATE SKIP LOCKED`), a failed run is tried again after a growing delay
 * (`run_after`), a running job's worker marks it alive and a silent one's job is given back; the
 * same row is what people see. Every server process on the database runs one; see README.md.
 */
export class JobQueue<K extends JobKindTable = JobKindTable> {
  readonly jobs: JobsRepository;
  private readonly options: JobQueueOptions;
  private handlers: JobHandlers<K> | undefined;
  private readonly running = new Map<string, Running>();
  private readonly ended = new EventEmitter();
  private active = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];
  private wantStarted = false;
  /** A job was sent from this process while the loop was not asleep: look again before sleeping. */
  private wakeRequested = false;
  private starting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    /** The kinds this process runs (and sends): each one's details schema, account turn and retry policy. */
    private readonly kinds: K,
    options: Partial<JobQueueOptions> = {},
  ) {
    this.options = { ...JOB_QUEUE_DEFAULTS, ...options };
    this.jobs = new JobsRepository(
      db,
      Object.keys(kinds).filter((kind) => kinds[kind]?.quiet),
    );
    this.ended.setMaxListeners(0);
  }

  /**
   * Gives every kind its handler, in one call (the composition root's): the services that do the
   * work are built after the queue they send their jobs to.
   */
  handle(handlers: JobHandlers<K>): void {
    this.handlers = handlers;
  }

  get started(): boolean {
    return this.active;
  }

  /**
   * Starts taking jobs: of this process's kinds only, so a process of an older version never takes
   * (and fails) a kind it does not know. The first take is the database's first word: a database
   * away makes the start fail (`startInBackground` tries again).
   */
  async start(): Promise<void> {
    if (this.active) return;
    if (!this.handlers)
      throw new Error('The job queue was started before its kinds were given their handlers.');
    await this.db.query('SELECT 1');
    this.active = true;
    this.stopping = false;
    this.loop = this.takeJobs();
    // A tick whose previous run has not ended is skipped: on a busy database (PGlite answers one
    // statement at a time) heartbeats would otherwise pile up behind a sync's long statements.
    const every = (ms: number, work: () => Promise<void>) => {
      let busy = false;
      const tick = () => {
        if (busy) return;
        busy = true;
        void work()
          .catch((err: unknown) => this.report(err))
          .finally(() => (busy = false));
      };
      const timer = setInterval(tick, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.heartbeatMs, () => this.heartbeat());
    every(Math.max(1_000, this.options.staleMs / 3), () => this.sweep());
  }

  /**
   * Starts as soon as the database lets it: the app serves (and answers 503) while the database is
   * away, and the queue comes up when it is back. `stop()` ends the attempts.
   */
  startInBackground(retryMs = 2_000): void {
    this.wantStarted = true;
    const attempt = () => {
      if (!this.wantStarted || this.active) return;
      this.starting = this.start()
        .catch((err: unknown) => {
          this.options.logger?.warn({ err }, 'The job queue could not start yet; it will try again');
          const timer = setTimeout(attempt, retryMs);
          timer.unref();
          this.retryTimer = timer;
        })
        .finally(() => (this.starting = undefined));
    };
    attempt();
  }

  /**
   * Stops taking jobs, stops the runs in flight (their jobs go back to the queue, for this or another
   * process to finish) and waits for them; the database stays open.
   */
  async stop(): Promise<void> {
    this.wantStarted = false;
    clearTimeout(this.retryTimer);
    await this.starting;
    if (!this.active) return;
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.wake?.();
    await this.loop;
    for (const run of this.running.values()) run.controller.abort(new WorkerStopping());
    await Promise.all([...this.running.values()].map((run) => run.done));
    this.active = false;
  }

  /**
   * Queues a job (one statement, which answers its row) and wakes this process's worker, which
   * takes it at once. With `join`, the same job (kind, person, account and details) already waiting
   * (`queued`), or also one under way (`queued-or-running`), is answered instead of a second one:
   * two syncs of a list asked for at once read it from Cloudflare once. Decided under a lock of
   * that job's own, so two processes asking at once queue one.
   */
  async enqueue(job: NewJobOf<K>, join?: JoinWaiting): Promise<JobRecord> {
    // Right after the app is ready the queue may still be starting.
    if (!this.active) await this.starting;
    if (!this.active)
      throw new AppError(
        'UNAVAILABLE',
        'Background operations cannot start right now. Please try again in a moment.',
      );
    if (!Object.hasOwn(this.kinds, job.kind)) throw new Error(`No job kind "${job.kind}" is defined.`);
    const { accountTurn, retry } = this.kinds[job.kind]!;
    const row = {
      id: randomUUID(),
      kind: job.kind,
      userId: job.userId,
      accountId: job.accountId ?? null,
      target: job.target,
      data: job.data as Record<string, unknown>,
      maxAttempts: job.attempts ?? retry.attempts,
      accountTurn,
    };
    const queued = join
      ? await this.db.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
            `job:${row.kind}:${row.userId}:${row.accountId}:${JSON.stringify(row.data)}`,
          ]);
          const jobs = new JobsRepository(tx);
          return (
            (await jobs.findSame(row, join === 'queued' ? ['queued'] : ['queued', 'running'])) ??
            jobs.insert(row)
          );
        })
      : await this.jobs.insert(row);
    this.wakeRequested = true;
    this.wake?.();
    return queued;
  }

  /**
   * The job once it has ended, or as it is after `waitMs`. `seen` is the job as the caller has it (just
   * enqueued): the wait then starts without reading it again.
   */
  async waitFor(id: string, waitMs: number, seen?: JobRecord): Promise<JobRecord | undefined> {
    const deadline = Date.now() + waitMs;
    // A run in this process says when it ends (with the ended row); one in another process is seen by
    // polling. Listened to for the whole wait, so an end told while the row is being read is not missed.
    let ended: JobRecord | undefined;
    let told = false;
    let wakeUp: (() => void) | undefined;
    const onEnd = (row?: JobRecord) => {
      told = true;
      ended ??= row;
      wakeUp?.();
    };
    this.ended.on(id, onEnd);
    try {
      let pause = 25;
      let job = seen;
      // Whether the job must be read (again) before it is judged or answered.
      let stale = seen === undefined;
      for (;;) {
        if (stale || told) {
          told = false;
          stale = false;
          job = await this.jobs.find(id);
        }
        if (ended) return ended;
        if (!job || ENDED.has(job.state)) return job;
        const left = deadline - Date.now();
        if (left <= 0) return job;
        if (!told) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(pause, left));
            wakeUp = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeUp = undefined;
        }
        if (ended) return ended;
        // A run in this process tells of its end (with the row, or of a change to read): its row is
        // not polled, only read once more when the wait is over. One elsewhere is polled.
        stale = !this.running.has(id) || Date.now() >= deadline;
        pause = Math.min(pause * 2, 250);
      }
    } finally {
      this.ended.off(id, onEnd);
    }
  }

  /** Cancels a queued job, or asks a running one to stop (its worker sees it at its next heartbeat). */
  async cancel(id: string): Promise<void> {
    await this.jobs.requestCancel(id);
    this.running.get(id)?.controller.abort(new JobCancelled());
  }

  private async takeJobs(): Promise<void> {
    // When the queue was last found empty: the next look is due a poll later. A job taken, or a
    // slot freed, makes it due at once (more may wait); a job sent from this process wakes it.
    let emptyAt = -Infinity;
    // A worker with a run in flight asks less often: on PGlite's one connection each ask waits in
    // line with the run's own statements. Jobs sent from this process still wake it at once.
    const pollMs = () =>
      this.running.size > 0 ? this.options.pollMs * BUSY_POLL_FACTOR : this.options.pollMs;
    const kinds = Object.keys(this.kinds);
    while (!this.stopping) {
      if (this.running.size >= this.options.concurrency) {
        await Promise.race([...this.running.values()].map((run) => run.done));
        emptyAt = -Infinity;
        continue;
      }
      const sent = this.wakeRequested;
      this.wakeRequested = false;
      let job: JobRecord | undefined;
      if (sent || Date.now() - emptyAt >= pollMs()) {
        try {
          job = await this.jobs.take(kinds);
          emptyAt = job ? -Infinity : Date.now();
        } catch (err) {
          // Two jobs of one account's turn taken at once by two processes: the index refused the
          // second, which stays queued until the first ends.
          if (!isUniqueViolation(err)) this.report(err);
          emptyAt = Date.now();
        }
      }
      if (job) {
        this.begin(job);
        continue;
      }
      if (this.wakeRequested || this.stopping) continue;
      const due = emptyAt + pollMs() - Date.now();
      if (due <= 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, due);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private begin(job: JobRecord): void {
    const { id } = job;
    const controller = new AbortController();
    const done = this.run(job, controller.signal)
      .catch((err: unknown) => this.report(err))
      .finally(() => {
        this.running.delete(id);
        this.ended.emit(id);
      });
    this.running.set(id, { controller, done });
  }

  /** Runs a job its take claimed (`attempts` counts this run: every write of the run names it). */
  private async run(job: JobRecord, signal: AbortSignal): Promise<void> {
    const { id } = job;
    const attempt = job.attempts;
    const declared = Object.hasOwn(this.kinds, job.kind) ? this.kinds[job.kind] : undefined;
    // Its details are read by its own kind's schema below: the handler takes what that answers.
    const handler = declared && (this.handlers?.[job.kind] as JobHandler<unknown> | undefined);
    // Counted from the claim, which wrote the row: a run shorter than progressEveryMs writes its
    // progress only with its end, and a longer one its first report a throttle's span in.
    let lastWrite = Date.now();
    let pendingWrite: Promise<void> = Promise.resolve();
    // The last report, written at the end if the throttle skipped it (a job ends at its full count).
    let unwritten: { done: number; total: number | null } | null = null;
    const write = (done: number, total: number | null) => {
      unwritten = null;
      pendingWrite = pendingWrite
        .then(() => this.jobs.progress(id, attempt, done, total))
        .catch(() => undefined);
    };
    // A report the throttle skipped is written when the throttle allows, not only at the end: a job
    // that reports its last items and then works on for a while (a sync building its indexes) shows them.
    let trailing: NodeJS.Timeout | undefined;
    const writeUnwritten = () => {
      trailing = undefined;
      const last = unwritten as { done: number; total: number | null } | null;
      if (!last) return;
      lastWrite = Date.now();
      write(last.done, last.total);
    };
    const progress = (done: number, total: number | null = null) => {
      const now = Date.now();
      const wait = this.options.progressEveryMs - (now - lastWrite);
      if (wait > 0) {
        unwritten = { done, total };
        trailing ??= setTimeout(writeUnwritten, wait);
        return;
      }
      lastWrite = now;
      write(done, total);
    };
    const flushProgress = () => {
      clearTimeout(trailing);
      writeUnwritten();
      return pendingWrite;
    };
    try {
      if (!declared || !handler) throw new Error(`This server does not know jobs of the kind "${job.kind}".`);
      const details = declared.payload.safeParse(job.data);
      if (!details.success) throw new JobDetailsRefused(job.kind, details.error);
      signal.throwIfAborted();
      const result = await handler({ job: { ...job, data: details.data }, signal, progress, flushProgress });
      // The last report the throttle held back is written with the end, in the same statement.
      clearTimeout(trailing);
      await pendingWrite;
      const last = unwritten as { done: number; total: number | null } | null;
      await this.finished(id, { state: 'succeeded', result: result ?? null, progress: last }, attempt);
    } catch (err) {
      clearTimeout(trailing);
      await pendingWrite;
      const reason: unknown = signal.aborted ? signal.reason : err;
      // Another worker has it now: its run decides.
      if (reason instanceof JobLost) return;
      if (reason instanceof JobCancelled) {
        await this.finished(id, { state: 'cancelled' }, attempt);
        return;
      }
      const words = reason instanceof WorkerStopping ? reason.message : jobErrorInWords(reason);
      // A run only stopped (its server stopping) did not fail: it is given back at once, within room.
      const stopped = reason instanceof WorkerStopping && attempt < job.maxAttempts + RESTART_ROOM;
      const again = stopped || (isRetryable(reason) && attempt < job.maxAttempts);
      if (again) {
        // The first retry after the kind's delay, each next one after twice the last.
        const delay = stopped ? 0 : (declared?.retry.delaySeconds ?? 0) * 2 ** (attempt - 1);
        await this.jobs.requeue(id, attempt, words, delay);
      } else {
        await this.finished(
          id,
          {
            state: 'failed',
            error: words,
            result: { code: jobErrorCode(reason), retryAfterSeconds: jobErrorRetryAfter(reason) },
          },
          attempt,
        );
      }
    }
  }

  private async heartbeat(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    const alive = await this.jobs.heartbeat(ids);
    const ours = new Map(alive.map((row) => [row.id, row.cancelRequested]));
    for (const id of ids) {
      const run = this.running.get(id);
      if (!run) continue;
      if (!ours.has(id)) run.controller.abort(new JobLost());
      else if (ours.get(id)) run.controller.abort(new JobCancelled());
    }
  }

  /**
   * Gives back the jobs of workers that went silent (a killed process), for any process to take at
   * once; one stopped so more than its room allows fails.
   */
  private async sweep(): Promise<void> {
    await this.jobs.requeueStale(this.options.staleMs, RESTART_ROOM, {
      requeued: 'The server working on it stopped; another one carries on.',
      failed: 'The server working on it stopped too many times.',
    });
  }

  /**
   * Ends the job's row (see `JobsRepository.finish`) and tells this process's waiters at once, with the
   * ended row: it is what they answer with.
   */
  private async finished(
    id: string,
    outcome: Parameters<JobsRepository['finish']>[1],
    attempt?: number,
  ): Promise<JobRecord | undefined> {
    const ended = await this.jobs.finish(id, outcome, attempt);
    if (ended) {
      this.ended.emit(id, ended);
      await this.options.onEnded?.(ended);
    }
    return ended;
  }

  private report(err: unknown): void {
    this.options.logger?.error({ err }, 'A job could not be run');
  }
}
