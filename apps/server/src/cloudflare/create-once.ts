import Cloudflare from 'cloudflare';
import { isLocalAnswer } from './client';

/**
 * Whether a failed write may have been applied all the same: its answer was lost (connection, time
 * out) or Cloudflare failed (5xx) after receiving it. A refusal (4xx) was not applied; an answer the
 * console could not use (too large, not JSON) came from a call Cloudflare did run.
 */
export function outcomeUnknown(err: unknown): boolean {
  if (!(err instanceof Cloudflare.APIError)) return false;
  if (err instanceof Cloudflare.APIConnectionError || err.status === undefined) return true;
  return err.status >= 500 || (isLocalAnswer(err.headers) && err.status !== 429);
}

/**
 * Creates something at Cloudflare, which has no idempotency keys: when the outcome of the create is
 * unknown, Cloudflare is read first (`findCreated`) and the create is sent again only if nothing
 * was made. The transport never repeats a create by itself (client.ts).
 */
export async function createOnce<T>(
  create: () => Promise<T>,
  findCreated: () => Promise<T | undefined>,
): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (!outcomeUnknown(err)) throw err;
    // Unable to read Cloudflare either: creating again could make a second one.
    const created = await findCreated().catch(() => {
      throw err;
    });
    if (created !== undefined) return created;
    return create();
  }
}
