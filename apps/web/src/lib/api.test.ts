import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render-app';
import { api, ApiError, errorMessage, setUnauthorizedHandler } from './api';
import { getToken, setToken } from './auth-token';

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
});
