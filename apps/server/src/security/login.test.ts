import { randomBytes } from 'node:crypto';
import { authEndpoints, healthEndpoints } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestContext, type TestContext } from '../test/context';
import { requestTo } from '../test/request';

/**
 * Sign-in under attack. auth.test.ts covers the basic answers (same 401 for a wrong password, an
 * unknown e-mail and a disabled account; 429 after repeated failures per e-mail and address, and per
 * address); this file adds what an attacker would try next: production-strength hashes, timing, bursts
 * of parallel guesses, forged client addresses, enumeration through the limiter, and the limiter as a
 * lockout weapon against the owner.
 */

let ctx: TestContext;
let address = 0;
const nextAddress = () => `172.16.${Math.floor(++address / 250)}.${address % 250}`;
const LIMITS = { windowSeconds: 900, maxFailuresPerEmail: 5, maxFailuresPerAddress: 8 };

beforeAll(async () => {
  // Production's argon2id cost, so timings are those a real attacker would measure.
  const production = loadConfig({
    GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
    GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  ctx = await createTestContext({
    config: { passwordHashing: production.passwordHashing, loginRateLimit: LIMITS },
  });
});
afterAll(() => ctx?.close());

function login(body: object, remoteAddress = nextAddress(), headers: Record<string, string> = {}) {
  return ctx.app.inject({ ...requestTo(authEndpoints.login, { payload: body }), remoteAddress, headers });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe('password storage', () => {
  it('stores argon2id hashes with at least OWASP’s cost in production, never the password', async () => {
    const production = loadConfig({
      GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
      GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    expect(production.passwordHashing.memoryCost).toBeGreaterThanOrEqual(19456);
    expect(production.passwordHashing.timeCost).toBeGreaterThanOrEqual(2);

    const user = await ctx.createUser({ password: 'a distinctive passphrase 42' });
    const [row] = await ctx.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [user.id],
    );
    const { memoryCost, timeCost, parallelism } = ctx.config.passwordHashing;
    const [, algorithm, version, params] = row!.password_hash.split('$');
    expect(algorithm).toBe('argon2id');
    expect(version).toBe('v=19');
    expect(Object.fromEntries(params!.split(',').map((pair) => pair.split('=')))).toEqual({
      m: String(memoryCost),
      t: String(timeCost),
      p: String(parallelism),
    });
    expect(row!.password_hash).not.toContain('distinctive');
    // Salted: the same password twice gives two hashes.
    const twin = await ctx.createUser({ password: 'a distinctive passphrase 42' });
    const [twinRow] = await ctx.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [twin.id],
    );
    expect(twinRow!.password_hash).not.toBe(row!.password_hash);
  });
});

describe('no user enumeration', () => {
  it('answers an unknown e-mail, a wrong password and a disabled account byte for byte alike', async () => {
    const user = await ctx.createUser();
    const disabled = await ctx.createUser({ disabled: true });
    const answers = await Promise.all([
      login({ email: user.email, password: 'wrong password' }),
      login({ email: 'nobody-at-all@example.com', password: 'wrong password' }),
      login({ email: disabled.email, password: disabled.password }),
    ]);
    const shape = (response: (typeof answers)[number]) => {
      const { date, 'x-request-id': _id, ...headers } = response.headers;
      void date;
      return { status: response.statusCode, body: response.body, headers };
    };
    expect(shape(answers[1]!)).toEqual(shape(answers[0]!));
    expect(shape(answers[2]!)).toEqual(shape(answers[0]!));
  });

  it('takes as long for an unknown e-mail as for a known one (medians of interleaved runs)', async () => {
    const ROUNDS = 15;
    // A fresh user per round, so the per-e-mail limit never answers instead of the password check.
    const users = await Promise.all(Array.from({ length: ROUNDS }, () => ctx.createUser()));
    const disabled = await Promise.all(
      Array.from({ length: ROUNDS }, () => ctx.createUser({ disabled: true })),
    );
    const cases = {
      wrongPassword: (round: number) => ({ email: users[round]!.email, password: 'not the password' }),
      unknownEmail: (round: number) => ({
        email: `ghost-${round}-${Date.now()}@example.com`,
        password: 'not the password',
      }),
      disabled: (round: number) => ({ email: disabled[round]!.email, password: disabled[round]!.password }),
    };
    const times: Record<keyof typeof cases, number[]> = { wrongPassword: [], unknownEmail: [], disabled: [] };
    // Interleaved, so a burst of load from other processes hits every case alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of Object.keys(cases) as (keyof typeof cases)[]) {
        await ctx.app.inject(requestTo(healthEndpoints.check));
        const started = process.hrtime.bigint();
        const response = await login(cases[name](round));
        times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
        expect(response.statusCode).toBe(401);
      }
    }
    const known = median(times.wrongPassword);
    // Factors generous enough for a busy machine, and far from a missing hash check, which would make
    // the unknown case 10-100x faster (a ratio of 0.1 or less).
    for (const name of ['unknownEmail', 'disabled'] as const) {
      const ratio = median(times[name]) / known;
      const figures = `${name}: ${median(times[name]).toFixed(1)} ms vs ${known.toFixed(1)} ms`;
      expect(ratio, figures).toBeGreaterThan(0.3);
      expect(ratio, figures).toBeLessThan(3);
    }
    // And the work is real: production argon2id takes milliseconds, not microseconds.
    expect(known).toBeGreaterThan(5);
  });

  it('limits unknown and known e-mails after the same number of failures, with the same answer', async () => {
    const user = await ctx.createUser();
    const unknown = `not-registered-${Date.now()}@example.com`;
    const [knownFrom, unknownFrom] = [nextAddress(), nextAddress()];
    const answers: Record<string, number[]> = { known: [], unknown: [] };
    for (let i = 0; i < LIMITS.maxFailuresPerEmail + 1; i++) {
      answers.known!.push((await login({ email: user.email, password: 'wrong' }, knownFrom)).statusCode);
      answers.unknown!.push((await login({ email: unknown, password: 'wrong' }, unknownFrom)).statusCode);
    }
    expect(answers.known).toEqual([...Array(LIMITS.maxFailuresPerEmail).fill(401), 429]);
    expect(answers.unknown).toEqual(answers.known);
    const [known, stranger] = await Promise.all([
      login({ email: user.email, password: 'wrong' }, knownFrom),
      login({ email: unknown, password: 'wrong' }, unknownFrom),
    ]);
    expect(stranger.body).toBe(known.body);
  });
});

describe('rate limiting', () => {
  it('says clearly why and when: 429, a message and retry-after', async () => {
    const user = await ctx.createUser();
    const from = nextAddress();
    for (let i = 0; i < LIMITS.maxFailuresPerEmail; i++)
      await login({ email: user.email, password: 'wrong' }, from);
    const blocked = await login({ email: user.email, password: user.password }, from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many sign-in attempts. Please wait a few minutes and try again.',
      errors: [
        {
          code: 'RATE_LIMITED',
          message: 'Too many sign-in attempts. Please wait a few minutes and try again.',
        },
      ],
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('cannot be outrun by a burst of parallel guesses on one e-mail', async () => {
    const user = await ctx.createUser();
    const from = nextAddress();
    const burst = await Promise.all(
      Array.from({ length: 30 }, () => login({ email: user.email, password: 'a guess' }, from)),
    );
    const statuses = burst.map((response) => response.statusCode);
    // Only as many guesses as the limit allows are checked; the rest are refused without a check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMITS.maxFailuresPerEmail);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LIMITS.maxFailuresPerEmail);
  });

  it('cannot be outrun by a burst of parallel guesses from one address', async () => {
    const from = nextAddress();
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login({ email: `spray-${i}-${Date.now()}@example.com`, password: 'Winter2024!' }, from),
      ),
    );
    const statuses = burst.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMITS.maxFailuresPerAddress);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LIMITS.maxFailuresPerAddress);
  });

  it('lets a crowd with the right passwords in: an office behind one address, one person on many tabs', async () => {
    const office = nextAddress();
    const people = await Promise.all(
      Array.from({ length: LIMITS.maxFailuresPerAddress * 2 }, () => ctx.createUser()),
    );
    const crowd = await Promise.all(
      people.map((person) => login({ email: person.email, password: person.password }, office)),
    );
    expect(crowd.map((response) => response.statusCode)).toEqual(people.map(() => 200));
    const tabs = await Promise.all(
      Array.from({ length: LIMITS.maxFailuresPerEmail * 2 }, () =>
        login({ email: people[0]!.email, password: people[0]!.password }),
      ),
    );
    expect(tabs.map((response) => response.statusCode)).toEqual(tabs.map(() => 200));
  });

  it('a right password inside a burst still counts once the limit is reached', async () => {
    const user = await ctx.createUser();
    const from = nextAddress();
    const burst = await Promise.all([
      ...Array.from({ length: LIMITS.maxFailuresPerEmail }, () =>
        login({ email: user.email, password: 'wrong' }, from),
      ),
    ]);
    expect(burst.every((response) => response.statusCode === 401)).toBe(true);
    expect((await login({ email: user.email, password: user.password }, from)).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For unless a proxy is trusted, so a forged header buys no fresh address', async () => {
    expect(ctx.config.trustProxy).toBe(false);
    const from = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.maxFailuresPerAddress + 2; i++) {
      const response = await login({ email: `xff-${i}@example.com`, password: 'guess' }, from, {
        'x-forwarded-for': `203.0.113.${i + 1}`,
        'x-real-ip': `203.0.113.${i + 1}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(LIMITS.maxFailuresPerAddress)).toEqual([429, 429]);
  });

  it('counts an e-mail however it is spelled (case and spaces)', async () => {
    const user = await ctx.createUser();
    const from = nextAddress();
    const spellings = [
      user.email,
      user.email.toUpperCase(),
      ` ${user.email} `,
      user.email.replace(/^./, (c) => c.toUpperCase()),
    ];
    for (let i = 0; i < LIMITS.maxFailuresPerEmail; i++) {
      expect(
        (await login({ email: spellings[i % spellings.length]!, password: 'wrong' }, from)).statusCode,
      ).toBe(401);
    }
    expect(
      (await login({ email: `  ${user.email.toUpperCase()}`, password: user.password }, from)).statusCode,
    ).toBe(429);
  });

  it('slows each guessing address down progressively: every next guess waits longer', async () => {
    const user = await ctx.createUser();
    const from = nextAddress();
    for (let i = 0; i < LIMITS.maxFailuresPerEmail; i++)
      await login({ email: user.email, password: 'wrong' }, from);
    const first = await login({ email: user.email, password: 'wrong' }, from);
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await login({ email: user.email, password: 'wrong' }, from)).statusCode).toBe(401);
    expect((await login({ email: user.email, password: 'wrong' }, from)).headers['retry-after']).toBe('2');
  });
});

describe('no lockout weapon (issue 13)', () => {
  it('lets the owner sign in while someone elsewhere keeps guessing their password', async () => {
    const owner = await ctx.createUser();
    const attackers = [nextAddress(), nextAddress(), nextAddress()];
    for (let i = 0; i < LIMITS.maxFailuresPerEmail * 6; i++) {
      await login({ email: owner.email, password: `guess ${i}` }, attackers[i % attackers.length]);
    }
    const home = nextAddress();
    expect((await login({ email: owner.email, password: owner.password }, home)).statusCode).toBe(200);
  });

  it('lets people who signed in from an address before keep signing in while it sprays e-mails', async () => {
    const office = nextAddress();
    const colleague = await ctx.createUser();
    expect((await login({ email: colleague.email, password: colleague.password }, office)).statusCode).toBe(
      200,
    );
    for (let i = 0; i < LIMITS.maxFailuresPerAddress; i++) {
      await login({ email: `sprayed-${i}-${Date.now()}@example.com`, password: 'Winter2024!' }, office);
    }
    expect(
      (await login({ email: `one-more-${Date.now()}@example.com`, password: 'x' }, office)).statusCode,
    ).toBe(429);
    expect((await login({ email: colleague.email, password: colleague.password }, office)).statusCode).toBe(
      200,
    );
  });
});

describe('behind a reverse proxy (GUARDIAN_TRUST_PROXY)', () => {
  let proxied: TestContext;
  beforeAll(async () => {
    proxied = await createTestContext({ config: { trustProxy: 1, loginRateLimit: LIMITS } });
  });
  afterAll(() => proxied?.close());

  it('takes the client address the trusted proxy appended, not the ones the client wrote before it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.maxFailuresPerAddress + 2; i++) {
      const response = await proxied.app.inject({
        ...requestTo(authEndpoints.login, {
          payload: { email: `behind-proxy-${i}@example.com`, password: 'guess' },
        }),
        remoteAddress: '10.0.0.2',
        // The client forges a fresh left-most entry every time; the proxy appends what it saw.
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}, 198.51.100.7` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(LIMITS.maxFailuresPerAddress)).toEqual([429, 429]);
    const neighbour = await proxied.app.inject({
      ...requestTo(authEndpoints.login, {
        payload: { email: 'behind-proxy-next@example.com', password: 'guess' },
      }),
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '198.51.100.8' },
    });
    expect(neighbour.statusCode).toBe(401);
  });
});
