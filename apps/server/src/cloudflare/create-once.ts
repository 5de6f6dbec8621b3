import Cloudflare from 'cloudflare';
import type { FastifyReply } from 'fastify';
import { OUTCOME_HEADER } from '@guardian/contract';
import { AppError } from '../app-error';
import { isLocalAnswer, isUncertainAnswer } from './client';

/**
 * Whether a failed write may have been applied all the same: its answer was lost (connection, time
 * out) or Cloudflare failed (5xx) after receiving it. A refusal (4xx) was not applied; an answer the
 * console could not use (too large, not JSON) came from a call Cloudflare did run.
 */
export function outcomeUnknown(err: unknown): boolean {
  if (!(err instanceof Cloudflare.APIError)) return false;
  if (err instanceof Cloudflare.APIConnectionError || err.status === undefined) return true;
  // A 409 or 429 to a retry of an attempt that may have landed (client.ts's uncertainAnswers).
  if (isUncertainAnswer(err.headers)) return true;
  return err.status >= 500 || (isLocalAnswer(err.headers) && err.status !== 429);
}

/** A write's result, and what Guardian found at Cloudflare when the write's answer was lost. */
export interface Checked<T> {
  value: T;
  outcome?: string;
}

/** The person's words for a lost answer Guardian looked into: `found`, e.g. "the record was created". */
export const checkedAfterLoss = (found: string) =>
  `Cloudflare's answer was lost; Guardian checked: ${found}.`;

/**
 * Creates something at Cloudflare, which has no idempotency keys: when the outcome of the create is
 * unknown, Cloudflare is read first (`findCreated`, one read) and the create is sent again only if
 * nothing was made. The transport never repeats a create by itself (client.ts). Found, the answer
 * says so (`found`: "the record was created").
 */
export async function createChecked<T>(
  create: () => Promise<T>,
  findCreated: () => Promise<T | undefined>,
  found: string,
): Promise<Checked<T>> {
  try {
    return { value: await create() };
  } catch (err) {
    if (!outcomeUnknown(err)) throw err;
    // Unable to read Cloudflare either: creating again could make a second one, so the person is told
    // the outcome is unknown (createOnce's callers, which name no outcome, get the transport's error).
    const created = await findCreated().catch(() => {
      throw found ? new AppError('UPSTREAM', uncheckedAfterLoss(found), { cause: err }) : err;
    });
    if (created !== undefined) return { value: created, outcome: checkedAfterLoss(found) };
    return { value: await create() };
  }
}

/** createChecked, for a caller that answers no outcome. */
export async function createOnce<T>(
  create: () => Promise<T>,
  findCreated: () => Promise<T | undefined>,
): Promise<T> {
  return (await createChecked(create, findCreated, '')).value;
}

/**
 * Sends a checked write's result (the resource, or nothing for a 204) with its outcome, if any, in
 * OUTCOME_HEADER; the status is the endpoint's own, set by `route` (endpoint-route.ts).
 */
export function sendChecked<T>(reply: FastifyReply, { value, outcome }: Checked<T>) {
  if (outcome !== undefined) void reply.header(OUTCOME_HEADER, outcome);
  return reply.send(value);
}

/** The person's words when Guardian could not read Cloudflare back either: `whether`, e.g. "the record was updated". */
export const uncheckedAfterLoss = (whether: string) =>
  `Cloudflare's answer was lost, and Guardian could not check whether ${whether}. Reload the page to see what Cloudflare has before trying again.`;

/**
 * Changes or deletes something at Cloudflare (PUT, PATCH, DELETE: the transport sends them again by
 * itself, since the same change twice is one change) and, when the outcome is still unknown after
 * every attempt, reads Cloudflare once (`readBack`: `{value}` when the change is there, undefined
 * when it is not) instead of answering "try again". Found, the answer says so ("the record was
 * updated"); not found, a 502 says it was not; unreadable, a 502 says Guardian could not tell. A
 * person's error from `readBack` (an AppError: the thing is gone) stands as it is.
 */
export async function changeChecked<T>(
  change: () => Promise<T>,
  readBack: () => Promise<{ value: T } | undefined>,
  subject: string,
  done: string,
): Promise<Checked<T>> {
  try {
    return { value: await change() };
  } catch (err) {
    if (!outcomeUnknown(err)) throw err;
    const found = await readBack().catch((readFailure: unknown) => {
      throw readFailure instanceof AppError
        ? readFailure
        : new AppError('UPSTREAM', uncheckedAfterLoss(`${subject} was ${done}`), { cause: err });
    });
    if (found) return { value: found.value, outcome: checkedAfterLoss(`${subject} was ${done}`) };
    throw new AppError('UPSTREAM', `${checkedAfterLoss(`${subject} was not ${done}`)} Please try again.`, {
      cause: err,
    });
  }
}
