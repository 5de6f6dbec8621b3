import Cloudflare from 'cloudflare';
import { z } from 'zod';
import { usableAnswer } from '../../cloudflare/answers';
import { AppError } from '../../app-error';
import type { TokenState } from './accounts.repository';

/** Cloudflare's verify answer (`iam_token_verify_response`): the status and, when set, the expiry. */
const verifyAnswer = z.looseObject({
  status: z.enum(['active', 'disabled', 'expired']),
  expires_on: z.iso.datetime({ offset: true }).nullish(),
});

/** Accounts looked through for the one a user token must reach (50 a page: 1 call for most tokens). */
const ACCOUNTS_LOOKED_THROUGH = 1_000;

export function isTokenRefusal(err: unknown): err is InstanceType<typeof Cloudflare.APIError> {
  return (
    err instanceof Cloudflare.APIError && (err.status === 400 || err.status === 401 || err.status === 403)
  );
}

/** While adding or replacing, a refused token is the person's bad input (400 with Cloudflare's reason), not a 403. */
export function refusedToken(err: InstanceType<typeof Cloudflare.APIError>): AppError {
  const reason = err.errors?.[0]?.message ?? 'the token is not valid';
  return new AppError('BAD_REQUEST', `Cloudflare refused this API token: ${reason}`);
}

function stateOf(answer: unknown, now: Date): TokenState {
  const { status, expires_on } = usableAnswer(verifyAnswer, answer, "the API token's verification");
  return { status, expiresOn: expires_on ? new Date(expires_on) : null, checkedAt: now };
}

/**
 * Asks Cloudflare about the token a client carries. User tokens verify at /user/tokens/verify;
 * account-owned tokens are refused there and verify at /accounts/{id}/tokens/verify, for which the
 * account is needed: `accountId` when known, else the first account the token lists (`firstAccount`).
 * A token refused at both throws Cloudflare's refusal. One call for a user token, two (or three with
 * the account list) for an account-owned one.
 */
export async function verifyToken(
  cf: Cloudflare,
  accountId: string | (() => Promise<string>),
  now = new Date(),
): Promise<{ state: TokenState; kind: 'user' | 'account'; accountId?: string }> {
  try {
    return { state: stateOf(await cf.user.tokens.verify(), now), kind: 'user' };
  } catch (err) {
    if (!isTokenRefusal(err)) throw err;
  }
  const id = typeof accountId === 'string' ? accountId : await accountId();
  return {
    state: stateOf(await cf.accounts.tokens.verify({ account_id: id }), now),
    kind: 'account',
    accountId: id,
  };
}

/** The first account the token lists (the one an added token is bound to). */
export async function firstAccount(cf: Cloudflare): Promise<string> {
  const first = (await cf.accounts.list({ per_page: 5 })).result[0];
  if (!first) throw new AppError('BAD_REQUEST', 'This API token cannot see any Cloudflare account.');
  return first.id;
}

/** Whether a user token reaches the account (an account-owned token verified at it already does). */
export async function reachesAccount(cf: Cloudflare, accountId: string): Promise<boolean> {
  let looked = 0;
  for await (const account of cf.accounts.list({ per_page: 50 })) {
    if (account.id === accountId) return true;
    if (++looked >= ACCOUNTS_LOOKED_THROUGH) return false;
  }
  return false;
}
