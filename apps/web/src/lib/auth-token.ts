import { ADMIN_LEVEL } from '@guardian/contract';

/** Spec section 3: the session token lives in local storage under this key. */
export const TOKEN_STORAGE_KEY = 'token';

/** Spec section 4: a token without a level claim counts as level -1 (a user). */
export const NO_LEVEL = -1;

/** What the browser reads from the token. It is not verified here: the server does that on every call. */
export interface DecodedToken {
  /** Expiry, in seconds since the epoch. */
  exp: number;
  level: number;
  email: string | null;
}

export interface Session extends DecodedToken {
  token: string;
  isAdmin: boolean;
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_STORAGE_KEY);
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

/**
 * Who the stored token was issued to (its `sub`, the user id), read even when it has expired: whose
 * session a page belonged to when it ends.
 */
export function tokenOwner(): string | null {
  const payload = getToken()?.split('.')[1];
  if (!payload) return null;
  try {
    const { sub } = JSON.parse(decodeBase64Url(payload)) as Record<string, unknown>;
    return typeof sub === 'string' && sub !== '' ? sub : null;
  } catch {
    return null;
  }
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_STORAGE_KEY);
}

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads `exp`, `level` and `email` from a JWT's payload, or null when it cannot be decoded.
 * A token without a numeric `exp` counts as undecodable: the browser could never tell it expired.
 */
export function decodeToken(token: string): DecodedToken | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(decodeBase64Url(payload));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const { exp, level, email } = claims as Record<string, unknown>;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  return {
    exp,
    level: typeof level === 'number' && Number.isInteger(level) ? level : NO_LEVEL,
    email: typeof email === 'string' ? email : null,
  };
}

export function isExpired(decoded: DecodedToken, nowMs = Date.now()): boolean {
  return decoded.exp * 1000 <= nowMs;
}

/**
 * The signed-in session, or null for a visitor. An expired or undecodable token is removed here,
 * so every guard that asks sends the person to /login (spec section 4).
 */
export function readSession(nowMs = Date.now()): Session | null {
  const token = getToken();
  if (!token) return null;
  const decoded = decodeToken(token);
  if (!decoded || isExpired(decoded, nowMs)) {
    clearToken();
    return null;
  }
  return { ...decoded, token, isAdmin: decoded.level === ADMIN_LEVEL };
}
