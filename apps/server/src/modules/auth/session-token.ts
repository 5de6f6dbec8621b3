import { createSecretKey, type KeyObject } from 'node:crypto';
import { tokenClaimsSchema, type TokenClaims } from '@guardian/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config';
import { AppError } from '../../app-error';

const ALGORITHM = 'HS256';

const keys = new Map<string, KeyObject>();

/** The secret as a key object, made once: given bytes, jose would import them again on every call. */
function signingKey(config: Pick<Config, 'jwtSecret'>): KeyObject {
  let key = keys.get(config.jwtSecret);
  if (!key) keys.set(config.jwtSecret, (key = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'))));
  return key;
}

export interface SessionClaims {
  user: { id: number; email: string; level: number };
  sessionId: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
}

export interface VerifiedSession {
  userId: number;
  sessionId: string;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
}

export async function signSessionToken(
  { user, sessionId, issuedAt, expiresAt }: SessionClaims,
  config: Pick<Config, 'jwtSecret'>,
): Promise<string> {
  return new SignJWT({ sid: sessionId, email: user.email, level: user.level })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(signingKey(config));
}

/**
 * Checks signature, algorithm (HS256 only: `none` and others are refused), expiry and claims, and
 * returns the user and session the token was issued for. Every failure is a 401 the person can act on.
 */
export async function verifySessionToken(
  token: string,
  config: Pick<Config, 'jwtSecret'>,
): Promise<VerifiedSession> {
  let claims: TokenClaims;
  try {
    const { payload } = await jwtVerify(token, signingKey(config), {
      algorithms: [ALGORITHM],
      requiredClaims: ['sub', 'iat', 'exp'],
    });
    claims = tokenClaimsSchema.parse(payload);
  } catch (err) {
    if (err instanceof errors.JWTExpired) {
      throw new AppError('UNAUTHORIZED', 'Your session has expired. Please sign in again.');
    }
    throw new AppError('UNAUTHORIZED', 'Your session is not valid. Please sign in again.');
  }
  const userId = Number(claims.sub);
  if (!Number.isSafeInteger(userId) || userId <= 0) {
    throw new AppError('UNAUTHORIZED', 'Your session is not valid. Please sign in again.');
  }
  return { userId, sessionId: claims.sid, expiresAt: claims.exp * 1000 };
}
