import { z } from 'zod';
import { keysOf } from '../shared/closed-set';
import LABELS from '../shared/labels.en.json';

/*
 * Background operations (server: apps/server/src/jobs/). A long Cloudflare operation answers
 * 202 with its job; the screen polls `GET /api/jobs/:id` until it has ended.
 */

/** Each kind of job, and what it is called on the jobs view. */
export const JOB_KIND_LABELS = LABELS.jobKinds;
export type JobKind = keyof typeof JOB_KIND_LABELS;
export const JOB_KINDS = keysOf(JOB_KIND_LABELS);

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The most jobs one list answer holds (newest first). */
export const JOBS_LIST_MAX = 100;

export const jobSchema = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  /** The e-mail of the person who started it. */
  started_by: z.string(),
  account_name: z.string().nullable(),
  /** What it works on, for people: the list's name... */
  target: z.string(),
  /** Cloudflare's id of the list it works on (a list's sync); null for a job about many. */
  list_id: z.string().nullable(),
  state: z.enum(JOB_STATES),
  /** Items (lists, or zones pages) done, of `total` when known. */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  /** Runs so far (a failure that may pass is tried again). */
  attempts: z.number().int().nonnegative(),
  /** Why it failed (or why the last run stopped, while it waits for another), in words. */
  error: z.string().nullable(),
  /** What it answered when it succeeded (a synced list: the list). */
  result: z.unknown().nullable(),
  /** A cancel was asked for and the run has not stopped yet. */
  cancel_requested: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobsListSchema = z.object({
  jobs: z.array(jobSchema),
  /** How many of the person's own jobs ended since they last looked (the bell's red dot). */
  unseen: z.number().int().nonnegative(),
});
export type JobsList = z.infer<typeof jobsListSchema>;

export const jobsQuerySchema = z.object({
  /** `all`: everyone's jobs (administrators only); default: the person's own. */
  scope: z.enum(['mine', 'all']).optional(),
});
export type JobsQuery = z.input<typeof jobsQuerySchema>;

export const jobParamsSchema = z.object({
  id: z
    .string()
    .max(36, 'The job id is not valid.')
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'The job id is not valid.'),
});
