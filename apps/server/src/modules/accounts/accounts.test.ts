import { refusalOf } from '../../test/request';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../test/context';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';

describe('Cloudflare accounts', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));

  const add = (user: TestUser, payload: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/cloudflare/accounts',
      headers: user.headers,
      payload: payload as object,
    });

  it('verifies the token at Cloudflare, stores it encrypted and answers only the masked form', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Acme', plan: 'pro' });
    ctx.sandbox.control.addToken({ value: 'acme-token-abcd1234', accountIds: [cfAccount.id] });

    const response = await add(alice, { account_name: 'Acme', token: 'acme-token-abcd1234' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      account_name: 'Acme',
      account_id: cfAccount.id,
      token: '****1234',
    });
    expect(response.body).not.toContain('acme-token');

    const [stored] = await ctx.db.query<{ token_encrypted: string }>(
      'SELECT token_encrypted FROM cloudflare_accounts WHERE account_id = $1',
      [cfAccount.id],
    );
    expect(stored!.token_encrypted).not.toContain('acme-token');

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/cloudflare/accounts',
      headers: alice.headers,
    });
    expect(list.json()).toEqual([response.json()]);
    expect(ctx.sandbox.control.callCount({ path: /\/user\/tokens\/verify$/ })).toBeGreaterThan(0);
  });

  it('verifies an account-owned token at the account endpoint', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Owned', plan: 'free' });
    ctx.sandbox.control.addToken({
      value: 'account-owned-token-9999',
      accountIds: [cfAccount.id],
      kind: 'account',
    });
    const response = await add(alice, { account_name: 'Owned', token: 'account-owned-token-9999' });
    expect(response.statusCode).toBe(201);
    expect(response.json().account_id).toBe(cfAccount.id);
  });

  it.each(['disabled', 'expired'] as const)(
    'refuses a %s token with a reason and stores nothing',
    async (status) => {
      const cfAccount = ctx.sandbox.control.addAccount({ name: `Bad ${status}`, plan: 'free' });
      ctx.sandbox.control.addToken({ value: `bad-${status}-token`, accountIds: [cfAccount.id], status });
      const response = await add(alice, { account_name: `Bad ${status}`, token: `bad-${status}-token` });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/token/i);
      const rows = await ctx.db.query('SELECT 1 FROM cloudflare_accounts WHERE account_id = $1', [
        cfAccount.id,
      ]);
      expect(rows).toHaveLength(0);
    },
  );

  it('refuses an unknown token with Cloudflare’s reason', async () => {
    const response = await add(alice, { account_name: 'Nobody', token: 'no-such-token' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Cloudflare refused this API token/);
  });

  it('refuses a duplicate account name for the same user, but not for another user', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Dup', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'dup-token-1', accountIds: [cfAccount.id] });
    const second = ctx.sandbox.control.addAccount({ name: 'Dup2', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'dup-token-2', accountIds: [second.id] });

    expect((await add(alice, { account_name: 'Shared label', token: 'dup-token-1' })).statusCode).toBe(201);
    const duplicate = await add(alice, { account_name: 'shared LABEL', token: 'dup-token-2' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe('You already have an account named "shared LABEL".');
    expect((await add(bob, { account_name: 'Shared label', token: 'dup-token-2' })).statusCode).toBe(201);
  });

  it('refuses the same Cloudflare account twice for one user', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Twice', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'twice-token-1', accountIds: [cfAccount.id] });
    ctx.sandbox.control.addToken({ value: 'twice-token-2', accountIds: [cfAccount.id] });
    expect((await add(bob, { account_name: 'Twice A', token: 'twice-token-1' })).statusCode).toBe(201);
    expect((await add(bob, { account_name: 'Twice B', token: 'twice-token-2' })).statusCode).toBe(409);
  });

  it.each([
    [{}, 'account_name'],
    [{ account_name: '', token: 'x' }, 'Account name is required.'],
    [{ account_name: 'A', token: '   ' }, 'API token is required.'],
    [{ account_name: 'A', token: 'has space inside' }, 'API token must not contain'],
    [{ account_name: 42, token: 'x' }, 'account_name'],
  ])('answers 400 with a message for %j', async (payload, message) => {
    const response = await add(alice, payload);
    expect(response.statusCode).toBe(400);
    expect(refusalOf(response.json())).toContain(message);
  });

  it('shows each user only their own accounts', async () => {
    const aliceList = (
      await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/accounts', headers: alice.headers })
    ).json();
    const bobList = (
      await ctx.app.inject({ method: 'GET', url: '/api/cloudflare/accounts', headers: bob.headers })
    ).json();
    const aliceIds = new Set(aliceList.map((a: { id: number }) => a.id));
    expect(bobList.some((a: { id: number }) => aliceIds.has(a.id))).toBe(false);
    expect(bobList.map((a: { account_name: string }) => a.account_name)).toEqual(['Shared label', 'Twice A']);
  });

  it('maps a Cloudflare outage to 502 and stores nothing', async () => {
    const cfAccount = ctx.sandbox.control.addAccount({ name: 'Down', plan: 'free' });
    ctx.sandbox.control.addToken({ value: 'down-token', accountIds: [cfAccount.id] });
    ctx.sandbox.control.injectFault({ status: 503, times: 10 });
    const response = await add(alice, { account_name: 'Down', token: 'down-token' });
    ctx.sandbox.control.clearFaults();
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('Cloudflare is unavailable right now. Please try again.');
    expect(
      await ctx.db.query('SELECT 1 FROM cloudflare_accounts WHERE account_id = $1', [cfAccount.id]),
    ).toHaveLength(0);
  });
});
