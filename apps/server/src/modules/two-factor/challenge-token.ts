import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { TWO_FACTOR_CHALLENGE_TTL_SECONDS } from '@guardian/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config';
import { AppError } from '../../app-error';

const ALGORITHM = 'HS256';
/** The token's `typ`: a challenge is never taken for a session token, nor the other way round. */
const TYPE = 'guardian-2fa-challenge';

const keys = new Map<string, KeyObject>();

/**
 * A key of its own, derived from the session secret: even a token that passed for a challenge's
 * shape could not be signed with the session key, so one can never stand in for the other.
 */
function challengeKey(config: Pick<Config, 'jwtSecret'>): KeyObject {
  let key = keys.get(config.jwtSecret);
  if (!key) {
    const derived = createHmac('sha256', config.jwtSecret)
      .update('guardian two-factor challenge v1')
      .digest();
    keys.set(config.jwtSecret, (key = createSecretKey(derived)));
  }
  return key;
}

export interface Challenge {
  userId: number;
  /** Unique per challenge: a challenge that opened a session is refused afterwards. */
  id: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The stamp of the password the first step checked: the session opens only while it is the person's. */
  passwordStamp: string;
}

/** What the password step answers a person with two-factor on: signed, for them, for a few minutes. */
export async function signChallenge(
  userId: number,
  passwordStamp: string,
  config: Pick<Config, 'jwtSecret'>,
  nowMs = Date.now(),
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(nowMs / 1000);
  const expiresAt = issuedAt + TWO_FACTOR_CHALLENGE_TTL_SECONDS;
  const token = await new SignJWT({ purpose: 'two-factor', pst: passwordStamp })
    .setProtectedHeader({ alg: ALGORITHM, typ: TYPE })
    .setSubject(String(userId))
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(challengeKey(config));
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

export const CHALLENGE_EXPIRED = 'Your sign-in took too long. Please sign in again.';
export const CHALLENGE_INVALID = 'This sign-in is not valid. Please sign in again.';

/** The challenge's person; a 401 that sends them back to the password step when it is not one. */
export async function verifyChallenge(token: string, config: Pick<Config, 'jwtSecret'>): Promise<Challenge> {
  try {
    const { payload } = await jwtVerify(token, challengeKey(config), {
      algorithms: [ALGORITHM],
      typ: TYPE,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
    });
    const userId = Number(payload.sub);
    const { pst } = payload;
    if (
      payload.purpose !== 'two-factor' ||
      typeof pst !== 'string' ||
      !Number.isSafeInteger(userId) ||
      userId <= 0
    )
      throw new Error();
    return { userId, id: payload.jti!, expiresAt: payload.exp!, passwordStamp: pst };
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new AppError('UNAUTHORIZED', CHALLENGE_EXPIRED);
    throw new AppError('UNAUTHORIZED', CHALLENGE_INVALID);
  }
}
