import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CloudflareError, authenticationError, fail, noRoute, ok } from '../envelope';
import { isId } from '../ids';
import type { Account, SandboxState, Token, Zone } from '../state';
import { requestPath, type SandboxContext } from '../context';

/** The bearer string of a request, without checking it (the rate limit and call log key on it). */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function readToken(state: SandboxState, request: FastifyRequest): Token | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header === '') {
    throw fail(400, 9106, 'Missing X-Auth-Key, X-Auth-Email or Authorization headers');
  }
  const value = bearerToken(request);
  if (value === null) {
    throw fail(400, 6003, 'Invalid request headers', [
      { code: 6111, message: 'Invalid format for Authorization header' },
    ]);
  }
  return state.tokens.get(value);
}

/** A token's status now: an active token whose expiry has passed is expired, as at Cloudflare. */
export function statusOf(token: Token): Token['status'] {
  const expired = token.expiresOn !== undefined && Date.parse(token.expiresOn) <= Date.now();
  return token.status === 'active' && expired ? 'expired' : token.status;
}

/** The request's token when it is known and active; Cloudflare's authentication errors otherwise. */
export function authenticate(state: SandboxState, request: FastifyRequest): Token {
  const token = readToken(state, request);
  if (!token || statusOf(token) !== 'active') throw authenticationError(401);
  return token;
}

/** An account the token reaches; an unknown id and another account's id answer alike (no probing). */
export function requireAccount(
  state: SandboxState,
  token: Token,
  accountId: string,
  request: FastifyRequest,
): Account {
  if (!isId(accountId)) throw noRoute(requestPath(request));
  const account = state.accounts.get(accountId);
  if (!account || !token.accountIds.includes(accountId)) throw authenticationError(403);
  return account;
}

export function requireZone(
  state: SandboxState,
  token: Token,
  zoneId: string,
  request: FastifyRequest,
): Zone {
  const zone = state.zones.get(zoneId);
  if (!zone) throw noRoute(requestPath(request));
  if (!token.accountIds.includes(zone.accountId)) throw authenticationError(403);
  return zone;
}

export function accountOfZone(state: SandboxState, zone: Zone): Account {
  const account = state.accounts.get(zone.accountId);
  if (!account) throw authenticationError(403);
  return account;
}

function verifyResult(token: Token) {
  const status = statusOf(token);
  const result: { id: string; status: Token['status']; expires_on?: string } = { id: token.id, status };
  if (token.expiresOn) result.expires_on = token.expiresOn;
  const messages =
    status === 'active' ? [{ code: 10000, message: 'This API Token is valid and active' }] : [];
  return ok(result, undefined, messages);
}

const invalidToken = (): CloudflareError => fail(401, 1000, 'Invalid API Token');

export function registerTokenRoutes(app: FastifyInstance, { state }: SandboxContext): void {
  // Verify answers for disabled and expired tokens too: that is how a client learns the status.
  app.get('/user/tokens/verify', async (request) => {
    const token = readToken(state, request);
    if (!token || token.kind !== 'user') throw invalidToken();
    return verifyResult(token);
  });

  app.get<{ Params: { account_id: string } }>('/accounts/:account_id/tokens/verify', async (request) => {
    const token = readToken(state, request);
    const accountId = request.params.account_id;
    if (!isId(accountId)) throw noRoute(requestPath(request));
    if (!token || token.kind !== 'account' || !token.accountIds.includes(accountId)) throw invalidToken();
    return verifyResult(token);
  });
}
