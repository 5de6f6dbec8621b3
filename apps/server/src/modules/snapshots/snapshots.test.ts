import {
  OUTCOME_HEADER,
  type BanList,
  type BanListItemHistory,
  type BanListItemsPage,
  type DnsRecord,
  type Snapshot,
} from '@guardian/contract';
import { describe, expect, it } from 'vitest';
import { createAppDeps } from '../../app';
import { createServices } from '../../services';
import type { TestUser } from '../../test/context';
import { JobsRepository } from '../../jobs/jobs.repository';
import { twoPeopleSuite, type TwoPeople } from '../../test/two-people';
import { addOwnedZone } from '../../test/zone';

describe('snapshots: undoing Clean All, a deleted list, a deleted DNS record', () => {
  let { ctx, alice, bob } = {} as TwoPeople;
  twoPeopleSuite((suite) => ({ ctx, alice, bob } = suite));

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api${url}`, headers: user.headers, payload });
  const snapshotsOf = async (user: TestUser, query = '') =>
    (await call(user, 'GET', `/snapshots${query}`)).json<Snapshot[]>();
  const cloudflareItems = (accountId: string, listId: string) =>
    ctx.sandbox.control
      .getListItems(accountId, listId)
      .map((item) => `${'ip' in item ? item.ip : JSON.stringify(item)} ${item.comment ?? ''}`)
      .sort();

  /** A list of alice's (or `user`'s) at Cloudflare with `items` in it, synced into the mirror. */
  async function listWithItems(
    accountName: string,
    listName: string,
    items: { ip: string; comment: string }[],
    user = alice,
  ) {
    const account = await ctx.addAccount(user, { name: accountName });
    const list = (
      await call(user, 'POST', '/cloudflare/banlists', {
        account_name: accountName,
        list_name: listName,
        kind: 'ip',
      })
    ).json<BanList>();
    ctx.sandbox.control.seedListItems(account.account_id, list.list_id, items);
    expect((await call(user, 'POST', `/cloudflare/banlists/${list.list_id}/sync`)).statusCode).toBe(200);
    return { account, list };
  }

  /**
   * A list's items as the person sees them, each with its history: everything a restore must give
   * back (Guardian's own item ids aside).
   */
  async function itemsAsSeen(user: TestUser, listId: string) {
    const page = await call(user, 'GET', `/cloudflare/banlists/${listId}/items?sort=ip&order=asc`);
    expect(page.statusCode, page.body).toBe(200);
    return Promise.all(
      page.json<BanListItemsPage>().items.map(async ({ id, ...item }) => {
        const history = await call(user, 'GET', `/cloudflare/banlists/${listId}/items/${id}/history`);
        expect(history.statusCode, history.body).toBe(200);
        return { ...item, history: history.json<BanListItemHistory>().events };
      }),
    );
  }

  /**
   * A list holding an item found at Cloudflare, a temporary ban added in the console whose expiry
   * was changed since, and one added with an hour to live; the last one's expiry is made to pass
   * while it is kept (`expireWhileKept`), as a restore a day later finds it. Its own person's only
   * list, so their Clean All and its snapshot hold nothing else.
   */
  async function listOfEveryProvenance(accountName: string, listName: string) {
    const person = await ctx.createUser();
    const { account, list } = await listWithItems(
      accountName,
      listName,
      [{ ip: '192.0.2.50', comment: 'found at Cloudflare' }],
      person,
    );
    for (const [ip, comment, expires] of [
      ['192.0.2.51', 'temporary ban', '7d'],
      ['192.0.2.52', 'an hour only', '1h'],
    ]) {
      const added = await call(person, 'POST', `/cloudflare/banlists/${list.list_id}/items`, {
        ip,
        comment,
        expires,
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const page = await call(person, 'GET', `/cloudflare/banlists/${list.list_id}/items?search=192.0.2.51`);
    const [temporary] = page.json<BanListItemsPage>().items;
    const expiry = `/cloudflare/banlists/${list.list_id}/items/${temporary!.id}/expiry`;
    const changed = await call(person, 'PUT', expiry, { expires: '30d' });
    expect(changed.statusCode, changed.body).toBe(200);
    const seen = await itemsAsSeen(person, list.list_id);
    expect(seen.map((item) => [item.ip, item.added_via, item.history.map((event) => event.event)])).toEqual([
      ['192.0.2.50', 'cloudflare', []],
      ['192.0.2.51', 'console', ['added', 'expiry_changed']],
      ['192.0.2.52', 'console', ['added']],
    ]);
    const expireWhileKept = (snapshotId: string) =>
      ctx.db.query(
        `UPDATE snapshot_items SET expires_at = now() - interval '1 minute'
         WHERE snapshot_id = $1 AND value = '192.0.2.52'`,
        [snapshotId],
      );
    return { person, account, list, seen, expireWhileKept };
  }

  /** What a restore shows of the items it put back: as they were, plus who restored them. */
  const restoredAsSeen = (seen: Awaited<ReturnType<typeof itemsAsSeen>>, user: TestUser) =>
    seen
      .filter((item) => item.ip !== '192.0.2.52')
      .map((item) => ({
        ...item,
        history: [
          ...item.history,
          {
            at: expect.any(String),
            event: 'restored',
            actor: user.email,
            added_via: null,
            expires_at: item.expires_at,
          },
        ],
      }));

  it('Clean All then Restore gives each item back its comment, expiry, who added it, when and its history (issue 35)', async () => {
    const { person, account, list, seen, expireWhileKept } = await listOfEveryProvenance(
      'Exact Co',
      'exact_clean',
    );
    expect((await call(person, 'POST', '/cloudflare/banlists/clean')).statusCode).toBe(200);
    expect(cloudflareItems(account.account_id, list.list_id)).toEqual([]);
    const [snapshot] = await snapshotsOf(person, '?kind=clean-all');
    await expireWhileKept(snapshot!.id);

    const restored = await call(person, 'POST', `/snapshots/${snapshot!.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    // An item whose expiry passed meanwhile would have been removed anyway: it stays removed, and the answer says so.
    expect(restored.headers[OUTCOME_HEADER]).toBe('1 item was not restored: its expiry had passed.');
    expect(await itemsAsSeen(person, list.list_id)).toEqual(restoredAsSeen(seen, person));
    expect(cloudflareItems(account.account_id, list.list_id)).toEqual([
      '192.0.2.50 found at Cloudflare',
      '192.0.2.51 temporary ban',
    ]);
    // The export says when each item was first added too, not the restore's date.
    const exported = await call(
      person,
      'GET',
      `/cloudflare/banlists/${list.list_id}/items/export?format=csv`,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    const addedAt = (ip: string) =>
      exported.body
        .split('\r\n')
        .find((line) => line.startsWith(`${ip},`))
        ?.split(',')
        .at(-1);
    for (const item of seen.filter((kept) => kept.ip !== '192.0.2.52'))
      expect(addedAt(item.ip), item.ip).toBe(new Date(item.created_on).toISOString());

    // It stays so when the list is read from Cloudflare anew (which dates the items today): an item
    // added there first moves every item of the mirror.
    ctx.sandbox.control.seedListItems(account.account_id, list.list_id, [
      { ip: '192.0.2.1', comment: 'new' },
    ]);
    expect((await call(person, 'POST', `/cloudflare/banlists/${list.list_id}/sync`)).statusCode).toBe(200);
    const synced = await itemsAsSeen(person, list.list_id);
    expect(synced.map((item) => item.ip)).toEqual(['192.0.2.1', '192.0.2.50', '192.0.2.51']);
    expect(synced.slice(1)).toEqual(restoredAsSeen(seen, person));
  });

  it('a deleted list restored gives each item back its comment, expiry, who added it, when and its history (issue 35)', async () => {
    const { person, account, list, seen, expireWhileKept } = await listOfEveryProvenance(
      'Exact Gone Co',
      'exact_deleted',
    );
    expect((await call(person, 'DELETE', `/cloudflare/banlists/${list.id}`)).statusCode).toBe(204);
    const snapshot = (await snapshotsOf(person, '?kind=ban-list')).find(
      (each) => each.list_id === list.list_id,
    );
    await expireWhileKept(snapshot!.id);

    const restored = await call(person, 'POST', `/snapshots/${snapshot!.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.headers[OUTCOME_HEADER]).toBe('1 item was not restored: its expiry had passed.');
    const [recreated] = ctx.sandbox.control.getLists(account.account_id);
    expect(await itemsAsSeen(person, recreated!.id)).toEqual(restoredAsSeen(seen, person));
  });

  it('a Clean All run again (its process died) keeps one snapshot of everything the click removed (issue 33)', async () => {
    const carol = await ctx.createUser();
    const account = await ctx.addAccount(carol, { name: 'Retry Co' });
    const first = ctx.sandbox.control.addList(account.account_id, { name: 'first', kind: 'ip' });
    const second = ctx.sandbox.control.addList(account.account_id, { name: 'second', kind: 'ip' });
    ctx.sandbox.control.seedListItems(account.account_id, first.id, [
      { ip: '192.0.2.1', comment: 'one' },
      { ip: '192.0.2.2', comment: 'two' },
    ]);
    ctx.sandbox.control.seedListItems(account.account_id, second.id, [{ ip: '192.0.2.3', comment: 'three' }]);
    expect((await call(carol, 'POST', '/cloudflare/banlists/update')).statusCode).toBe(200);
    for (const list of [first, second])
      expect((await call(carol, 'POST', `/cloudflare/banlists/${list.id}/sync`)).statusCode).toBe(200);
    const before = [first, second].map((list) => cloudflareItems(account.account_id, list.id));

    // The first run empties the first list, then stops (as a process that dies would) at the second.
    ctx.sandbox.control.injectFault({
      path: `/accounts/${account.account_id}/rules/lists/${second.id}/items`,
      method: 'PUT',
      status: 503,
    });
    expect((await call(carol, 'POST', '/cloudflare/banlists/clean')).statusCode).toBe(502);
    ctx.sandbox.control.clearFaults();
    expect(cloudflareItems(account.account_id, first.id)).toEqual([]);

    // Another process runs the same job again.
    const [row] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM jobs WHERE user_id = $1 AND kind = 'ban-lists-clean'",
      [carol.id],
    );
    const job = (await new JobsRepository(ctx.db).find(row!.id))!;
    const { banListsJobs } = createServices(ctx.config, createAppDeps(ctx.config, ctx.db));
    await banListsJobs.runClean({
      job: { ...job, data: {} },
      signal: new AbortController().signal,
      progress: () => undefined,
      flushProgress: async () => undefined,
    });
    expect(cloudflareItems(account.account_id, second.id)).toEqual([]);

    const snapshots = await snapshotsOf(carol, '?kind=clean-all');
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ items: 3, summary: 'Clean All: 2 lists, 3 items' });
    expect((await call(carol, 'POST', `/snapshots/${snapshots[0]!.id}/restore`)).statusCode).toBe(200);
    expect([first, second].map((list) => cloudflareItems(account.account_id, list.id))).toEqual(before);
  });

  it('Clean All keeps every list it empties; restoring puts the items back at Cloudflare and in the mirror', async () => {
    const { account, list } = await listWithItems('Undo Co', 'scrapers', [
      { ip: '192.0.2.1', comment: 'first' },
      { ip: '198.51.100.0/24', comment: 'a range' },
    ]);
    const before = cloudflareItems(account.account_id, list.list_id);

    expect((await call(alice, 'POST', '/cloudflare/banlists/clean')).statusCode).toBe(200);
    expect(cloudflareItems(account.account_id, list.list_id)).toEqual([]);

    const [snapshot] = await snapshotsOf(alice, '?kind=clean-all');
    expect(snapshot).toMatchObject({ kind: 'clean-all', items: 2, restored_at: null });
    expect(snapshot!.summary).toBe('Clean All: 1 list, 2 items');
    expect(await snapshotsOf(bob)).toEqual([]);

    const restored = await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json<Snapshot>().restored_at).not.toBeNull();
    expect(cloudflareItems(account.account_id, list.list_id)).toEqual(before);
    const lists = (await call(alice, 'GET', '/cloudflare/banlists')).json<BanList[]>();
    expect(lists.find((each) => each.id === list.id)?.items).toBe(2);

    const again = await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This snapshot has already been restored.');
  });

  it('a deleted list comes back with its name, kind and items (under a new Cloudflare id)', async () => {
    const { account, list } = await listWithItems('Gone Co', 'deleted_by_mistake', [
      { ip: '203.0.113.7', comment: 'kept' },
    ]);
    expect((await call(alice, 'DELETE', `/cloudflare/banlists/${list.id}`)).statusCode).toBe(204);
    expect(ctx.sandbox.control.getLists(account.account_id)).toEqual([]);

    const snapshot = (await snapshotsOf(alice, '?kind=ban-list')).find(
      (each) => each.list_id === list.list_id,
    );
    expect(snapshot?.summary).toBe('List "deleted_by_mistake" (1 item)');
    expect((await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`)).statusCode).toBe(200);

    const [recreated] = ctx.sandbox.control.getLists(account.account_id);
    expect(recreated).toMatchObject({ name: 'deleted_by_mistake', kind: 'ip' });
    expect(recreated!.id).not.toBe(list.list_id);
    expect(cloudflareItems(account.account_id, recreated!.id)).toEqual(['203.0.113.7 kept']);
    const lists = (await call(alice, 'GET', '/cloudflare/banlists')).json<BanList[]>();
    expect(lists).toContainEqual(
      expect.objectContaining({ list_name: 'deleted_by_mistake', list_id: recreated!.id, items: 1 }),
    );
  });

  it('a deleted DNS record comes back as it was; only its owner sees or restores it', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const added = await call(alice, 'POST', `/cloudflare/zones/${zoneId}/dns`, {
      type: 'MX',
      name: 'mail',
      content: 'mx.example.net',
      priority: 10,
      ttl: 3600,
      comment: 'primary mail',
    });
    expect(added.statusCode).toBe(201);
    const record = added.json<DnsRecord>();
    expect((await call(alice, 'DELETE', `/cloudflare/zones/${zoneId}/dns/${record.id}`)).statusCode).toBe(
      204,
    );
    expect(ctx.sandbox.control.getDnsRecords(zoneId)).toEqual([]);

    const [snapshot] = await snapshotsOf(alice, `?zone_id=${zoneId}`);
    expect(snapshot).toMatchObject({ kind: 'dns-record', zone_id: zoneId, record_id: record.id, items: 1 });
    expect(snapshot!.summary).toBe(`MX ${record.name}`);

    expect(await snapshotsOf(bob, `?zone_id=${zoneId}`)).toEqual([]);
    expect((await call(bob, 'POST', `/snapshots/${snapshot!.id}/restore`)).statusCode).toBe(404);

    expect((await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`)).statusCode).toBe(200);
    const records = (await call(alice, 'GET', `/cloudflare/zones/${zoneId}/dns`)).json<DnsRecord[]>();
    expect(records).toEqual([{ ...record, id: expect.any(String) }]);
  });

  it('deleted DNS records come back exactly: type, name, content, comment, TTL, proxied, priority (issue 35)', async () => {
    const { zoneId } = await addOwnedZone(ctx, alice);
    const inputs = [
      { type: 'A', name: 'www', content: '192.0.2.80', ttl: 1, proxied: true, comment: 'behind the proxy' },
      {
        type: 'TXT',
        name: 'note',
        content: 'v=spf1 -all',
        ttl: 300,
        proxied: false,
        comment: 'five minutes',
      },
      {
        type: 'SRV',
        name: '_sip._tcp',
        content: '5 5060 sip.example.net',
        priority: 20,
        ttl: 86400,
        proxied: false,
      },
    ];
    /** A record as Cloudflare holds it, but for what Cloudflare gives a new record (its id and dates). */
    const asKept = (name: string) => {
      const record = ctx.sandbox.control
        .getDnsRecords(zoneId)
        .find((each) => String(each.name).startsWith(`${name}.`));
      expect(record).toBeDefined();
      const {
        id: _id,
        created_on: _created,
        modified_on: _modified,
        ...kept
      } = record as Record<string, unknown>;
      delete kept.comment_modified_on;
      return kept;
    };
    for (const input of inputs) {
      const added = await call(alice, 'POST', `/cloudflare/zones/${zoneId}/dns`, input);
      expect(added.statusCode, added.body).toBe(201);
      const before = asKept(input.name);
      const deleted = await call(
        alice,
        'DELETE',
        `/cloudflare/zones/${zoneId}/dns/${added.json<DnsRecord>().id}`,
      );
      expect(deleted.statusCode).toBe(204);
      const [snapshot] = await snapshotsOf(alice, `?zone_id=${zoneId}`);
      expect((await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`)).statusCode).toBe(200);
      expect(asKept(input.name)).toEqual(before);
    }
  });

  it('a restore Cloudflare refuses can be tried again; nothing is marked restored', async () => {
    const { account, list } = await listWithItems('Retry Co', 'retry_me', [{ ip: '192.0.2.9', comment: '' }]);
    expect((await call(alice, 'POST', '/cloudflare/banlists/clean')).statusCode).toBe(200);
    const snapshot = (await snapshotsOf(alice, '?kind=clean-all')).find((each) => each.restored_at === null);

    ctx.sandbox.control.injectFault({ path: /\/items$/, method: 'POST', status: 503 });
    const failed = await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`);
    expect(failed.statusCode).toBe(502);
    // Clean All kept every list of alice's (the earlier tests' too); the first one's restore failed.
    expect(failed.json().message).toMatch(/^Could not restore "\w+": Cloudflare is unavailable/);
    expect(
      (await snapshotsOf(alice, '?kind=clean-all')).find((each) => each.id === snapshot!.id)?.restored_at,
    ).toBeNull();

    ctx.sandbox.control.clearFaults();
    expect((await call(alice, 'POST', `/snapshots/${snapshot!.id}/restore`)).statusCode).toBe(200);
    expect(cloudflareItems(account.account_id, list.list_id)).toEqual(['192.0.2.9 ']);
  });

  it('an expired snapshot is neither listed nor restorable; bad ids and kinds are 4xx', async () => {
    await listWithItems('Expire Co', 'expiring', [{ ip: '192.0.2.10', comment: '' }]);
    expect((await call(alice, 'POST', '/cloudflare/banlists/clean')).statusCode).toBe(200);
    const [newest] = await snapshotsOf(alice, '?kind=clean-all');
    await ctx.db.query(`UPDATE snapshots SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      newest!.id,
    ]);

    expect((await snapshotsOf(alice)).map((each) => each.id)).not.toContain(newest!.id);
    const restore = await call(alice, 'POST', `/snapshots/${newest!.id}/restore`);
    expect(restore.statusCode).toBe(404);
    expect(restore.json().message).toBe('Snapshot not found or expired.');
    expect((await call(alice, 'POST', '/snapshots/not-a-uuid/restore')).statusCode).toBe(404);
    const badKind = await call(alice, 'GET', '/snapshots?kind=everything');
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toContain('Unknown snapshot kind "everything".');
  });

  it('tells how long a snapshot can be restored and how many a person keeps (the confirms say it)', async () => {
    const policy = await call(alice, 'GET', '/snapshots/policy');
    expect(policy.statusCode).toBe(200);
    expect(policy.json()).toEqual({
      retention_hours: ctx.config.snapshotRetentionMs / 3_600_000,
      kept_per_person: 50,
    });
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/snapshots/policy' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps at most 50 snapshots per person, forgetting the oldest', async () => {
    const { zoneId } = await addOwnedZone(ctx, bob);
    for (let n = 0; n < 52; n += 1) {
      const added = await call(bob, 'POST', `/cloudflare/zones/${zoneId}/dns`, {
        type: 'TXT',
        name: `t${n}`,
        content: `v${n}`,
      });
      await call(bob, 'DELETE', `/cloudflare/zones/${zoneId}/dns/${added.json<DnsRecord>().id}`);
    }
    const kept = await snapshotsOf(bob);
    expect(kept).toHaveLength(50);
    expect(kept[0]!.summary).toMatch(/^TXT t51\./);
    expect(kept.at(-1)!.summary).toMatch(/^TXT t2\./);
  });
});
