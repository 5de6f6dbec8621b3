import Cloudflare from 'cloudflare';
import { AppError } from '../app-error';
import { outcomeUnknown } from './create-once';
import { cloudflareErrorToAppError } from './errors';

const POLL_START_MS = 25;
const POLL_MAX_MS = 1_000;
const OPERATION_TIMEOUT_MS = 120_000;
/** Polls in a row that failed (each retried by the client) after which the status is taken as unreadable. */
const FAILED_POLLS_MAX = 3;

/**
 * A list write sent to Cloudflare whose outcome the console does not know: its answer was lost (or
 * failed after an attempt that may have landed), or its bulk operation's status could not be read.
 * `operationId` is the operation's, when Cloudflare's answer named it. Its message is the failure's;
 * whoever catches it finds out what Cloudflare has (ban-list-items/write-outcome.ts).
 */
export class WriteOutcomeUnknown extends AppError {
  constructor(
    readonly operationId: string | undefined,
    cause: unknown,
  ) {
    const failure = cause instanceof AppError ? cause : cloudflareErrorToAppError(cause);
    super(failure?.code ?? 'UPSTREAM', failure?.message ?? 'Cloudflare is unavailable right now.', {
      retryAfterSeconds: failure?.details.retryAfterSeconds,
      cause,
    });
  }
}

/** How a bulk operation ended, or 'unknown' when its status could not be read within the time. */
export type OperationEnd =
  { status: 'completed' } | { status: 'failed'; reason: string } | { status: 'unknown' };

/**
 * Polls the bulk operation until it ends or `timeoutMs` passes. A failed poll (an answer lost, a 5xx,
 * each already retried by the client) ends the wait, unless `pollAgain`: then it is polled again,
 * up to FAILED_POLLS_MAX failures in a row (finding out a write's outcome, ban-list-items/write-outcome.ts).
 */
export async function operationEnd(
  cf: Cloudflare,
  accountId: string,
  operationId: string,
  { timeoutMs = OPERATION_TIMEOUT_MS, pollAgain = false }: { timeoutMs?: number; pollAgain?: boolean } = {},
): Promise<OperationEnd & { pollFailure?: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let delay = POLL_START_MS;
  let pollFailure: unknown;
  let failedPolls = 0;
  for (;;) {
    try {
      const operation = await cf.rules.lists.bulkOperations.get(operationId, { account_id: accountId });
      pollFailure = undefined;
      failedPolls = 0;
      if (operation.status === 'completed') return { status: 'completed' };
      if (operation.status === 'failed') {
        const reason =
          'error' in operation && operation.error
            ? String(operation.error)
            : 'Cloudflare rejected the change.';
        return { status: 'failed', reason };
      }
    } catch (err) {
      if (!(err instanceof Cloudflare.APIError)) throw err;
      // A refusal that another poll would not change (a revoked token, an unknown operation) ends it.
      const code = cloudflareErrorToAppError(err)?.code;
      if (!pollAgain || (code !== 'UPSTREAM' && code !== 'RATE_LIMITED') || ++failedPolls >= FAILED_POLLS_MAX)
        return { status: 'unknown', pollFailure: err };
      pollFailure = err;
    }
    if (Date.now() + delay > deadline) return { status: 'unknown', pollFailure };
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, POLL_MAX_MS);
  }
}

/**
 * List item writes are asynchronous at Cloudflare: wait for the bulk operation to finish, so the
 * console only records what Cloudflare really applied, and report a failed operation's reason. A
 * status that cannot be read, or is not final in time, is WriteOutcomeUnknown.
 */
export async function waitForBulkOperation(
  cf: Cloudflare,
  accountId: string,
  operationId: string,
  timeoutMs = OPERATION_TIMEOUT_MS,
): Promise<void> {
  const end = await operationEnd(cf, accountId, operationId, { timeoutMs });
  if (end.status === 'completed') return;
  if (end.status === 'failed') throw new AppError('BAD_REQUEST', end.reason);
  throw new WriteOutcomeUnknown(
    operationId,
    end.pollFailure ??
      new AppError(
        'UPSTREAM',
        'Cloudflare did not finish the list change in time. Please sync the list and try again.',
      ),
  );
}

/**
 * Sends a list item write (`send`: the POST or DELETE of items) and waits for its bulk operation. A
 * failed send that may have landed all the same (outcomeUnknown, as for every write) is WriteOutcomeUnknown too.
 */
export async function writeListItems(
  cf: Cloudflare,
  accountId: string,
  send: () => Promise<{ operation_id: string }>,
): Promise<void> {
  let operationId: string;
  try {
    ({ operation_id: operationId } = await send());
  } catch (err) {
    throw outcomeUnknown(err) ? new WriteOutcomeUnknown(undefined, err) : err;
  }
  await waitForBulkOperation(cf, accountId, operationId);
}
