import type { ApiKey, BanList, CloudflareAccount, CreatedApiKey } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';

describe('API keys', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let blocked: BanList;
  let other: BanList;
  let keyCo: CloudflareAccount;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    alice = await ctx.createUser({ level: 0 });
    keyCo = await ctx.addAccount(alice, { name: 'Key Co' });
    const add = async (name: string) =>
      (
        await ctx.app.inject({
          method: 'POST',
          url: '/api/cloudflare/banlists',
          headers: alice.headers,
          payload: { account_name: 'Key Co', list_name: name, kind: 'ip' },
        })
      ).json<BanList>();
    blocked = await add('blocked');
    other = await add('other');
  });
  afterAll(() => ctx.close());

  /** Asks for a new key of `person`'s own, as the profile screen does. */
  const askForKey = (person: TestUser, payload: object) =>
    ctx.app.inject({ method: 'POST', url: '/api/me/api-keys', headers: person.headers, payload });
  const createKey = async (payload: object, person: TestUser = alice) => {
    const response = await askForKey(person, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedApiKey>();
  };
  const withKey = (key: string, method: 'GET' | 'HEAD' | 'POST' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${key}` }, payload });

  it('shows a new key once; afterwards only its last four characters, and the database holds only a hash', async () => {
    const created = await createKey({ name: 'fail2ban', access: 'ban' });
    expect(created.key).toMatch(/^gk_\d+_[A-Za-z0-9_-]{43}$/);
    expect(created.last_four).toBe(created.key.slice(-4));
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/me/api-keys', headers: alice.headers });
    expect(listed.body).not.toContain(created.key);
    expect(listed.json<ApiKey[]>()).toContainEqual(
      expect.objectContaining({ name: 'fail2ban', access: 'ban' }),
    );
    const rows = await ctx.db.query('SELECT * FROM api_keys');
    // The secret is everything after gk_<id>_: base64url, which may itself hold an underscore.
    const secret = created.key.slice(created.key.indexOf('_', 3) + 1);
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('lets a read key read and nothing else; a ban key add and remove items only', async () => {
    const read = await createKey({ name: 'siem', access: 'read' });
    expect((await withKey(read.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(200);
    const refused = await withKey(read.key, 'POST', `/cloudflare/banlists/${blocked.list_id}/items`, {
      ip: '192.0.2.1',
      comment: 'x',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This API key can only read.');

    const ban = await createKey({ name: 'crowdsec', access: 'ban' });
    const added = await withKey(ban.key, 'POST', `/cloudflare/banlists/${blocked.list_id}/items`, {
      ip: '192.0.2.66',
      comment: 'banned by crowdsec',
    });
    expect(added.statusCode, added.body).toBe(201);
    const removed = await withKey(
      ban.key,
      'DELETE',
      `/cloudflare/banlists/${blocked.list_id}/items/${added.json<{ id: number }>().id}`,
    );
    expect(removed.statusCode).toBe(204);
    expect((await withKey(ban.key, 'DELETE', `/cloudflare/banlists/${other.id}`)).statusCode).toBe(403);
    expect((await withKey(ban.key, 'POST', '/cloudflare/banlists/clean')).statusCode).toBe(403);
    // Keys make no keys, and an administrator's key is no administrator.
    expect((await withKey(ban.key, 'POST', '/me/api-keys', { name: 'x', access: 'ban' })).statusCode).toBe(
      403,
    );
    expect((await withKey(ban.key, 'GET', '/admin/users')).statusCode).toBe(403);
  });

  it('keeps a key limited to a list on that list', async () => {
    const limited = await createKey({ name: 'one list', access: 'ban', list_ids: [blocked.list_id] });
    const item = { ip: '198.51.100.9', comment: 'limited' };
    expect(
      (await withKey(limited.key, 'POST', `/cloudflare/banlists/${blocked.list_id}/items`, item)).statusCode,
    ).toBe(201);
    const elsewhere = await withKey(limited.key, 'POST', `/cloudflare/banlists/${other.list_id}/items`, item);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe('This API key is not allowed on this list.');
    expect((await withKey(limited.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(403);
    const elsewhereAccount = await createKey({
      name: 'other account',
      access: 'read',
      account_ids: ['f'.repeat(32)],
    });
    expect(
      (await withKey(elsewhereAccount.key, 'GET', `/cloudflare/banlists/${blocked.list_id}/items`))
        .statusCode,
    ).toBe(403);
  });

  it("lets a key limited to an account reach that account's lists: a read, its HEAD and a change", async () => {
    const own = await createKey({ name: 'own account', access: 'ban', account_ids: [keyCo.account_id] });
    const items = `/cloudflare/banlists/${blocked.list_id}/items`;
    expect((await withKey(own.key, 'GET', items)).statusCode).toBe(200);
    expect((await withKey(own.key, 'HEAD', items)).statusCode).toBe(200);
    const added = await withKey(own.key, 'POST', items, { ip: '198.51.100.10', comment: 'own account' });
    expect(added.statusCode, added.body).toBe(201);
    const unnamed = await withKey(own.key, 'GET', '/cloudflare/banlists');
    expect(unnamed.statusCode).toBe(403);
    expect(unnamed.json().message).toMatch(/ask about one of them by its id/);
  });

  it('refuses a revoked or expired key, a made-up one, and a key whose person is disabled', async () => {
    const key = await createKey({ name: 'short-lived', access: 'read' });
    expect((await withKey(key.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(200);
    await ctx.db.query("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [
      key.id,
    ]);
    expect((await withKey(key.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(401);

    const revoked = await createKey({ name: 'revoked', access: 'read' });
    const revoke = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/me/api-keys/${revoked.id}`,
      headers: alice.headers,
    });
    expect(revoke.statusCode).toBe(204);
    expect((await withKey(revoked.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(401);
    expect((await withKey(`${revoked.key.slice(0, -1)}A`, 'GET', '/cloudflare/banlists')).statusCode).toBe(
      401,
    );
    expect((await withKey('gk_1_short', 'GET', '/cloudflare/banlists')).statusCode).toBe(401);

    const bob = await ctx.createUser();
    const bobs = await createKey({ name: 'bob', access: 'read' }, bob);
    await ctx.db.query('UPDATE users SET disabled = true WHERE id = $1', [bob.id]);
    expect((await withKey(bobs.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(401);
  });

  it("records a key's changes under its name, and checks what a key is created with", async () => {
    const key = await createKey({ name: 'audited script', access: 'ban' });
    await withKey(key.key, 'POST', `/cloudflare/banlists/${blocked.list_id}/items`, {
      ip: '203.0.113.200',
      comment: 'from a script',
    });
    const [row] = await ctx.db.query<{ actor: string; outcome: string }>(
      "SELECT actor, outcome FROM audit_events WHERE action = 'banListItems.add' ORDER BY id DESC LIMIT 1",
    );
    expect(row).toEqual({ actor: `${alice.email} (API key "audited script")`, outcome: 'success' });

    for (const payload of [
      { name: '', access: 'read' },
      { name: 'x'.repeat(61), access: 'read' },
      // A name is the audit trail's actor: no second line, no control or direction characters.
      { name: 'script\nroot@example.com', access: 'read' },
      { name: 'tab\there', access: 'read' },
      { name: 'evil\u202Egnp.exe', access: 'read' },
      { name: 'zero\u200Bwidth', access: 'read' },
      { name: 'bell\u0007', access: 'read' },
      { name: 'x', access: 'write' },
      { name: 'x', access: 'read', list_ids: Array.from({ length: 51 }, (_, i) => `l${i}`) },
      { name: 'x', access: 'read', expires_at: '2020-01-01T00:00:00Z' },
    ]) {
      const response = await askForKey(alice, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const refused = await askForKey(alice, { name: 'a\nb', access: 'read' });
    expect(refused.json().message).toMatch(/name may hold only printable characters/i);
    // Printable text of any script is a name.
    expect((await createKey({ name: 'Ünïcødé スクリプト', access: 'read' })).name).toBe('Ünïcødé スクリプト');
  });
  /** A read key of a new person, working (200) as it is made. */
  const personWithKey = async () => {
    const person = await ctx.createUser();
    const { key } = await createKey({ name: 'script', access: 'read' }, person);
    expect((await withKey(key, 'GET', '/cloudflare/banlists')).statusCode).toBe(200);
    return { person, key };
  };
  const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api${url}`, headers: alice.headers, payload });
  const revokedCountOf = async (action: string) => {
    const [row] = await ctx.db.query<{ target: Record<string, unknown> }>(
      'SELECT target FROM audit_events WHERE action = $1 ORDER BY id DESC LIMIT 1',
      [action],
    );
    return row?.target.api_keys_revoked;
  };

  it("ends a person's keys when their password changes or is reset, and when they are disabled or their level changes", async () => {
    const own = await personWithKey();
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: own.person.headers,
      payload: { current_password: own.person.password, new_password: 'a brand new password' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await withKey(own.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(401);
    expect(await revokedCountOf('ownAccount.changePassword')).toBe(1);

    const steps: [string, string, (id: number) => Promise<unknown>][] = [
      [
        'a reset to a password',
        'users.resetPassword',
        (id) =>
          asAdmin('POST', `/admin/users/${id}/password`, {
            method: 'password',
            password: 'reset by the admin',
          }),
      ],
      [
        'a reset to a link',
        'users.resetPassword',
        (id) => asAdmin('POST', `/admin/users/${id}/password`, { method: 'link' }),
      ],
      [
        'disable, then enable',
        'users.disable',
        async (id) => {
          await asAdmin('POST', `/admin/users/${id}/disable`);
          await asAdmin('POST', `/admin/users/${id}/enable`);
        },
      ],
      ['a level change', 'users.setLevel', (id) => asAdmin('PUT', `/admin/users/${id}/level`, { level: 2 })],
    ];
    for (const [what, action, step] of steps) {
      const { person, key } = await personWithKey();
      await step(person.id);
      expect((await withKey(key, 'GET', '/cloudflare/banlists')).statusCode, what).toBe(401);
      expect(await revokedCountOf(action), what).toBe(1);
    }
  });

  it("lets an administrator list and revoke another person's keys, and nobody else", async () => {
    const { person, key } = await personWithKey();
    const listed = await asAdmin('GET', `/admin/users/${person.id}/api-keys`);
    expect(listed.statusCode, listed.body).toBe(200);
    const [shown] = listed.json<ApiKey[]>();
    expect(shown).toEqual(
      expect.objectContaining({ name: 'script', access: 'read', last_four: key.slice(-4) }),
    );
    expect(listed.body).not.toContain(key);
    // Neither the person (level 1) nor any key reaches these routes; another person's key id is not found.
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/admin/users/${alice.id}/api-keys`,
          headers: person.headers,
        })
      ).statusCode,
    ).toBe(403);
    expect((await withKey(key, 'GET', `/admin/users/${person.id}/api-keys`)).statusCode).toBe(403);
    const aliceKey = await createKey({ name: 'alice own', access: 'read' });
    expect((await asAdmin('DELETE', `/admin/users/${person.id}/api-keys/${aliceKey.id}`)).statusCode).toBe(
      404,
    );
    expect((await withKey(aliceKey.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(200);
    expect((await asAdmin('GET', '/admin/users/999999/api-keys')).statusCode).toBe(404);

    const revoked = await asAdmin('DELETE', `/admin/users/${person.id}/api-keys/${shown!.id}`);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await withKey(key, 'GET', '/cloudflare/banlists')).statusCode).toBe(401);
    expect((await asAdmin('GET', `/admin/users/${person.id}/api-keys`)).json()).toEqual([]);
  });

  it('holds keys to a required second factor as it holds sessions: refused until the person turns it on', async () => {
    const ban = await createKey({ name: 'crowdsec 2fa', access: 'ban' });
    expect((await asAdmin('PUT', '/admin/two-factor/required')).statusCode).toBe(200);
    try {
      const added = await withKey(ban.key, 'POST', `/cloudflare/banlists/${blocked.list_id}/items`, {
        ip: '192.0.2.77',
        comment: 'while two-factor is required',
      });
      expect(added.statusCode).toBe(403);
      expect(added.json().message).toMatch(/requires two-factor sign-in.*API key/);
      expect((await withKey(ban.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(403);
    } finally {
      expect((await asAdmin('DELETE', '/admin/two-factor/required')).statusCode).toBe(200);
    }
    expect((await withKey(ban.key, 'GET', '/cloudflare/banlists')).statusCode).toBe(200);
  });
});
