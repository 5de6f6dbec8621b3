import { beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  authEndpoints,
  banListItemEndpoints,
  signInRoutes,
  dnsRecordEndpoints,
  firewallRuleEndpoints,
  zoneEndpoints,
  type BanListItemsPage,
  type DnsRecord,
} from '@guardian/contract';
import { jsonResponse } from '../test/render-app';
import {
  api,
  ApiError,
  callEndpoint,
  errorMessage,
  setTwoFactorSetupHandler,
  setUnauthorizedHandler,
} from './api';
import { getToken, setToken } from './auth-token';
import { sessionToken } from '../test/token';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

function lastRequest() {
  const [url, init] = fetchMock.mock.calls.at(-1) ?? [];
  return { url, init, headers: (init?.headers ?? {}) as Record<string, string> };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('api', () => {
  it('sends the bearer token and JSON, and returns the parsed answer', async () => {
    setToken('tok');
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 7 }));
    await expect(api.post('/cloudflare/accounts', { account_name: 'a', token: 't' })).resolves.toEqual({
      id: 7,
    });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/cloudflare/accounts');
    expect(init?.method).toBe('POST');
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe(JSON.stringify({ account_name: 'a', token: 't' }));
  });

  it('builds the query string and leaves empty values out', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, []));
    await api.get('/cloudflare/banlists/abc/items', {
      query: { search: '10.0 /8', page: 2, skip: undefined },
    });
    expect(lastRequest().url).toBe('/api/cloudflare/banlists/abc/items?search=10.0+%2F8&page=2');
  });

  it('sends no token on login, even when one is stored', async () => {
    setToken('old');
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 'new' }));
    await api.post('/login', { email: 'a@b.co', password: 'x' });
    expect(lastRequest().headers.Authorization).toBeUndefined();
  });

  it('returns undefined for an empty answer (204)', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(api.delete('/cloudflare/zones/1')).resolves.toBeUndefined();
    expect(lastRequest().init?.method).toBe('DELETE');
  });

  it('throws an ApiError carrying the status, the error body and its message', async () => {
    const body = { code: 'NOT_FOUND', message: 'Zone not found.', errors: [{ message: 'Zone not found.' }] };
    fetchMock.mockResolvedValue(jsonResponse(404, body));
    const error = await caught(api.get('/cloudflare/zones/9/dns'));
    expect(error.status).toBe(404);
    expect(error.body).toEqual(body);
    expect(error.message).toBe('Zone not found.');
    expect(errorMessage(error, 'Failed to fetch DNS records.')).toBe('Zone not found.');
  });

  it('keeps the message of a body outside the contract, and falls back without one', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(502, { message: 'Bad gateway' }));
    const foreign = await caught(api.get('/cloudflare/zones'));
    expect(foreign.body).toBeNull();
    expect(foreign.serverMessage).toBe('Bad gateway');

    fetchMock.mockResolvedValueOnce(new Response('<html>oops</html>', { status: 500 }));
    const html = await caught(api.get('/cloudflare/zones'));
    expect(html.serverMessage).toBeNull();
    expect(errorMessage(html, 'Failed to fetch zones.')).toBe('Failed to fetch zones.');
  });

  it('throws an ApiError with status 0 when no answer arrives', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await caught(api.get('/cloudflare/zones'));
    expect(error.status).toBe(0);
    expect(error.isNetworkError).toBe(true);
    expect(errorMessage(error, 'Failed to fetch zones.')).toBe('Failed to fetch zones.');
  });

  it('on a 401 removes the token and hands over to the unauthorized handler', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    setToken('expired');
    fetchMock.mockResolvedValue(
      jsonResponse(401, { code: 'UNAUTHORIZED', message: 'Invalid token.', errors: [] }),
    );
    const error = await caught(api.get('/cloudflare/accounts'));
    expect(error.status).toBe(401);
    expect(getToken()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('tells the unauthorized handler whose session ended (only they return to this page)', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    setToken(sessionToken({ userId: 7 }));
    fetchMock.mockResolvedValue(jsonResponse(401, { code: 'UNAUTHORIZED', message: 'Ended.', errors: [] }));
    await caught(api.get('/cloudflare/accounts'));
    expect(onUnauthorized).toHaveBeenCalledWith('7');
  });

  it('treats a 401 from login as wrong credentials, not an ended session', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockResolvedValue(
      jsonResponse(401, { code: 'UNAUTHORIZED', message: 'Wrong e-mail or password.', errors: [] }),
    );
    const error = await caught(api.post('/login', { email: 'a@b.co', password: 'x' }));
    expect(error.serverMessage).toBe('Wrong e-mail or password.');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("treats a 401 from sign-in's second step (a wrong code) the same way", async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    setToken('stale');
    fetchMock.mockResolvedValue(
      jsonResponse(401, { code: 'UNAUTHORIZED', message: 'That code is not right.', errors: [] }),
    );
    await caught(api.post('/login/two-factor', { challenge_token: 'c', code: '000000' }));
    expect(lastRequest().headers.Authorization).toBeUndefined();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('on a 403 for two-factor not yet on (required), hands over to the two-factor setup handler', async () => {
    const onSetup = vi.fn();
    setTwoFactorSetupHandler(onSetup);
    setToken('valid');
    const message = 'Your administrator requires two-factor sign-in.';
    fetchMock.mockResolvedValueOnce(
      jsonResponse(403, {
        code: 'FORBIDDEN',
        message,
        errors: [{ code: 'two_factor_setup_required', message }],
      }),
    );
    expect((await caught(api.get('/cloudflare/accounts'))).status).toBe(403);
    expect(onSetup).toHaveBeenCalledOnce();
    expect(getToken()).toBe('valid');
    fetchMock.mockResolvedValueOnce(
      jsonResponse(403, { code: 'FORBIDDEN', message: 'Only administrators can do this.', errors: [] }),
    );
    await caught(api.get('/admin/users'));
    expect(onSetup).toHaveBeenCalledOnce();
  });
});

describe('callEndpoint', () => {
  it("takes the declaration's method and path, each param encoded", async () => {
    setToken('tok');
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const answer = callEndpoint(banListItemEndpoints.remove, { params: { list_id: 'a/b c?', item_id: 7 } });
    expectTypeOf(answer).resolves.toBeUndefined();
    await expect(answer).resolves.toBeUndefined();
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/cloudflare/banlists/a%2Fb%20c%3F/items/7');
    expect(init?.method).toBe('DELETE');
    expect(init?.body).toBeUndefined();
    expect(headers.Authorization).toBe('Bearer tok');
  });

  it('builds the query from its values and leaves undefined and null ones out', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { items: [] })));
    const page = callEndpoint(banListItemEndpoints.page, {
      params: { list_id: 'list-1' },
      query: { search: undefined, page: 2, sort: 'ip', order: undefined, per_page: null },
    });
    expectTypeOf(page).resolves.toEqualTypeOf<BanListItemsPage>();
    await page;
    expect(lastRequest().url).toBe('/api/cloudflare/banlists/list-1/items?page=2&sort=ip');
    expect(lastRequest().init?.method).toBe('GET');

    await callEndpoint(zoneEndpoints.list);
    expect(lastRequest().url).toBe('/api/cloudflare/zones');

    fetchMock.mockImplementation(() => Promise.resolve(new Response(null, { status: 204 })));
    await callEndpoint(firewallRuleEndpoints.remove, {
      params: { zone_id: 'z1', rule_id: 'r1' },
      query: { filter_id: 'f 1' },
    });
    expect(lastRequest().url).toBe('/api/cloudflare/zones/z1/firewall-rules/r1?filter_id=f+1');
  });

  it('sends the body as JSON with its content type and answers the parsed success body', async () => {
    const record = { type: 'A', name: 'www', content: '192.0.2.1', ttl: 1, proxied: false } as const;
    fetchMock.mockResolvedValue(jsonResponse(201, { id: 'abc', ...record }));
    const created = callEndpoint(dnsRecordEndpoints.add, { params: { zone_id: 'zone 1' }, body: record });
    expectTypeOf(created).resolves.toEqualTypeOf<DnsRecord>();
    await expect(created).resolves.toEqual({ id: 'abc', ...record });
    const { url, init, headers } = lastRequest();
    expect(url).toBe('/api/cloudflare/zones/zone%201/dns');
    expect(init?.method).toBe('POST');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init?.body).toBe(JSON.stringify(record));
  });

  it("keeps the client's errors: an ApiError, and a 401 from sign-in is not an ended session", async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    setToken('stale');
    fetchMock.mockResolvedValue(
      jsonResponse(401, { code: 'UNAUTHORIZED', message: 'Wrong e-mail or password.', errors: [] }),
    );
    const error = await caught(
      callEndpoint<typeof authEndpoints.login>(signInRoutes.login, {
        body: { email: 'a@b.co', password: 'x' },
      }),
    );
    expect(error.status).toBe(401);
    expect(error.serverMessage).toBe('Wrong e-mail or password.');
    expect(lastRequest().url).toBe('/api/login');
    expect(lastRequest().headers.Authorization).toBeUndefined();
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(getToken()).toBe('stale');

    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect((await caught(callEndpoint(zoneEndpoints.sync))).isNetworkError).toBe(true);
  });

  it('checks its call against the declaration at compile time', () => {
    // Only the types are checked (by tsc): the calls are never made.
    const calls = () => {
      // @ts-expect-error the path's params are required
      void callEndpoint(dnsRecordEndpoints.list);
      // @ts-expect-error an unknown param
      void callEndpoint(dnsRecordEndpoints.list, { params: { zone: 'z' } });
      // @ts-expect-error the body is required and must be the declared request
      void callEndpoint(dnsRecordEndpoints.add, { params: { zone_id: 'z' }, body: { type: 'A' } });
      // @ts-expect-error no body on a GET that declares none
      void callEndpoint(zoneEndpoints.list, { body: {} });
      // @ts-expect-error filter_id is a required query field
      void callEndpoint(firewallRuleEndpoints.remove, { params: { zone_id: 'z', rule_id: 'r' }, query: {} });
      // A zod-free route stands for its declaration only when named with it, and only its own.
      void callEndpoint<typeof authEndpoints.login>(signInRoutes.login, {
        body: { email: 'e', password: 'p' },
      });
      // @ts-expect-error another endpoint's route
      void callEndpoint<typeof authEndpoints.login>(signInRoutes.loginTwoFactor, {
        body: { email: 'e', password: 'p' },
      });
      // @ts-expect-error a route alone is not a declaration
      void callEndpoint(signInRoutes.login, { body: { email: 'e', password: 'p' } });
    };
    expect(calls).toBeTypeOf('function');
  });
});
