import {
  apiKeyEndpoints,
  authEndpoints,
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_SETUP_REQUIRED,
  twoFactorEndpoints,
  userEndpoints,
  type Endpoint,
  type TwoFactorStatus,
} from '@guardian/contract';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';
import { requestTo, type EndpointInput } from '../../test/request';
import { parseUsersCommand, runUsersCommand } from '../users';
import { UsersRepository } from '../users';
import { UsersService } from '../users';
import { CHALLENGE_EXPIRED, CHALLENGE_INVALID } from './challenge-token';
import { TwoFactorRepository } from './two-factor.repository';
import { KEY_SETUP_REQUIRED_MESSAGE, SETUP_REQUIRED_MESSAGE } from './two-factor.gate';
import { TOO_MANY_CODES, TwoFactorService, USED_CODE, WRONG_CODE } from './two-factor.service';
import { AlertCauses } from '../alerts';
import { TokenCipher } from '../../crypto/token-cipher';

let ctx: TestContext;
let addressCounter = 0;
/** A fresh client address per test, so one test's failures never slow another down. */
let address = '';
const STEP = 30_000;
/** The middle of a time step near the real clock (sessions expire by the database's clock). */
let now = 0;

beforeAll(async () => {
  ctx = await createTestContext({
    config: { loginRateLimit: { windowSeconds: 900, maxFailuresPerEmail: 3, maxFailuresPerAddress: 20 } },
  });
});
afterAll(() => ctx?.close());
beforeEach(() => {
  addressCounter += 1;
  address = `10.9.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
  // Only Date is frozen (timers run): the test says which 30-second step it is.
  vi.useFakeTimers({ toFake: ['Date'] });
  now = Math.floor(Date.now() / STEP) * STEP + STEP / 2;
  vi.setSystemTime(now);
});
afterEach(() => vi.useRealTimers());

/** The code an authenticator app shows for `secret`, `steps` time steps from now. */
const codeAt = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now + steps * STEP });
const later = (steps: number) => {
  now += steps * STEP;
  vi.setSystemTime(now);
};

function call(user: TestUser | null, endpoint: Endpoint, input: EndpointInput = {}) {
  return ctx.app.inject({
    ...requestTo(endpoint, input),
    headers: user ? user.headers : {},
    remoteAddress: address,
  });
}

/** Turns two-factor on for the user with a code of the new secret. */
async function enrol(user: TestUser): Promise<{ secret: string; codes: string[] }> {
  const setup = await call(user, twoFactorEndpoints.setup);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enabled = await call(user, twoFactorEndpoints.enable, { payload: { code: codeAt(secret) } });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { secret, codes: enabled.json<{ recovery_codes: string[] }>().recovery_codes };
}

const signIn = (user: TestUser) =>
  call(null, authEndpoints.login, { payload: { email: user.email, password: user.password } });

async function challengeOf(user: TestUser): Promise<string> {
  const response = await signIn(user);
  expect(response.statusCode).toBe(200);
  const body = response.json<{ challenge_token?: string; token?: string }>();
  expect(body.token).toBeUndefined();
  return body.challenge_token!;
}

const secondStep = (challenge: string, code: string) =>
  call(null, authEndpoints.loginTwoFactor, { payload: { challenge_token: challenge, code } });

async function statusOf(user: TestUser): Promise<TwoFactorStatus> {
  const response = await call(user, twoFactorEndpoints.status);
  expect(response.statusCode).toBe(200);
  return response.json<TwoFactorStatus>();
}

describe('turning two-factor on', () => {
  it('shows a secret and its otpauth URI, and turns on only with a right code; then ten recovery codes', async () => {
    const user = await ctx.createUser();
    expect(await statusOf(user)).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
      required: false,
    });
    const setup = (await call(user, twoFactorEndpoints.setup)).json<{
      secret: string;
      otpauth_url: string;
    }>();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Guardian:${user.email}`);
    expect(url.searchParams.get('secret')).toBe(setup.secret);
    expect(url.searchParams.get('issuer')).toBe('Guardian');

    // Stored encrypted, as Cloudflare tokens are.
    const [row] = await ctx.db.query<{ totp_secret: string }>('SELECT totp_secret FROM users WHERE id = $1', [
      user.id,
    ]);
    expect(row!.totp_secret).toMatch(/^v1:/);
    expect(row!.totp_secret).not.toContain(setup.secret);

    const wrong = await call(user, twoFactorEndpoints.enable, { payload: { code: codeAt(setup.secret, 5) } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'BAD_REQUEST', message: WRONG_CODE });
    expect((await statusOf(user)).enabled).toBe(false);

    const enabled = await call(user, twoFactorEndpoints.enable, { payload: { code: codeAt(setup.secret) } });
    expect(enabled.statusCode).toBe(200);
    const codes = enabled.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    const stored = await ctx.db.query<{ code_sha256: Uint8Array }>(
      'SELECT code_sha256 FROM recovery_codes WHERE user_id = $1',
      [user.id],
    );
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    expect(JSON.stringify(stored)).not.toContain(codes[0]);

    expect(await statusOf(user)).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // A secret in use is never replaced behind the person's back.
    expect((await call(user, twoFactorEndpoints.setup)).statusCode).toBe(409);
    expect(
      (await call(user, twoFactorEndpoints.enable, { payload: { code: codeAt(setup.secret, 1) } }))
        .statusCode,
    ).toBe(409);
  });

  it('refuses to turn on without a setup, and a code of an older setup', async () => {
    const user = await ctx.createUser();
    expect((await call(user, twoFactorEndpoints.enable, { payload: { code: '123456' } })).statusCode).toBe(
      409,
    );
    const first = (await call(user, twoFactorEndpoints.setup)).json<{ secret: string }>().secret;
    const second = (await call(user, twoFactorEndpoints.setup)).json<{ secret: string }>().secret;
    expect(second).not.toBe(first);
    expect(
      (await call(user, twoFactorEndpoints.enable, { payload: { code: codeAt(first) } })).statusCode,
    ).toBe(400);
    expect(
      (await call(user, twoFactorEndpoints.enable, { payload: { code: codeAt(second) } })).statusCode,
    ).toBe(200);
  });
});

describe('signing in with two-factor on', () => {
  it('answers a challenge, not a session, to the password; the code of this step or one either side opens the session', async () => {
    const user = await ctx.createUser();
    const { secret } = await enrol(user);
    later(10);

    const challenge = await challengeOf(user);
    // The challenge is no session: the API refuses it as a bearer token.
    const asBearer = await ctx.app.inject({
      ...requestTo(authEndpoints.me),
      headers: { authorization: `Bearer ${challenge}` },
    });
    expect(asBearer.statusCode).toBe(401);

    const tooOld = await secondStep(challenge, codeAt(secret, -2));
    expect(tooOld.statusCode).toBe(401);
    expect(tooOld.json()).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_CODE });
    expect((await secondStep(challenge, codeAt(secret, 2))).statusCode).toBe(401);

    const previous = await secondStep(challenge, codeAt(secret, -1));
    expect(previous.statusCode, previous.body).toBe(200);
    const { token } = previous.json<{ token: string }>();
    const me = await ctx.app.inject({
      ...requestTo(authEndpoints.me),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({ id: user.id, email: user.email });

    // Replay: the same code again, even with a fresh challenge, is refused.
    const replay = await secondStep(await challengeOf(user), codeAt(secret, -1));
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ message: USED_CODE });

    expect((await secondStep(await challengeOf(user), codeAt(secret, 1))).statusCode).toBe(200);
    // A step before the last one used is refused too (its code might have been seen).
    expect((await secondStep(await challengeOf(user), codeAt(secret, 0))).json()).toMatchObject({
      message: USED_CODE,
    });
  });

  it('accepts a recovery code once, typed in any case and with or without its dash', async () => {
    const user = await ctx.createUser();
    const { codes } = await enrol(user);
    const typed = codes[3]!.toUpperCase().replace('-', ' ');
    const first = await secondStep(await challengeOf(user), typed);
    expect(first.statusCode, first.body).toBe(200);
    const again = await secondStep(await challengeOf(user), codes[3]!);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ message: WRONG_CODE });
    expect((await statusOf(user)).recovery_codes_left).toBe(9);
  });

  it('refuses an expired, forged, reused or foreign challenge, and one of a person since disabled or reset', async () => {
    const user = await ctx.createUser();
    const { secret } = await enrol(user);
    later(4);

    const expiring = await challengeOf(user);
    later(11); // 5.5 minutes
    const expired = await secondStep(expiring, codeAt(secret));
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ message: CHALLENGE_EXPIRED });

    // A session token is no challenge, nor is a challenge with a changed payload.
    expect((await secondStep(user.token, codeAt(secret))).json()).toMatchObject({
      message: CHALLENGE_INVALID,
    });
    const challenge = await challengeOf(user);
    const [header, payload, signature] = challenge.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const other = await ctx.createUser();
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(other.id) })).toString('base64url');
    expect((await secondStep(`${header}.${forged}.${signature}`, codeAt(secret))).json()).toMatchObject({
      message: CHALLENGE_INVALID,
    });

    // Bound to its person: another person's code does not fit it.
    const { secret: otherSecret } = await enrol(other);
    later(1);
    expect((await secondStep(challenge, codeAt(otherSecret))).json()).toMatchObject({ message: WRONG_CODE });

    // Used once: after it opened a session it is refused, even with a new right code.
    expect((await secondStep(challenge, codeAt(secret))).statusCode).toBe(200);
    later(1);
    expect((await secondStep(challenge, codeAt(secret))).json()).toMatchObject({
      message: CHALLENGE_INVALID,
    });

    const pending = await challengeOf(user);
    await ctx.db.query('UPDATE users SET disabled = true WHERE id = $1', [user.id]);
    expect((await secondStep(pending, codeAt(secret))).statusCode).toBe(401);
    await ctx.db.query('UPDATE users SET disabled = false WHERE id = $1', [user.id]);

    const beforeReset = await challengeOf(user);
    await ctx.db.query('UPDATE users SET totp_enabled_at = NULL WHERE id = $1', [user.id]);
    expect((await secondStep(beforeReset, codeAt(secret, 1))).json()).toMatchObject({
      message: CHALLENGE_INVALID,
    });
  });

  it('has its own rate limit per person, wherever the codes come from', async () => {
    const user = await ctx.createUser();
    const { secret } = await enrol(user);
    later(3);
    const challenge = await challengeOf(user);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      address = `10.8.0.${attempt + 1}`;
      expect((await secondStep(challenge, '000000')).statusCode).toBe(401);
    }
    address = '10.8.0.99';
    const limited = await secondStep(challenge, codeAt(secret));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: TOO_MANY_CODES });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('records each second step in the person’s audit trail, without the code or the challenge', async () => {
    const user = await ctx.createUser();
    const { secret } = await enrol(user);
    later(2);
    const challenge = await challengeOf(user);
    expect((await secondStep(challenge, '000000')).statusCode).toBe(401);
    expect((await secondStep(challenge, codeAt(secret))).statusCode).toBe(200);
    // An anonymous flood of made-up challenges is not recorded.
    expect((await secondStep('not.a.challenge', '000000')).statusCode).toBe(401);
    const rows = await ctx.db.query<{ user_id: number; actor: string; outcome: string; target: unknown }>(
      "SELECT user_id, actor, outcome, target FROM audit_events WHERE action = 'auth.loginTwoFactor' ORDER BY id",
    );
    const mine = rows.filter((row) => row.user_id === user.id);
    expect(mine.map((row) => row.outcome)).toEqual(['refused', 'success']);
    expect(mine[0]!.actor).toBe(user.email);
    expect(rows.every((row) => row.user_id !== null)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(challenge);
    expect(JSON.stringify(rows)).not.toContain(codeAt(secret));
  });
});

describe('turning two-factor off and new recovery codes', () => {
  it('take the password or a code; a wrong one is a 400 that keeps the session', async () => {
    const user = await ctx.createUser();
    const { secret, codes } = await enrol(user);
    later(2);
    const neither = await call(user, twoFactorEndpoints.disable, { payload: {} });
    expect(neither.statusCode).toBe(400);
    const wrongPassword = await call(user, twoFactorEndpoints.disable, {
      payload: { password: 'not it at all' },
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect((await call(user, authEndpoints.me)).statusCode).toBe(200);

    const fresh = await call(user, twoFactorEndpoints.regenerateRecoveryCodes, {
      payload: { code: codeAt(secret) },
    });
    expect(fresh.statusCode).toBe(200);
    const newCodes = fresh.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(newCodes).toHaveLength(10);
    expect(newCodes).not.toContain(codes[0]);
    // The old codes stopped working.
    expect((await secondStep(await challengeOf(user), codes[0]!)).statusCode).toBe(401);
    expect((await secondStep(await challengeOf(user), newCodes[0]!)).statusCode).toBe(200);

    const off = await call(user, twoFactorEndpoints.disable, { payload: { password: user.password } });
    expect(off.statusCode).toBe(204);
    expect(await statusOf(user)).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    const [row] = await ctx.db.query<{ totp_secret: string | null }>(
      'SELECT totp_secret FROM users WHERE id = $1',
      [user.id],
    );
    expect(row!.totp_secret).toBeNull();
    const signedIn = await signIn(user);
    expect(signedIn.json<{ token?: string }>().token).toBeTruthy();
    expect(
      (await call(user, twoFactorEndpoints.disable, { payload: { password: user.password } })).statusCode,
    ).toBe(409);
  });
});

describe('confirming with the password or a code', () => {
  it('is under the second step’s limit, so a stolen session cannot guess them', async () => {
    const user = await ctx.createUser();
    const { secret } = await enrol(user);
    later(2);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const wrong = await call(user, twoFactorEndpoints.disable, {
        payload: { password: `guess ${attempt}` },
      });
      expect(wrong.statusCode).toBe(400);
    }
    const limited = await call(user, twoFactorEndpoints.disable, { payload: { password: user.password } });
    expect(limited.statusCode).toBe(429);
    expect(
      (await call(user, twoFactorEndpoints.regenerateRecoveryCodes, { payload: { code: codeAt(secret) } }))
        .statusCode,
    ).toBe(429);
    expect((await statusOf(user)).enabled).toBe(true);
  });
});

describe('administrators', () => {
  it('require two-factor of everyone: a person without it signs in to enrol and may do nothing else until then', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const key = (
      await call(user, apiKeyEndpoints.create, { payload: { name: 'script', access: 'read' } })
    ).json<{ key: string }>().key;

    expect((await call(user, twoFactorEndpoints.require)).statusCode).toBe(403);
    const required = await call(admin, twoFactorEndpoints.require);
    expect(required.json()).toEqual({ required: true });
    try {
      expect((await call(admin, twoFactorEndpoints.policy)).json()).toEqual({ required: true });
      const signedIn = await signIn(user);
      expect(signedIn.json()).toMatchObject({ two_factor_setup_required: true });
      const session = {
        ...user,
        headers: { authorization: `Bearer ${signedIn.json<{ token: string }>().token}` },
      };

      const refused = await call(session, apiKeyEndpoints.list);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: SETUP_REQUIRED_MESSAGE,
        errors: [{ code: TWO_FACTOR_SETUP_REQUIRED }],
      });
      expect((await call(session, authEndpoints.me)).statusCode).toBe(200);
      expect((await call(session, twoFactorEndpoints.status)).json()).toMatchObject({
        required: true,
        enabled: false,
      });
      // Nor do their scripts' keys, until they turn it on.
      const byKey = () =>
        ctx.app.inject({
          ...requestTo({ method: 'GET', path: '/api/cloudflare/accounts' }),
          headers: { authorization: `Bearer ${key}` },
        });
      const refusedKey = await byKey();
      expect(refusedKey.statusCode).toBe(403);
      expect(refusedKey.json().message).toBe(KEY_SETUP_REQUIRED_MESSAGE);

      await enrol(session);
      expect((await call(session, apiKeyEndpoints.list)).statusCode).toBe(200);
      expect((await byKey()).statusCode).toBe(200);
      // Required: it cannot be turned off.
      const off = await call(session, twoFactorEndpoints.disable, { payload: { password: user.password } });
      expect(off.statusCode).toBe(409);
    } finally {
      expect((await call(admin, twoFactorEndpoints.unrequire)).json()).toEqual({ required: false });
    }
    expect((await call(admin, twoFactorEndpoints.policy)).json()).toEqual({ required: false });
  });

  it('keep the gate’s answer between requests: refused again (a HEAD, a change too) until it is lifted, then at once', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const head = (who: TestUser) =>
      ctx.app.inject({ method: 'HEAD', url: apiKeyEndpoints.list.path, headers: who.headers });
    const create = (who: TestUser) =>
      call(who, apiKeyEndpoints.create, { payload: { name: 'script', access: 'read' } });
    expect((await call(user, apiKeyEndpoints.list)).statusCode).toBe(200);
    expect((await call(admin, twoFactorEndpoints.require)).statusCode).toBe(200);
    try {
      // The first asks the database, the next ones take the answer kept: the same refusal.
      for (let i = 0; i < 3; i++) {
        const refused = await call(user, apiKeyEndpoints.list);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ errors: [{ code: TWO_FACTOR_SETUP_REQUIRED }] });
      }
      expect((await head(user)).statusCode).toBe(403);
      expect((await create(user)).statusCode).toBe(403);
      expect((await call(user, authEndpoints.me)).statusCode).toBe(200);
      // An administrator without it is kept to enrolment too, but may see and lift the requirement.
      expect((await call(admin, apiKeyEndpoints.list)).statusCode).toBe(403);
      expect((await call(admin, twoFactorEndpoints.policy)).statusCode).toBe(200);
    } finally {
      expect((await call(admin, twoFactorEndpoints.unrequire)).statusCode).toBe(200);
    }
    expect((await call(user, apiKeyEndpoints.list)).statusCode).toBe(200);
    expect((await head(user)).statusCode).toBe(200);
    expect((await create(user)).statusCode).toBe(201);
  });

  it('reset a person’s two-factor, ending their sessions; only administrators, and a 404 for nobody', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    await enrol(user);
    const target = { params: { id: user.id } };
    const byUser = await call(user, twoFactorEndpoints.reset, target);
    expect(byUser.statusCode).toBe(403);
    expect((await statusOf(user)).enabled).toBe(true);

    expect((await call(admin, twoFactorEndpoints.reset, target)).statusCode).toBe(204);
    expect((await call(user, authEndpoints.me)).statusCode).toBe(401);
    const [row] = await ctx.db.query<{ totp_secret: string | null; codes: number }>(
      'SELECT totp_secret, (SELECT count(*)::int FROM recovery_codes WHERE user_id = $1) AS codes FROM users WHERE id = $1',
      [user.id],
    );
    expect(row).toEqual({ totp_secret: null, codes: 0 });
    expect((await signIn(user)).json<{ token?: string }>().token).toBeTruthy();
    // Nothing on: nothing to reset, and the sessions stay.
    expect((await call(admin, twoFactorEndpoints.reset, target)).statusCode).toBe(204);
    expect((await call(admin, twoFactorEndpoints.reset, { params: { id: 999_999 } })).statusCode).toBe(404);
    expect((await call(admin, userEndpoints.list)).statusCode).toBe(200);
  });

  it('the users command resets a person’s two-factor too (the only administrator lost phone and codes)', async () => {
    const admin = await ctx.createUser({ level: 0 });
    await enrol(admin);
    const printed: string[] = [];
    const run = (line: string) =>
      runUsersCommand(
        parseUsersCommand(line.split(' ')),
        new UsersService(new UsersRepository(ctx.db), ctx.config.passwordHashing),
        (text) => printed.push(text),
        () => Promise.reject(new Error('no password is asked')),
        // As users-cli.ts builds it: the service, with the alert raised by the reset.
        (email) =>
          new TwoFactorService(
            new TwoFactorRepository(ctx.db),
            new TokenCipher(ctx.config.encryptionKey),
            ctx.config,
            new AlertCauses(ctx.db, (err) => {
              throw err;
            }).twoFactorReset,
          ).resetByEmail(email),
      );
    await run(`reset-two-factor --email ${admin.email.toUpperCase()}`);
    expect(printed.join('\n')).toContain(`Turned off two-factor sign-in for ${admin.email.toUpperCase()}`);
    const [alert] = await ctx.db.query<{ kind: string; state: string }>(
      'SELECT kind, state FROM alerts WHERE user_id = $1',
      [admin.id],
    );
    expect(alert).toEqual({ kind: 'two-factor-reset', state: 'open' });
    expect((await signIn(admin)).json<{ token?: string }>().token).toBeTruthy();
    expect((await call(admin, authEndpoints.me)).statusCode).toBe(401);
    await expect(run('reset-two-factor --email nobody@example.com')).rejects.toThrow(
      'No user has the e-mail',
    );
  });
});
