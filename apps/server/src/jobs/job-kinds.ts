import type { JobKind } from '@guardian/contract';
import { z } from 'zod';
import type { JobHandler, JobKindDeclaration } from './job-queue';

/** Tried again after 2 s, then 4 s, when the failure may pass (Cloudflare busy, the database away). */
const IN_BACKGROUND = { attempts: 3, delaySeconds: 2 };
/** Started by a person who waits: a failure is answered, not tried again behind their back. */
const ONCE = { attempts: 1, delaySeconds: 2 };

/** Who made an item change a job makes (the audit trail and the items' history name them). */
const itemActor = z.object({ userId: z.number(), name: z.string(), via: z.enum(['console', 'api']) });
const nothing = z.object({});

/**
 * Every kind of job Guardian runs: what its stored details must be (checked when a run takes the
 * job), whether it takes its Cloudflare account's turn (one job of such kinds per account runs at
 * once, in all processes: the others of the account wait queued) and how often a failure that may pass is tried. The handlers
 * are given in one call at the composition root (`services.ts`); the list of kinds is the
 * contract's, so the jobs view names each.
 */
export const JOB_KIND_TABLE = {
  // Person-started ("Update from Cloudflare"), or queued in the background (an account's lists
  // brought in, a list read back after a lost write): those are tried again.
  'ban-list-sync': {
    payload: z.object({ listId: z.string() }),
    accountTurn: false,
    retry: IN_BACKGROUND,
  },
  'ban-lists-update': { payload: nothing, accountTurn: false, retry: ONCE },
  'ban-lists-clean': { payload: nothing, accountTurn: false, retry: ONCE },
  'zones-sync': { payload: nothing, accountTurn: false, retry: ONCE },
  'ban-everywhere': {
    payload: z.object({
      value: z.string(),
      comment: z.string(),
      listIds: z.array(z.string()),
      actor: itemActor,
      expiresAt: z.string().nullable(),
    }),
    accountTurn: true,
    retry: ONCE,
  },
  'ip-search-remove': {
    payload: z.object({
      items: z.array(z.object({ listId: z.string(), itemId: z.number() })),
      actor: itemActor,
    }),
    accountTurn: true,
    retry: ONCE,
  },
  'ban-list-import': {
    payload: z.object({ listId: z.string(), importId: z.string(), expires: z.string(), by: z.string() }),
    accountTurn: false,
    retry: ONCE,
  },
  // Queued by each process's sweep; a failed run is not tried again behind the next sweep.
  'ban-list-expiry': { payload: nothing, accountTurn: true, retry: ONCE },
  // Queued by a server's ban or unban (or the servers' sweep); Cloudflare refusing is tried again.
  'server-bans': { payload: nothing, accountTurn: true, retry: IN_BACKGROUND },
  // A CrowdSec server's Local API read (its sweep queues one each interval): the next interval is the retry.
  // Quiet: a pull a minute would bury the person's own jobs; a failed one still shows (and its alert).
  'crowdsec-pull': {
    payload: z.object({ serverId: z.number() }),
    accountTurn: false,
    retry: ONCE,
    quiet: true,
  },
} satisfies Record<JobKind, JobKindDeclaration>;

export type GuardianJobKinds = typeof JOB_KIND_TABLE;

/** The work of a kind of Guardian's jobs, given its job with the details its schema checked. */
export type GuardianJobHandler<K extends JobKind> = JobHandler<z.output<GuardianJobKinds[K]['payload']>>;
