import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goDurationSeconds, pullDecisions, readStream } from './lapi-client';

/** A Local API that answers as each test says: hostile ones included (huge, malformed, slow). */
let answer: (request: IncomingMessage, response: ServerResponse) => void;
let lapi: Server;
let url: string;

beforeAll(async () => {
  lapi = createServer((request, response) => answer(request, response));
  await new Promise<void>((resolve) => lapi.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(lapi.address() as { port: number }).port}`;
});
afterAll(async () => {
  lapi.closeAllConnections();
  await new Promise((resolve) => lapi.close(resolve));
});

const ban = (id: number, value: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'ban',
  scope: 'Ip',
  value,
  duration: '1h59m58.97s',
  scenario: 'crowdsecurity/ssh-bf',
  origin: 'crowdsec',
  ...extra,
});

describe('reading the decisions stream', () => {
  it('reads Go durations as whole seconds', () => {
    expect(goDurationSeconds('1h59m58.970905175s')).toBe(7198);
    expect(goDurationSeconds('29m58.9s')).toBe(1798);
    expect(goDurationSeconds('59.356261741s')).toBe(59);
    expect(goDurationSeconds('-91.959207ms')).toBe(-1);
    expect(goDurationSeconds('4h')).toBe(14_400);
    expect(goDurationSeconds('soon')).toBeNaN();
  });

  it('keeps ban decisions of scope Ip and Range, and counts the rest', () => {
    const stream = readStream({
      new: [
        ban(1, '192.0.2.1'),
        ban(2, '198.51.100.0/24', { scope: 'Range', duration: '30m' }),
        ban(3, '192.0.2.3', { type: 'captcha' }),
        ban(4, 'FR', { scope: 'Country' }),
        ban(5, '192.0.2.5', { duration: '-3s' }),
        { id: 'x', value: 7 },
        'junk',
      ],
      deleted: [ban(9, '192.0.2.9', { duration: '-1s' }), null],
    });
    expect(stream.fresh.map((decision) => [decision.id, decision.value, decision.seconds])).toEqual([
      [1, '192.0.2.1', 7198],
      [2, '198.51.100.0/24', 1800],
    ]);
    expect(stream.removed.map((decision) => decision.id)).toEqual([9]);
    expect(stream.skipped).toBe(6);
    expect(readStream({ new: null, deleted: null })).toEqual({ fresh: [], removed: [], skipped: 0 });
  });

  it('sends the bouncer key and asks for ip and range decisions, startup or not', async () => {
    const seen: { url?: string; key?: string | string[] }[] = [];
    answer = (request, response) => {
      seen.push({ url: request.url, key: request.headers['x-api-key'] });
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ new: [ban(1, '192.0.2.1')], deleted: null }));
    };
    const stream = await pullDecisions(`${url}/`, 'the-bouncer-key-0001', true);
    await pullDecisions(url, 'the-bouncer-key-0001', false);
    expect(stream.fresh).toHaveLength(1);
    expect(seen).toEqual([
      { url: '/v1/decisions/stream?startup=true&scopes=ip%2Crange', key: 'the-bouncer-key-0001' },
      { url: '/v1/decisions/stream?startup=false&scopes=ip%2Crange', key: 'the-bouncer-key-0001' },
    ]);
  });

  it('refuses a refused key, an error, a non-JSON and a non-stream answer, in words', async () => {
    const cases: [number, string, RegExp][] = [
      [403, '{"message":"access forbidden"}', /refused the bouncer key \(403\)/],
      [500, 'oops', /answered 500/],
      [200, '<html>', /not JSON/],
      [200, '{"new": "everything"}', /not a decisions stream/],
      [200, '[1,2,3]', /not a decisions stream/],
    ];
    for (const [status, body, message] of cases) {
      answer = (_request, response) => {
        response.statusCode = status;
        response.end(body);
      };
      await expect(pullDecisions(url, 'the-bouncer-key-0001', true)).rejects.toThrow(message);
    }
  });

  it('stops reading an answer past its size, whatever its length header says', async () => {
    answer = (_request, response) => {
      // No Content-Length: chunk after chunk, for ever unless the reader stops.
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = () => {
        while (response.write(chunk));
        response.once('drain', write);
      };
      response.write('{"new": [');
      write();
    };
    await expect(pullDecisions(url, 'the-bouncer-key-0001', true, { maxBytes: 1024 * 1024 })).rejects.toThrow(
      /larger than 1\.0 MiB/,
    );
    answer = (_request, response) => {
      response.setHeader('Content-Length', String(1024 * 1024 * 1024));
      response.write('{');
    };
    await expect(pullDecisions(url, 'the-bouncer-key-0001', true, { maxBytes: 1024 * 1024 })).rejects.toThrow(
      /larger than 1\.0 MiB/,
    );
  });

  it('gives up on a Local API that answers too slowly, its headers or its body', async () => {
    answer = () => undefined;
    const started = Date.now();
    await expect(pullDecisions(url, 'the-bouncer-key-0001', true, { timeoutMs: 300 })).rejects.toThrow(
      /did not answer within 0.3 seconds/,
    );
    answer = (_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.write('{"new": [');
    };
    await expect(pullDecisions(url, 'the-bouncer-key-0001', true, { timeoutMs: 300 })).rejects.toThrow(
      /did not answer within 0.3 seconds/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('tells an address nobody listens on', async () => {
    await expect(pullDecisions('http://127.0.0.1:9', 'the-bouncer-key-0001', true)).rejects.toThrow(
      /Could not reach the Local API at http:\/\/127.0.0.1:9/,
    );
  });
});
