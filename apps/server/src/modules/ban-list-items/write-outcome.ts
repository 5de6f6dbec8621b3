import type Cloudflare from 'cloudflare';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  cloudflareErrorToAppError,
  operationEnd,
  type OperationEnd,
  type WriteOutcomeUnknown,
} from '../../cloudflare';
import { AppError } from '../../app-error';
import type { JobsService } from '../../jobs/jobs.service';
import type { BanListRecord } from '../ban-list-mirror';
import { queueListSync } from '../ban-list-mirror';

/**
 * Finding out what a list write did at Cloudflare when its outcome was lost (issue 41): its answer
 * lost, a retry of it answered 409 or 429 after an attempt that may have landed, or its bulk
 * operation's status unreadable (`WriteOutcomeUnknown`). Instead of "try again", the operation is
 * polled again (a failed poll too), the items are read back, and the mirror is brought to what
 * Cloudflare has; when even that cannot be done now, the list's sync ("Update from Cloudflare") is
 * queued as a job, which reads the list back later and survives a restart.
 */

/** How long an add or a delete (a person waiting on the call) looks for its outcome. */
export const OUTCOME_WAIT_REQUEST_MS = 10_000;
/** How long an import (a job) waits for its write's operation to end. */
export const OUTCOME_WAIT_JOB_MS = 120_000;
/** The first pause between two looks at an item whose write's operation is unknown; doubling. */
const LOOK_AGAIN_MS = 250;

/** The write's failure in the person's words, without a trailing "Please try again.". */
export function lostBecause(lost: WriteOutcomeUnknown): string {
  const words = (cloudflareErrorToAppError(lost.cause) ?? lost).message;
  return words.replace(/\s*Please (sync the list and )?try again[^.]*\.$/, '').replace(/\.$/, '');
}

/**
 * How the lost write's bulk operation ended: polled again until it ends or `waitMs` passes; unknown
 * at once when Cloudflare's answer to the write (which names the operation) was what was lost.
 */
export function lostWriteEnd(
  cf: Cloudflare,
  list: BanListRecord,
  lost: WriteOutcomeUnknown,
  waitMs: number,
): Promise<OperationEnd> {
  if (lost.operationId === undefined) return Promise.resolve({ status: 'unknown' });
  return operationEnd(cf, list.accountId, lost.operationId, { timeoutMs: waitMs, pollAgain: true });
}

/**
 * Looks for one item after its lost write: `look` (Cloudflare's search) until it finds it, the write's
 * operation ended, or `waitMs` passes (an operation still running lands later). Not looked for when
 * the operation failed (Cloudflare's refusal, in `end.reason`).
 */
export async function lookAfterLostWrite<T>(
  cf: Cloudflare,
  list: BanListRecord,
  lost: WriteOutcomeUnknown,
  look: () => Promise<T | undefined>,
  waitMs = OUTCOME_WAIT_REQUEST_MS,
): Promise<{ found: T | undefined; end: OperationEnd }> {
  const deadline = Date.now() + waitMs;
  const end = await lostWriteEnd(cf, list, lost, waitMs);
  if (end.status === 'failed') return { found: undefined, end };
  for (let pause = LOOK_AGAIN_MS; ; pause *= 2) {
    const found = await look();
    if (found !== undefined || end.status === 'completed' || Date.now() + pause > deadline)
      return { found, end };
    await sleep(pause);
  }
}

/** Queues the list's sync for its owner (the list sync job: read back later, kept across a restart). */
export class ListReconciler {
  constructor(private readonly jobs: JobsService) {}

  async syncLater(userId: number, list: BanListRecord): Promise<void> {
    await queueListSync(this.jobs, userId, list);
  }

  /**
   * The failure a person is told when the outcome could not be found out now: what happened, and that
   * the list is read back in the background (its sync queued). `what`: "adding 10.0.0.1".
   */
  async unsettled(
    userId: number,
    list: BanListRecord,
    lost: WriteOutcomeUnknown,
    what: string,
    readFailure?: unknown,
  ): Promise<AppError> {
    const why = readFailure
      ? ` and reading the list back failed too (${(readFailure instanceof AppError ? readFailure : cloudflareErrorToAppError(readFailure))?.message.replace(/\.$/, '') ?? 'an error'})`
      : ', and Cloudflare did not show the outcome in time';
    let next =
      'Guardian updates the list from Cloudflare in the background (Jobs: Update from Cloudflare), so the console shows what Cloudflare has.';
    try {
      await this.syncLater(userId, list);
    } catch {
      next = 'Please update the list from Cloudflare to see what Cloudflare has.';
    }
    return new AppError(
      lost.code,
      `Cloudflare's answer to ${what} in "${list.listName}" was lost (${lostBecause(lost)})${why}. ${next}`,
      { retryAfterSeconds: lost.details.retryAfterSeconds, cause: readFailure ?? lost },
    );
  }
}
