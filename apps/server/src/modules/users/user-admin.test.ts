import {
  authEndpoints,
  ownAccountEndpoints,
  PASSWORD_LINK_TTL_HOURS,
  passwordLinkEndpoints,
  USERS_MAX_PER_PAGE,
  userEndpoints,
  type Endpoint,
  type OwnSession,
  type PasswordSetupResult,
  type User,
  type UsersPage,
} from '@guardian/contract';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';
import { requestTo, type EndpointInput } from '../../test/request';
import { insertListRows } from '../../test/list-rows';
import { LAST_ADMIN } from './users.service';

let ctx: TestContext;
let addressCounter = 0;
/** A fresh client address per test, so one test's failures never slow another down. */
let address = '';

beforeAll(async () => {
  ctx = await createTestContext({
    config: { loginRateLimit: { windowSeconds: 900, maxFailuresPerEmail: 3, maxFailuresPerAddress: 5 } },
  });
});
afterAll(() => ctx?.close());
beforeEach(() => {
  addressCounter += 1;
  address = `10.8.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
});

const call = (who: Pick<TestUser, 'headers'> | null, endpoint: Endpoint, input: EndpointInput = {}) =>
  ctx.app.inject({ ...requestTo(endpoint, input), headers: who?.headers ?? {}, remoteAddress: address });
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const me = (who: Pick<TestUser, 'headers'>) => call(who, authEndpoints.me);
const login = (email: string, password: string) =>
  call(null, authEndpoints.login, { payload: { email, password } });

/** Makes `admin` the only active administrator (every other one becomes level 1). */
async function onlyAdmin(admin: TestUser): Promise<void> {
  await ctx.db.query('UPDATE users SET level = 1 WHERE level = 0 AND id <> $1', [admin.id]);
}
const activeAdmins = async () =>
  (
    await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE level = 0 AND NOT disabled')
  )[0]!.n;

describe('administrators only', () => {
  it('answers 403 to level 1 on every users route, and changes nothing', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser({ level: 1 });
    const target = await ctx.createUser({ level: 1 });
    const id = { id: target.id };
    const attempts: [Endpoint, EndpointInput][] = [
      [userEndpoints.list, {}],
      [
        userEndpoints.create,
        { payload: { email: 'x@example.com', level: 0, password_setup: { method: 'link' } } },
      ],
      [userEndpoints.setLevel, { params: id, payload: { level: 0 } }],
      [userEndpoints.disable, { params: id }],
      [userEndpoints.enable, { params: id }],
      [userEndpoints.resetPassword, { params: id, payload: { method: 'link' } }],
      [userEndpoints.remove, { params: id }],
    ];
    for (const [endpoint, input] of attempts) {
      const response = await call(user, endpoint, input);
      expect(response.statusCode, `${endpoint.method} ${endpoint.path}`).toBe(403);
      expect(response.json().message).toBe('Only administrators can do this.');
    }
    const [row] = await ctx.db.query('SELECT level, disabled FROM users WHERE id = $1', [target.id]);
    expect(row).toEqual({ level: 1, disabled: false });
    expect((await me(target)).statusCode).toBe(200);
    expect((await call(admin, userEndpoints.list)).statusCode).toBe(200);
  });
});

describe('the users table', () => {
  it('lists e-mail, level, state, two-factor, last sign-in and created, searched and paged', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const tag = `tbl${Date.now()}`;
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await ctx.createUser({ email: `${tag}-${i}@Example.com` }));
    await ctx.db.query('UPDATE users SET totp_enabled_at = now(), disabled = true WHERE id = $1', [
      made[1]!.id,
    ]);
    // The helper's users opened a session as if signed in: these two never did.
    await ctx.db.query('UPDATE users SET last_sign_in_at = NULL WHERE id = ANY($1)', [
      [made[2]!.id, made[3]!.id],
    ]);
    expect((await login(made[2]!.email, made[2]!.password)).statusCode).toBe(200);

    const page = (
      await call(admin, userEndpoints.list, {
        query: { search: tag.toUpperCase(), per_page: '2', page: '2' },
      })
    ).json<UsersPage>();
    expect(page.totalItems).toBe(5);
    expect(page.users.map((user) => user.email)).toEqual([made[2]!.email, made[3]!.email]);
    const [signedIn] = page.users;
    expect(signedIn!.last_sign_in_at).not.toBeNull();
    expect(Date.now() - Date.parse(signedIn!.last_sign_in_at!)).toBeLessThan(60_000);
    expect(page.users[1]!.last_sign_in_at).toBeNull();

    const first = (
      await call(admin, userEndpoints.list, { query: { search: tag, per_page: '2' } })
    ).json<UsersPage>();
    expect(first.users[1]).toMatchObject({
      email: made[1]!.email,
      disabled: true,
      two_factor: true,
      level: 1,
    });
    expect(first.users[0]).toMatchObject({ disabled: false, two_factor: false });
    expect(first.users[0]).not.toHaveProperty('password_hash');

    // % and _ are searched as themselves.
    expect(
      (await call(admin, userEndpoints.list, { query: { search: '%' } })).json<UsersPage>().totalItems,
    ).toBe(0);
  });

  it.each([
    [{ per_page: String(USERS_MAX_PER_PAGE + 1) }, `per_page must be at most ${USERS_MAX_PER_PAGE}.`],
    [{ page: '0' }, 'page must be 1 or more.'],
    [{ search: 'x'.repeat(255) }, 'The search must be at most 254 characters.'],
  ])('bounds its query: %j', async (query, message) => {
    const admin = await ctx.createUser({ level: 0 });
    const response = await call(admin, userEndpoints.list, { query });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
  });
});

describe('creating users', () => {
  it('with a first password: they sign in with it; the answer has no link', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const response = await call(admin, userEndpoints.create, {
      payload: {
        email: 'first-password@example.com',
        level: 1,
        password_setup: { method: 'password', password: 'a first password' },
      },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json<PasswordSetupResult>();
    expect(created.password_link).toBeNull();
    expect(created.user).toMatchObject({ email: 'first-password@example.com', level: 1, disabled: false });
    expect((await login('first-password@example.com', 'a first password')).statusCode).toBe(200);
    expect(response.body).not.toContain('a first password');
  });

  it('with a link: shown once, stored as its SHA-256, used once, then the person signs in', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const created = (
      await call(admin, userEndpoints.create, {
        payload: { email: 'linked@example.com', level: 1, password_setup: { method: 'link' } },
      })
    ).json<PasswordSetupResult>();
    const token = created.password_link!.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(created.password_link!.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(PASSWORD_LINK_TTL_HOURS - 0.1);
    expect(hours).toBeLessThanOrEqual(PASSWORD_LINK_TTL_HOURS);
    const stored = await ctx.db.query<{ token_sha256: Buffer }>(
      'SELECT token_sha256 FROM password_links WHERE user_id = $1',
      [created.user.id],
    );
    expect(stored).toHaveLength(1);
    expect(Buffer.from(stored[0]!.token_sha256).toString('hex')).not.toContain(
      Buffer.from(token).toString('hex'),
    );
    // Nobody signs in before the link is used, whatever they guess.
    expect((await login('linked@example.com', '')).statusCode).toBe(400);

    const check = await call(null, passwordLinkEndpoints.check, { payload: { token } });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toEqual({
      email: 'linked@example.com',
      expires_at: created.password_link!.expires_at,
    });

    const short = await call(null, passwordLinkEndpoints.use, { payload: { token, password: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Password must be at least 8 characters.');

    const use = await call(null, passwordLinkEndpoints.use, { payload: { token, password: 'chosen by me' } });
    expect(use.statusCode).toBe(204);
    expect((await login('linked@example.com', 'chosen by me')).statusCode).toBe(200);

    const again = await call(null, passwordLinkEndpoints.use, {
      payload: { token, password: 'chosen again' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already been used/);
    expect((await call(null, passwordLinkEndpoints.check, { payload: { token } })).statusCode).toBe(409);
    expect((await login('linked@example.com', 'chosen again')).statusCode).toBe(401);
  });

  it('refuses a taken e-mail (any case) and bounds every field', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const taken = await call(admin, userEndpoints.create, {
      payload: { email: admin.email.toUpperCase(), level: 1, password_setup: { method: 'link' } },
    });
    expect(taken.statusCode).toBe(409);
    for (const [payload, message] of [
      [
        { email: 'x'.repeat(250) + '@e.co', level: 1, password_setup: { method: 'link' } },
        'E-mail is too long.',
      ],
      [
        { email: 'nope', level: 1, password_setup: { method: 'link' } },
        'E-mail must look like name@example.com.',
      ],
      [{ email: 'a@b.co', level: 1001, password_setup: { method: 'link' } }, 'Level must be at most 1000.'],
      [
        { email: 'a@b.co', level: -1, password_setup: { method: 'link' } },
        'Level must be 0 (administrator) or more.',
      ],
      [
        { email: 'a@b.co', level: 1, password_setup: { method: 'password', password: 'p'.repeat(1025) } },
        'Password is too long.',
      ],
      [
        { email: 'a@b.co', level: 1, password_setup: { method: 'email' } },
        'method must be password or link.',
      ],
    ] as const) {
      const response = await call(admin, userEndpoints.create, { payload });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.body).toContain(message);
    }
  });
});

describe('set-password links', () => {
  async function linkFor(admin: TestUser, user: TestUser): Promise<string> {
    const reset = await call(admin, userEndpoints.resetPassword, {
      params: { id: user.id },
      payload: { method: 'link' },
    });
    expect(reset.statusCode).toBe(200);
    return reset.json<PasswordSetupResult>().password_link!.token;
  }

  it('a reset by link ends the old password and the sessions at once; a newer link replaces an older one', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const older = await linkFor(admin, user);
    expect((await me(user)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    const newer = await linkFor(admin, user);
    expect((await call(null, passwordLinkEndpoints.check, { payload: { token: older } })).statusCode).toBe(
      404,
    );
    expect(
      (await call(null, passwordLinkEndpoints.use, { payload: { token: newer, password: 'brand new one' } }))
        .statusCode,
    ).toBe(204);
  });

  it('refuses an expired link, a disabled account and an unknown token with clear messages', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const token = await linkFor(admin, user);
    await ctx.db.query(
      "UPDATE password_links SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    const expired = await call(null, passwordLinkEndpoints.use, {
      payload: { token, password: 'too late now' },
    });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toBe(
      'This set-password link has expired. Ask an administrator for a new one.',
    );

    const fresh = await linkFor(admin, user);
    await call(admin, userEndpoints.disable, { params: { id: user.id } });
    const disabled = await call(null, passwordLinkEndpoints.use, {
      payload: { token: fresh, password: 'while disabled' },
    });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().message).toBe('This account is disabled. Ask an administrator.');

    const unknown = await call(null, passwordLinkEndpoints.check, { payload: { token: 'x'.repeat(43) } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^This set-password link is not valid/);
    const long = await call(null, passwordLinkEndpoints.check, { payload: { token: 'x'.repeat(129) } });
    expect(long.statusCode).toBe(400);
  });

  it('is used once even by two requests at the same moment', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const token = await linkFor(admin, user);
    const answers = await Promise.all(
      ['first of two', 'second of two'].map((password) =>
        call(null, passwordLinkEndpoints.use, { payload: { token, password } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 409]);
    const winner = answers[0]!.statusCode === 204 ? 'first of two' : 'second of two';
    const loser = winner === 'first of two' ? 'second of two' : 'first of two';
    expect((await login(user.email, winner)).statusCode).toBe(200);
    expect((await login(user.email, loser)).statusCode).toBe(401);
  });

  it('is limited like sign-in: wrong tokens from one address are slowed down', async () => {
    const answers = [];
    for (let i = 0; i < 8; i += 1) {
      answers.push(
        (await call(null, passwordLinkEndpoints.check, { payload: { token: `guess-${i}` } })).statusCode,
      );
    }
    expect(answers.slice(0, 3)).toEqual([404, 404, 404]);
    expect(answers).toContain(429);
  });
});

describe('changes and the sessions they end', () => {
  it('disabling ends the sessions; enabling brings none back; a level change ends them; a reset with a password too', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const disabled = await call(admin, userEndpoints.disable, { params: { id: user.id } });
    expect(disabled.json<User>()).toMatchObject({ id: user.id, disabled: true });
    expect((await me(user)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await call(admin, userEndpoints.enable, { params: { id: user.id } })).json<User>().disabled).toBe(
      false,
    );
    expect((await me(user)).statusCode).toBe(401);

    const signedIn = bearer((await login(user.email, user.password)).json().token);
    const promoted = await call(admin, userEndpoints.setLevel, {
      params: { id: user.id },
      payload: { level: 0 },
    });
    expect(promoted.json<User>().level).toBe(0);
    expect((await me(signedIn)).statusCode).toBe(401);

    const again = bearer((await login(user.email, user.password)).json().token);
    // The same level is no change: the session stays.
    await call(admin, userEndpoints.setLevel, { params: { id: user.id }, payload: { level: 0 } });
    expect((await me(again)).statusCode).toBe(200);
    const reset = await call(admin, userEndpoints.resetPassword, {
      params: { id: user.id },
      payload: { method: 'password', password: 'given by admin' },
    });
    expect(reset.json<PasswordSetupResult>().password_link).toBeNull();
    expect((await me(again)).statusCode).toBe(401);
    expect((await login(user.email, 'given by admin')).statusCode).toBe(200);
  });

  it('ends the sessions of sign-ins still in flight with the old password when it changes', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const changes: [string, (user: TestUser) => Promise<unknown>][] = [
      [
        "an administrator's reset",
        (user) =>
          call(admin, userEndpoints.resetPassword, {
            params: { id: user.id },
            payload: { method: 'password', password: 'given by admin' },
          }),
      ],
      [
        "the person's own change",
        (user) =>
          call(user, ownAccountEndpoints.changePassword, {
            payload: { current_password: user.password, new_password: 'chosen by the person' },
          }),
      ],
    ];
    for (const [what, change] of changes) {
      for (let round = 0; round < 3; round++) {
        const user = await ctx.createUser();
        // Six sign-ins with the old password, each from its own address, until the change is made.
        let changed = false;
        const tokens: string[] = [];
        const signInsWhileChanging = Array.from({ length: 6 }, async (_, thread) => {
          while (!changed) {
            const response = await ctx.app.inject({
              ...requestTo(authEndpoints.login, { payload: { email: user.email, password: user.password } }),
              remoteAddress: `10.99.${round}.${thread}`,
            });
            if (response.statusCode === 200) tokens.push(response.json<{ token: string }>().token);
          }
        });
        await new Promise((resolve) => setTimeout(resolve, 20));
        await change(user);
        changed = true;
        await Promise.all(signInsWhileChanging);
        expect(tokens.length, what).toBeGreaterThan(0);
        const valid = [];
        for (const token of tokens) if ((await me(bearer(token))).statusCode === 200) valid.push(token);
        expect(valid, `${what}: ${valid.length} of ${tokens.length} old-password sessions`).toEqual([]);
      }
    }
  });

  it('deleting removes the user, their sessions, accounts and list partitions', async () => {
    const admin = await ctx.createUser({ level: 0 });
    const user = await ctx.createUser();
    const ref = await insertListRows(ctx.db, user.id, 'doomed');
    expect((await call(admin, userEndpoints.remove, { params: { id: user.id } })).statusCode).toBe(204);
    expect((await me(user)).statusCode).toBe(401);
    expect(await ctx.db.query('SELECT 1 FROM users WHERE id = $1', [user.id])).toHaveLength(0);
    expect(await ctx.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [user.id])).toHaveLength(0);
    expect(await ctx.db.query('SELECT 1 FROM ban_lists WHERE id = $1', [ref])).toHaveLength(0);
    expect(
      await ctx.db.query(
        'SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1',
        [`ban_list_items_${ref}`],
      ),
    ).toHaveLength(0);
    expect((await call(admin, userEndpoints.remove, { params: { id: user.id } })).statusCode).toBe(404);
    expect((await call(admin, userEndpoints.disable, { params: { id: 999_999 } })).statusCode).toBe(404);
  });
});

describe('the last active administrator', () => {
  it('can never be disabled, demoted or deleted, by themself or another', async () => {
    const admin = await ctx.createUser({ level: 0 });
    await onlyAdmin(admin);
    for (const [endpoint, input] of [
      [userEndpoints.disable, {}],
      [userEndpoints.setLevel, { payload: { level: 1 } }],
      [userEndpoints.remove, {}],
    ] as const) {
      const response = await call(admin, endpoint, { params: { id: admin.id }, ...input });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(LAST_ADMIN);
    }
    expect((await me(admin)).statusCode).toBe(200);
    // Another administrator, disabled, does not count; an active one does.
    const other = await ctx.createUser({ level: 0 });
    await call(admin, userEndpoints.disable, { params: { id: other.id } });
    expect(
      (await call(admin, userEndpoints.setLevel, { params: { id: admin.id }, payload: { level: 1 } }))
        .statusCode,
    ).toBe(409);
    await call(admin, userEndpoints.enable, { params: { id: other.id } });
    expect(
      (await call(admin, userEndpoints.setLevel, { params: { id: admin.id }, payload: { level: 1 } }))
        .statusCode,
    ).toBe(200);
    expect(await activeAdmins()).toBe(1);
  });

  it('stays, when two administrators remove each other at the same moment', async () => {
    for (let round = 0; round < 6; round += 1) {
      const a = await ctx.createUser({ level: 0 });
      const b = await ctx.createUser({ level: 0 });
      await onlyAdmin(a);
      await ctx.db.query('UPDATE users SET level = 0 WHERE id = $1', [b.id]);
      const [first, second] = await Promise.all([
        round % 2 === 0
          ? call(a, userEndpoints.setLevel, { params: { id: b.id }, payload: { level: 1 } })
          : call(a, userEndpoints.disable, { params: { id: b.id } }),
        round % 3 === 0
          ? call(b, userEndpoints.remove, { params: { id: a.id } })
          : call(b, userEndpoints.setLevel, { params: { id: a.id }, payload: { level: 1 } }),
      ]);
      expect([first!.statusCode, second!.statusCode].filter((status) => status < 300)).toHaveLength(1);
      expect(await activeAdmins()).toBe(1);
    }
  });

  it('the users CLI keeps the rule too', async () => {
    const admin = await ctx.createUser({ level: 0 });
    await onlyAdmin(admin);
    const { UsersService } = await import('./users.service');
    const { UsersRepository } = await import('./users.repository');
    const users = new UsersService(new UsersRepository(ctx.db), ctx.config.passwordHashing);
    await expect(users.setDisabled(admin.email, true)).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('own password and sessions (profile)', () => {
  it('changes the password with the current one: every session ends, this browser gets a new one', async () => {
    const user = await ctx.createUser({ password: 'the old password' });
    const other = bearer((await login(user.email, 'the old password')).json().token);
    const wrong = await call(user, ownAccountEndpoints.changePassword, {
      payload: { current_password: 'not it at all', new_password: 'the new password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toMatchObject({
      field: 'current_password',
      message: 'The current password is wrong.',
    });
    expect((await me(user)).statusCode).toBe(200);

    const changed = await call(user, ownAccountEndpoints.changePassword, {
      payload: { current_password: 'the old password', new_password: 'the new password' },
    });
    expect(changed.statusCode).toBe(200);
    const fresh = bearer(changed.json<{ token: string }>().token);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await me(user)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect((await login(user.email, 'the old password')).statusCode).toBe(401);
    expect((await login(user.email, 'the new password')).statusCode).toBe(200);
  });

  it('slows down guessing of the current password with a session', async () => {
    const user = await ctx.createUser();
    const answers = [];
    for (let i = 0; i < 6; i += 1) {
      answers.push(
        (
          await call(user, ownAccountEndpoints.changePassword, {
            payload: { current_password: `guess ${i}`, new_password: 'whatever it is' },
          })
        ).statusCode,
      );
    }
    expect(answers.slice(0, 3)).toEqual([400, 400, 400]);
    expect(answers).toContain(429);
  });

  it('lists own sessions with this one marked, and ends one (another person’s is not found)', async () => {
    const user = await ctx.createUser();
    const stranger = await ctx.createUser();
    const second = bearer((await login(user.email, user.password)).json().token);
    const secondId = decodeJwt(second.headers.authorization.slice(7)).sid as string;
    const sessions = (await call(user, ownAccountEndpoints.sessions)).json<OwnSession[]>();
    expect(sessions.map((session) => session.id).sort()).toEqual([user.sessionId, secondId].sort());
    expect(sessions.find((session) => session.current)!.id).toBe(user.sessionId);
    expect(sessions[0]!.id).toBe(secondId); // newest first

    expect(
      (await call(stranger, ownAccountEndpoints.endSession, { params: { id: secondId } })).statusCode,
    ).toBe(404);
    expect((await me(second)).statusCode).toBe(200);
    expect((await call(user, ownAccountEndpoints.endSession, { params: { id: secondId } })).statusCode).toBe(
      204,
    );
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(user)).statusCode).toBe(200);
    expect(
      (await call(user, ownAccountEndpoints.endSession, { params: { id: 'not-a-uuid' } })).statusCode,
    ).toBe(400);
  });
});
