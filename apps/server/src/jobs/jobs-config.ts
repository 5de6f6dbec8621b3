import type { ListWriteLimits } from '../cloudflare/list-write-budget';

/** Settings of background operations; every field has a default (tests shorten them). */
export interface JobsConfig {
  /** How long a call that starts a job waits for it before answering 202 with the job (default 5 s). */
  waitMs?: number;
  /** Cloudflare's Lists write budget per account (default: Cloudflare's, CLOUDFLARE_LIST_WRITE_LIMITS). */
  listWriteLimits?: ListWriteLimits;
}
