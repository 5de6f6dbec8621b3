import { PLANNED_ONCE, type Queryable } from '../db';

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRecord {
  id: string;
  kind: string;
  userId: number;
  userEmail: string;
  accountId: number | null;
  accountName: string | null;
  target: string;
  data: Record<string, unknown>;
  state: JobState;
  progressDone: number;
  progressTotal: number | null;
  attempts: number;
  /** Runs it gets before a failure that may pass is its end (its kind's retry policy, or the sender's). */
  maxAttempts: number;
  result: unknown;
  error: string | null;
  cancelRequested: boolean;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface NewJob {
  id: string;
  kind: string;
  userId: number;
  accountId: number | null;
  target: string;
  data: Record<string, unknown>;
  maxAttempts: number;
  /** Whether it takes its account's turn (see `JobKindDeclaration.accountTurn`). */
  accountTurn: boolean;
}

const COLUMNS = `
  j.id, j.kind, j.user_id AS "userId", u.email AS "userEmail", j.account_id AS "accountId",
  a.account_name AS "accountName", j.target, j.data, j.state, j.progress_done AS "progressDone",
  j.progress_total AS "progressTotal", j.attempts, j.max_attempts AS "maxAttempts", j.result, j.error,
  j.cancel_requested AS "cancelRequested", j.created_at AS "createdAt", j.started_at AS "startedAt",
  j.finished_at AS "finishedAt"`;
const JOINED = `JOIN users u ON u.id = j.user_id LEFT JOIN cloudflare_accounts a ON a.id = j.account_id`;
const FROM = `jobs j ${JOINED}`;
/** A write's rows (`WITH j AS (UPDATE ... RETURNING *)`) as `find` answers them: one statement, not two. */
const FROM_WRITTEN = `j ${JOINED}`;

/**
 * The `jobs` table (migrations 016 and 037): the queue, and what people see of its jobs. The statements
 * every job runs (its insert, take, progress, heartbeats and end) look rows up by id, or the waiting
 * ones by kind and time, so their plans are made once (PLANNED_ONCE: on PGlite planning them was
 * most of a short job's cost to its caller).
 */
export class JobsRepository {
  /** What people see of the jobs: all but the quiet kinds' jobs that did not fail (a SQL condition). */
  private readonly shown: string;

  constructor(
    private readonly db: Queryable,
    /** The kinds whose jobs people see only when one failed (`JobKindDeclaration.quiet`). */
    quietKinds: readonly string[] = [],
  ) {
    // Written into the statement (kind names are the code's own, checked here), not a parameter: the
    // statements keep their shape whatever the table of kinds.
    for (const kind of quietKinds)
      if (!/^[a-z][a-z-]*$/.test(kind)) throw new Error(`A job kind's name is not a plain name: ${kind}`);
    this.shown =
      quietKinds.length === 0
        ? 'true'
        : `(j.kind NOT IN (${quietKinds.map((kind) => `'${kind}'`).join(', ')}) OR j.state = 'failed')`;
  }

  /** Queues the job, ready at once; answers its row as `find` would, in the same statement. */
  async insert(job: NewJob): Promise<JobRecord> {
    const rows = await this.db.query<JobRecord>(
      `WITH j AS (
         INSERT INTO jobs (id, kind, user_id, account_id, target, data, max_attempts, account_turn)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING *)
       SELECT ${COLUMNS} FROM ${FROM_WRITTEN}`,
      [
        job.id,
        job.kind,
        job.userId,
        job.accountId,
        job.target,
        JSON.stringify(job.data),
        job.maxAttempts,
        job.accountTurn,
      ],
      PLANNED_ONCE,
    );
    return rows[0]!;
  }

  /**
   * The newest job like `job` (kind, person, account and details) in one of `states` and not being
   * cancelled: the one a new job joins instead of running again (`JobQueue.enqueue`). Few jobs are
   * queued or running at once, and each state has its partial index.
   */
  async findSame(job: NewJob, states: readonly ('queued' | 'running')[]): Promise<JobRecord | undefined> {
    const rows = await this.db.query<JobRecord>(
      `SELECT ${COLUMNS} FROM ${FROM}
        WHERE j.state = ANY($5::text[]) AND j.kind = $1 AND j.user_id = $2
          AND j.account_id IS NOT DISTINCT FROM $3 AND j.data = $4::jsonb AND NOT j.cancel_requested
        ORDER BY j.created_at DESC LIMIT 1`,
      [job.kind, job.userId, job.accountId, JSON.stringify(job.data), states],
    );
    return rows[0];
  }

  async find(id: string): Promise<JobRecord | undefined> {
    // Read by every progress poll of a screen, and by a waiter whose job runs in another process:
    // on PGlite in process, median of 300, 0.44-0.56 ms planned each time, 0.24-0.28 ms planned once.
    const rows = await this.db.query<JobRecord>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE j.id = $1`,
      [id],
      PLANNED_ONCE,
    );
    return rows[0];
  }

  /**
   * Newest first; only `userId`'s unless it is undefined (an administrator's view of everyone's); a quiet
   * kind's jobs only when they failed.
   */
  list(userId: number | undefined, limit: number): Promise<JobRecord[]> {
    return userId === undefined
      ? this.db.query<JobRecord>(
          `SELECT ${COLUMNS} FROM ${FROM} WHERE ${this.shown} ORDER BY j.created_at DESC, j.id LIMIT $1`,
          [limit],
        )
      : this.db.query<JobRecord>(
          `SELECT ${COLUMNS} FROM ${FROM} WHERE j.user_id = $1 AND ${this.shown}
            ORDER BY j.created_at DESC, j.id LIMIT $2`,
          [userId, limit],
        );
  }

  /**
   * Takes the next job of `kinds` that is ready (queued, its `run_after` come) for a run, and claims
   * it in the same statement: `FOR UPDATE SKIP LOCKED`, so of several workers, in any process, one
   * has it; the others take the next or none. A job that takes its account's turn is passed over
   * while another of the account runs; two taken at once by two processes, the index
   * `jobs_account_turn_idx` refuses the second (23505, left queued). Answers the job as it is now
   * (`attempts` is the run's number: later writes of the run name it, so a run the sweep gave away
   * can no longer change the row), or undefined when none is ready.
   */
  async take(kinds: string[]): Promise<JobRecord | undefined> {
    const rows = await this.db.query<JobRecord>(
      `WITH j AS (
         UPDATE jobs SET state = 'running', started_at = coalesce(started_at, now()), heartbeat_at = now(),
           attempts = attempts + 1
         WHERE id = (
           SELECT q.id FROM jobs q
           WHERE q.state = 'queued' AND NOT q.cancel_requested AND q.run_after <= now()
             AND q.kind = ANY($1::text[])
             AND NOT (q.account_turn AND EXISTS (
               SELECT 1 FROM jobs r WHERE r.state = 'running' AND r.account_turn AND r.account_id = q.account_id))
           ORDER BY q.run_after, q.created_at
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
         AND state = 'queued'
         RETURNING *)
       SELECT ${COLUMNS} FROM ${FROM_WRITTEN}`,
      [kinds],
      PLANNED_ONCE,
    );
    return rows[0];
  }

  async progress(id: string, attempt: number, done: number, total: number | null): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET progress_done = $3, progress_total = $4
       WHERE id = $1 AND attempts = $2 AND state = 'running'`,
      [id, attempt, done, total],
      PLANNED_ONCE,
    );
  }

  /**
   * Marks the running jobs `ids` alive; answers, of them, those still this run's (not given back by
   * the sweep) and whether their cancel was asked for.
   */
  heartbeat(ids: string[]): Promise<{ id: string; cancelRequested: boolean }[]> {
    return this.db.query(
      `UPDATE jobs SET heartbeat_at = now() WHERE id = ANY($1::uuid[]) AND state = 'running'
       RETURNING id, cancel_requested AS "cancelRequested"`,
      [ids],
      PLANNED_ONCE,
    );
  }

  /**
   * Ends the job (only run `attempt`'s, or any run's when undefined), with its last progress when
   * given: the ended job, or undefined when it was not that run's.
   */
  async finish(
    id: string,
    outcome: {
      state: 'succeeded' | 'failed' | 'cancelled';
      result?: unknown;
      error?: string | null;
      progress?: { done: number; total: number | null } | null;
    },
    attempt?: number,
  ): Promise<JobRecord | undefined> {
    const rows = await this.db.query<JobRecord>(
      `WITH j AS (
         UPDATE jobs SET state = $2, result = $3, error = $4, finished_at = now(), heartbeat_at = NULL,
           progress_done = coalesce($6::int, progress_done),
           progress_total = CASE WHEN $6::int IS NULL THEN progress_total ELSE $7::int END
         WHERE id = $1 AND state IN ('queued', 'running') AND ($5::int IS NULL OR attempts = $5)
         RETURNING *)
       SELECT ${COLUMNS} FROM ${FROM_WRITTEN}`,
      [
        id,
        outcome.state,
        outcome.result === undefined ? null : JSON.stringify(outcome.result),
        outcome.error ?? null,
        attempt ?? null,
        outcome.progress?.done ?? null,
        outcome.progress?.total ?? null,
      ],
      PLANNED_ONCE,
    );
    return rows[0];
  }

  /**
   * Puts run `attempt` of a job back in the queue, to be taken again in `delaySeconds`, with why;
   * false when it is not that run's.
   */
  async requeue(id: string, attempt: number, error: string | null, delaySeconds: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE jobs SET state = 'queued', heartbeat_at = NULL, error = $3,
         run_after = now() + make_interval(secs => $4)
       WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING id`,
      [id, attempt, error, delaySeconds],
      PLANNED_ONCE,
    );
    return rows.length > 0;
  }

  /**
   * Running jobs whose worker has been silent for `staleMs` (its process was killed): given back to
   * the queue, ready at once; one stopped more than `room` runs beyond its attempts fails.
   */
  async requeueStale(
    staleMs: number,
    room: number,
    words: { requeued: string; failed: string },
  ): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET state = CASE WHEN attempts < max_attempts + $2 THEN 'queued' ELSE 'failed' END,
         heartbeat_at = NULL, run_after = now(),
         error = CASE WHEN attempts < max_attempts + $2 THEN $3 ELSE $4 END,
         finished_at = CASE WHEN attempts < max_attempts + $2 THEN NULL ELSE now() END
       WHERE state = 'running' AND heartbeat_at < now() - make_interval(secs => $1)`,
      [staleMs / 1000, room, words.requeued, words.failed],
    );
  }

  /** Cancels a queued job at once, or asks a running one to stop; the job's state after. */
  async requestCancel(id: string): Promise<JobState | undefined> {
    const rows = await this.db.query<{ state: JobState }>(
      `UPDATE jobs SET
         cancel_requested = state IN ('queued', 'running'),
         state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,
         finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END
       WHERE id = $1 RETURNING state`,
      [id],
    );
    return rows[0]?.state;
  }

  /** How many of the person's jobs ended since they last looked (a quiet kind's: only failures). */
  async unseen(userId: number): Promise<number> {
    const rows = await this.db.query<{ count: number }>(
      `SELECT count(*) AS count FROM jobs j LEFT JOIN jobs_seen s ON s.user_id = j.user_id
       WHERE j.user_id = $1 AND j.finished_at IS NOT NULL AND j.finished_at > coalesce(s.seen_at, '-infinity')
         AND ${this.shown}`,
      [userId],
    );
    return rows[0]?.count ?? 0;
  }

  async markSeen(userId: number): Promise<void> {
    await this.db.query(
      `INSERT INTO jobs_seen (user_id, seen_at) VALUES ($1, now())
       ON CONFLICT (user_id) DO UPDATE SET seen_at = now()`,
      [userId],
    );
  }
}
