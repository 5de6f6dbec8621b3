import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type { z } from 'zod';
import { AppError } from '../app-error';
import { PLANNED_ONCE, type Db } from '../db';
import { JobsRepository, type JobRecord } from './jobs.repository';
import { pgBossDb } from './pg-boss-db';
import { jobErrorCode, jobErrorInWords, jobErrorRetryAfter, isRetryable } from './job-errors';

/**
 * pg-boss's queue of a kind of job: a process takes only the kinds it defines, so a process of an
 * older version never takes (and fails) a kind it does not know.
 */
export const queueOf = (kind: string) => `guardian-${kind}`;

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
  retry: RetryPolicy;
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
}

interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The one statement pg-boss would run for `call` (given a `db`), taken instead of run, to be run inside
 * one of ours: undefined when it runs none or several, or one not shaped as `shape`.
 */
async function statementOf(
  call: (db: PgBoss.Db) => Promise<unknown>,
  rows: unknown[],
  shape: RegExp,
): Promise<Statement | undefined> {
  const taken: Statement[] = [];
  await call({
    executeSql: async (text, values = []) => {
      taken.push({ text, values });
      return { rows };
    },
  });
  const [statement] = taken;
  return taken.length === 1 && shape.test(statement!.text) ? statement : undefined;
}

/**
 * pg-boss's insert of a job (`boss.send`), to be run inside the statement that writes the job's row:
 * one round trip instead of a transaction of four.
 */
const sendStatement = (boss: PgBoss, queue: string, id: string) =>
  statementOf(
    (db) => boss.send(queue, {}, { id, db } as PgBoss.SendOptions),
    [{ id }],
    /^\s*INSERT INTO\b[\s\S]*\bRETURNING id\s*$/i,
  );

/**
 * pg-boss's taking of the next job of `queue` (`boss.fetch`, `FOR UPDATE SKIP LOCKED`), to be run
 * inside the statement that claims the job's row: one round trip instead of two.
 */
const fetchStatement = (boss: PgBoss, queue: string) =>
  statementOf((db) => boss.fetch(queue, { db }), [], /^\s*WITH\b[\s\S]*\bRETURNING\b/i);

/** A job taken from pg-boss: `claimed` is its row when claimed in the same statement (null: not claimable). */
interface Taken {
  id: string;
  queue: string;
  claimed?: JobRecord | null;
}

/** Whether a database error says a statement is not as the database's tables are (SQLSTATE class 42). */
const notAsTables = (err: unknown) => String((err as { code?: unknown }).code ?? '').startsWith('42');

/** How many times rarer a worker with a run in flight asks the queue for another job. */
const BUSY_POLL_FACTOR = 5;
/**
 * pg-boss hands a job out once `start_after < now()`, and PGlite's clock counts whole milliseconds: a
 * take in the millisecond of the send finds nothing. A queue this process sent to that gave no job is
 * looked at once more this much later (had another process taken the job, that look costs one take).
 * A job ready at once (a negative `startAfter`) would need pg-boss to take an interval it does not
 * document, or the server's clock to agree with PostgreSQL's.
 */
const SENT_LOOK_AGAIN_MS = 2;

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
 * failed, not run, and not tried again. The person reads the first line, the log the schema's words.
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
 * Durable jobs on the app's own database: pg-boss keeps the queue (a job is taken by one worker of
 * one process, `FOR UPDATE SKIP LOCKED`; a failed run is retried with backoff), the `jobs` table
 * keeps what people see. Every server process on the database runs one; see README.md.
 */
export class JobQueue<K extends JobKindTable = JobKindTable> {
  readonly jobs: JobsRepository;
  private readonly options: JobQueueOptions;
  private handlers: JobHandlers<K> | undefined;
  private readonly running = new Map<string, Running>();
  private readonly ended = new EventEmitter();
  private boss: PgBoss | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];
  private wantStarted = false;
  /** A job was sent from this process while the loop was not asleep: look again before sleeping. */
  private wakeRequested = false;
  /** Queues this process sent a job to since the loop last looked: fetched from at once, without the probe. */
  private readonly sentTo = new Set<string>();
  private starting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** pg-boss's schema, once started: the idle poll reads its waiting jobs (`readyQueues`). */
  private bossSchemaName: string | undefined;
  private probeWorks = true;
  /** Whether pg-boss's insert of a job is written with the job's row in one statement (`sendStatement`). */
  private sendInOne = true;
  /** Whether pg-boss's taking of a job claims the job's row in the same statement (`fetchStatement`). */
  private takeInOne = true;

  constructor(
    private readonly db: Db,
    /** The kinds this process runs (and sends): each one's details schema and retry policy. */
    private readonly kinds: K,
    options: Partial<JobQueueOptions> = {},
  ) {
    this.options = { ...JOB_QUEUE_DEFAULTS, ...options };
    this.jobs = new JobsRepository(db);
    this.ended.setMaxListeners(0);
  }

  /**
   * Gives every kind its handler, in one call (the composition root's): the services that do the
   * work are built after the queue they send their jobs to.
   */
  handle(handlers: JobHandlers<K>): void {
    this.handlers = handlers;
  }

  private kindNames(): string[] {
    return Object.keys(this.kinds);
  }

  get started(): boolean {
    return this.boss !== undefined;
  }

  /** Creates (or migrates) pg-boss's schema, then starts taking jobs. */
  async start(): Promise<void> {
    if (this.boss) return;
    if (!this.handlers)
      throw new Error('The job queue was started before its kinds were given their handlers.');
    const schema = await this.bossSchema();
    this.bossSchemaName = schema;
    const boss = new PgBoss({
      db: pgBossDb(this.db),
      schema,
      // Jobs are taken by our own loop (fetch), and the sweep for dead workers is ours too (heartbeats).
      supervise: true,
      schedule: false,
      maintenanceIntervalSeconds: 60,
    });
    boss.on('error', (err: unknown) => this.options.logger?.warn({ err }, 'The job queue reported an error'));
    await boss.start();
    for (const name of this.kindNames()) await this.createQueue(boss, name);
    this.boss = boss;
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
      if (!this.wantStarted || this.boss) return;
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
    if (!this.boss) return;
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.wake?.();
    await this.loop;
    for (const run of this.running.values()) run.controller.abort(new WorkerStopping());
    await Promise.all([...this.running.values()].map((run) => run.done));
    await this.boss.stop({ graceful: false, close: false, wait: true });
    this.boss = undefined;
  }

  /** Queues a job (its row and pg-boss's in one transaction) and wakes this process's worker. */
  async enqueue(job: NewJobOf<K>): Promise<JobRecord> {
    // Right after the app is ready the queue may still be starting.
    if (!this.boss) await this.starting;
    const boss = this.requireBoss();
    if (!Object.hasOwn(this.kinds, job.kind)) throw new Error(`No job kind "${job.kind}" is defined.`);
    const id = randomUUID();
    const queue = queueOf(job.kind);
    const { attempts, ...sent } = job;
    // The runs it gets go with its details, beside what its schema reads.
    const data = {
      ...(sent.data as Record<string, unknown>),
      ...(attempts ? { maxAttempts: attempts } : {}),
    };
    const row = { id, accountId: null, ...sent, data };
    const queueing = this.sendInOne ? await sendStatement(boss, queue, id) : undefined;
    let queued: JobRecord | undefined;
    try {
      queued = queueing
        ? await this.jobs.insertWith(row, queueing)
        : await this.db.transaction(async (tx) => {
            const inserted = await new JobsRepository(tx).insert(row);
            await boss.send(queue, {}, { id, db: pgBossDb(tx) } as PgBoss.SendOptions);
            return inserted;
          });
    } catch (err) {
      // pg-boss's insert not as read here (changed in an upgrade): its own way from now on.
      if (!queueing || !notAsTables(err)) throw err;
      this.sendInOne = false;
      this.options.logger?.warn(
        { err },
        'The job queue cannot write a job in one statement; it uses a transaction',
      );
      return this.enqueue(job);
    }
    if (!queued) throw new Error(`The job queue "${queue}" took no job (is the queue created?).`);
    this.sentTo.add(queue);
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
    const job = await this.jobs.find(id);
    const state = await this.jobs.requestCancel(id);
    if (job && state === 'cancelled') await this.boss?.cancel(queueOf(job.kind), id);
    this.running.get(id)?.controller.abort(new JobCancelled());
  }

  /**
   * Creates a kind's queue unless it exists. Processes starting at once may both try, and
   * PostgreSQL may call one of two concurrent creations a deadlock: then it is looked for again.
   */
  private async createQueue(boss: PgBoss, kind: string): Promise<void> {
    const name = queueOf(kind);
    const { retry } = this.kinds[kind]!;
    for (let attempt = 1; ; attempt++) {
      if (await boss.getQueue(name)) return;
      try {
        await boss.createQueue(name, {
          name,
          policy: 'standard',
          // Room for runs stopped by restarts beyond the attempts a failure gets (see `run`).
          retryLimit: retry.attempts + 5,
          retryDelay: retry.delaySeconds,
          retryBackoff: true,
        });
        return;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  private requireBoss(): PgBoss {
    if (!this.boss)
      throw new AppError(
        'UNAVAILABLE',
        'Background operations cannot start right now. Please try again in a moment.',
      );
    return this.boss;
  }

  /** pg-boss's own schema: `pgboss`, or the test's schema on PostgreSQL (so it is dropped with it). */
  private async bossSchema(): Promise<string> {
    const [row] = await this.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    return row && row.schema !== 'public' ? row.schema : 'pgboss';
  }

  private async takeJobs(): Promise<void> {
    // When the probe last found no job ready: the next is due a poll later. A job taken on the probe's
    // word, or a slot freed, makes it due at once (more may wait); a job sent from this process is
    // fetched without it.
    let probedAt = -Infinity;
    // A worker with a run in flight asks less often: on PGlite's one connection each ask waits in
    // line with the run's own statements. Jobs sent from this process still wake it at once.
    const pollMs = () =>
      this.running.size > 0 ? this.options.pollMs * BUSY_POLL_FACTOR : this.options.pollMs;
    while (!this.stopping) {
      if (this.running.size >= this.options.concurrency) {
        await Promise.race([...this.running.values()].map((run) => run.done));
        probedAt = -Infinity;
        continue;
      }
      this.wakeRequested = false;
      let job: Taken | undefined;
      try {
        job = await this.fetchSent();
        if (!job && Date.now() - probedAt >= pollMs()) {
          for (const name of await this.readyQueues()) {
            job = await this.take(name);
            if (job) break;
          }
          probedAt = job ? -Infinity : Date.now();
        }
      } catch (err) {
        this.report(err);
        probedAt = Date.now();
      }
      if (job) {
        this.begin(job);
        continue;
      }
      if (this.wakeRequested || this.stopping) continue;
      const due = probedAt + pollMs() - Date.now();
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

  /**
   * A job from the queues this process sent to since the loop last looked: they hold one (unless
   * another process took it first), so they are fetched from at once, without asking the probe.
   */
  private async fetchSent(): Promise<Taken | undefined> {
    const sent = [...this.sentTo];
    this.sentTo.clear();
    for (const [index, name] of sent.entries()) {
      const job = (await this.take(name)) ?? (await sleep(SENT_LOOK_AGAIN_MS).then(() => this.take(name)));
      if (job) {
        // The others are looked at next time round.
        for (const later of sent.slice(index + 1)) this.sentTo.add(later);
        return job;
      }
    }
    return undefined;
  }

  /**
   * Takes the next job of `queue` from pg-boss, and claims its row in the same statement; should
   * pg-boss take it otherwise (an upgrade), the row is claimed by the run, as a statement of its own.
   */
  private async take(queue: string): Promise<Taken | undefined> {
    const boss = this.boss!;
    const taking = this.takeInOne ? await fetchStatement(boss, queue) : undefined;
    if (taking) {
      try {
        const taken = await this.jobs.claimWith(taking);
        return taken && { id: taken.id, queue, claimed: taken.claimed };
      } catch (err) {
        if (!notAsTables(err)) throw err;
        this.takeInOne = false;
        this.options.logger?.warn({ err }, 'The job queue cannot take and claim a job in one statement');
      }
    }
    const [job] = await boss.fetch(queue);
    return job && { id: job.id, queue };
  }

  /**
   * The queues of this process's kinds that hold a job ready to take, asked in one statement: an idle
   * worker's poll is one read of pg-boss's index of waiting jobs (`job_i5`), not a fetch per kind (8
   * statements a second, each waiting in line on PGlite's one connection with people's requests).
   * Only those queues are then fetched from (`boss.fetch` takes the job, `FOR UPDATE SKIP LOCKED`).
   * Should pg-boss's table not be as read here (changed in an upgrade), every queue is fetched from as before.
   */
  private async readyQueues(): Promise<string[]> {
    const names = this.kindNames().map(queueOf);
    if (this.bossSchemaName === undefined || !this.probeWorks) return names;
    try {
      const rows = await this.db.query<{ name: string }>(
        `SELECT q.name FROM unnest($1::text[]) AS q (name)
         WHERE EXISTS (SELECT 1 FROM ${this.bossSchemaName}.job j
                       WHERE j.name = q.name AND j.state < 'active' AND j.start_after < now())`,
        [names],
        PLANNED_ONCE,
      );
      return rows.map((row) => row.name);
    } catch (err) {
      // Only a table that is not as expected (SQLSTATE class 42) turns it off; the database being
      // away is reported by the loop, which tries again at its next poll.
      if (!notAsTables(err)) throw err;
      this.probeWorks = false;
      this.options.logger?.warn(
        { err },
        'The job queue cannot read its waiting jobs at once; it asks each kind',
      );
      return names;
    }
  }

  private begin(taken: Taken): void {
    const { id } = taken;
    const controller = new AbortController();
    const done = this.run(taken, controller.signal)
      .catch((err: unknown) => this.report(err))
      .finally(() => {
        this.running.delete(id);
        this.ended.emit(id);
      });
    this.running.set(id, { controller, done });
  }

  private async run({ id, queue, claimed }: Taken, signal: AbortSignal): Promise<void> {
    const boss = this.boss!;
    const job = claimed === undefined ? await this.jobs.claim(id) : (claimed ?? undefined);
    if (job === undefined) {
      // Cancelled before it started, or ended: nothing to run.
      const found = await this.jobs.find(id);
      if (found?.cancelRequested && !ENDED.has(found.state)) await this.finished(id, { state: 'cancelled' });
      if (!found || found.cancelRequested || ENDED.has(found.state)) await boss.complete(queue, id);
      return;
    }
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
      if (await this.finished(id, { state: 'succeeded', result: result ?? null, progress: last }, attempt))
        await this.complete(boss, queue, id);
    } catch (err) {
      clearTimeout(trailing);
      await pendingWrite;
      const reason: unknown = signal.aborted ? signal.reason : err;
      // Another worker has it now: its run decides.
      if (reason instanceof JobLost) return;
      if (reason instanceof JobCancelled) {
        if (await this.finished(id, { state: 'cancelled' }, attempt)) await this.complete(boss, queue, id);
        return;
      }
      const words = reason instanceof WorkerStopping ? reason.message : jobErrorInWords(reason);
      const maxAttempts =
        typeof job.data.maxAttempts === 'number' ? job.data.maxAttempts : (declared?.retry.attempts ?? 1);
      const again = reason instanceof WorkerStopping || (isRetryable(reason) && attempt < maxAttempts);
      if (again) {
        if (await this.jobs.requeue(id, attempt, words))
          await this.giveBack(boss, queue, id, words, reason instanceof WorkerStopping);
      } else if (
        await this.finished(
          id,
          {
            state: 'failed',
            error: words,
            result: { code: jobErrorCode(reason), retryAfterSeconds: jobErrorRetryAfter(reason) },
          },
          attempt,
        )
      ) {
        await this.complete(boss, queue, id, { failed: words });
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

  /** Gives back the jobs of workers that went silent (a killed process), for any process to take at once. */
  private async sweep(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    const stale = await this.jobs.requeueStale(
      this.options.staleMs,
      'The server working on it stopped; another one carries on.',
    );
    for (const { id, kind } of stale)
      await this.giveBack(boss, queueOf(kind), id, 'The server working on it stopped.', true);
  }

  /**
   * pg-boss puts a failed job back after the retry delay (doubling), for any process to take; past
   * its retry limit it keeps it failed, and so does the job's row. A job whose run was only stopped
   * (its server stopping, or gone silent) did not fail: `atOnce` makes it ready now, not after the delay.
   */
  private async giveBack(
    boss: PgBoss,
    queue: string,
    id: string,
    words: string,
    atOnce = false,
  ): Promise<void> {
    await boss.fail(queue, id, { message: words });
    const queued = await boss.getJobById(queue, id);
    if (queued && queued.state === 'failed') await this.finished(id, { state: 'failed', error: words });
    else if (atOnce)
      await this.db.query(
        `UPDATE ${this.bossSchemaName!}.job SET start_after = now() WHERE name = $1 AND id = $2 AND state = 'retry'`,
        [queue, id],
        PLANNED_ONCE,
      );
  }

  /**
   * pg-boss's completion of a job whose row has ended, once the waiter's answer has had its turn: on
   * PGlite's one connection the answer's own statements (its audit row, written before it is sent)
   * would otherwise wait behind it. Nothing reads it in between.
   */
  private async complete(boss: PgBoss, queue: string, id: string, data?: object): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await boss.complete(queue, id, data);
  }

  /**
   * Ends the job's row (see `JobsRepository.finish`) and tells this process's waiters at once, with the
   * ended row: it is what they answer with, and pg-boss's own completion that follows changes nothing
   * they read (were this process to die before it, the job's next taker finds the row ended and
   * completes it).
   */
  private async finished(
    id: string,
    outcome: Parameters<JobsRepository['finish']>[1],
    attempt?: number,
  ): Promise<JobRecord | undefined> {
    const ended = await this.jobs.finish(id, outcome, attempt);
    if (ended) this.ended.emit(id, ended);
    return ended;
  }

  private report(err: unknown): void {
    this.options.logger?.error({ err }, 'A job could not be run');
  }
}
