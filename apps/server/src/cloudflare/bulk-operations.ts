import type Cloudflare from 'cloudflare';
import { AppError } from '../app-error';

const POLL_START_MS = 25;
const POLL_MAX_MS = 1_000;
const OPERATION_TIMEOUT_MS = 120_000;

/**
 * List item writes are asynchronous at Cloudflare: wait for the bulk operation to finish, so the
 * console only records what Cloudflare really applied, and report a failed operation's reason.
 */
export async function waitForBulkOperation(
  cf: Cloudflare,
  accountId: string,
  operationId: string,
  timeoutMs = OPERATION_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = POLL_START_MS;
  for (;;) {
    const operation = await cf.rules.lists.bulkOperations.get(operationId, { account_id: accountId });
    if (operation.status === 'completed') return;
    if (operation.status === 'failed') {
      const reason =
        'error' in operation && operation.error ? String(operation.error) : 'Cloudflare rejected the change.';
      throw new AppError('BAD_REQUEST', reason);
    }
    if (Date.now() + delay > deadline) {
      throw new AppError(
        'UPSTREAM',
        'Cloudflare did not finish the list change in time. Please sync the list and try again.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, POLL_MAX_MS);
  }
}
