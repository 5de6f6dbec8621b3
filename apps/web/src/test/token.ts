/** An unsigned JWT with the given claims: the browser only decodes tokens, it never verifies them. */
export function makeToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    return btoa(String.fromCharCode(...bytes))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
  };
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

const HOUR_S = 3600;

/** A token that expires in an hour, for the given level (omit `level` to leave the claim out). */
export function sessionToken(
  options: { level?: number; email?: string; expiresInS?: number; userId?: number } = {},
): string {
  const { email = 'user@example.com', expiresInS = HOUR_S, userId = 1 } = options;
  const claims: Record<string, unknown> = {
    sub: String(userId),
    email,
    exp: Math.floor(Date.now() / 1000) + expiresInS,
  };
  if ('level' in options) claims.level = options.level;
  return makeToken(claims);
}
