import type {
  BanList,
  BanListImportPreview,
  BanListImportResult,
  BanListItem,
  Job,
  JobsList,
} from '@guardian/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';

/**
 * Writes Cloudflare took while the console could not tell (issue 41): the status of the write's bulk
 * operation could not be read, or the write's answer was lost. Cloudflare runs each operation for
 * about 2 s here, as a large one does: longer than the client's own retries of a failed poll.
 */
const OPERATION_STEP_MS = 1_000;

/**
 * The network under the console's client: loses the answers of `remaining` writes, once sent; with
 * `thenCutOff`, every call after such a loss fails until the test clears it.
 */
const lost = { remaining: 0, thenCutOff: false, cut: false };
const network: typeof fetch = async (input, init) => {
  if (lost.cut) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
  const response = await fetch(input, init);
  if (lost.remaining > 0 && (init?.method ?? 'GET').toUpperCase() !== 'GET') {
    lost.remaining -= 1;
    lost.cut = lost.thenCutOff;
    await response.arrayBuffer();
    throw new TypeError('fetch failed', { cause: new Error('read ECONNRESET (the answer was lost)') });
  }
  return response;
};

describe('a list write whose outcome was lost', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let account: Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({
      sandbox: { operationDelayMs: OPERATION_STEP_MS },
      config: { cloudflare: { fetch: network } as never, jobs: { waitMs: 30_000 } },
    });
    alice = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Outcome Co', plan: 'enterprise' });
  });
  afterAll(() => ctx.close());
  afterEach(() => {
    ctx.sandbox.control.clearFaults();
    Object.assign(lost, { remaining: 0, thenCutOff: false, cut: false });
  });

  const call = (url: string, payload?: object, method: 'POST' | 'DELETE' = 'POST') =>
    ctx.app.inject({ method, url, headers: alice.headers, payload });

  let lists = 0;
  async function syncedList(items: Record<string, unknown>[]) {
    lists += 1;
    const list = ctx.sandbox.control.addList(account.account_id, { name: `outcome_${lists}`, kind: 'ip' });
    if (items.length > 0) ctx.sandbox.control.seedListItems(account.account_id, list.id, items);
    expect((await call('/api/cloudflare/banlists/update')).statusCode).toBe(200);
    const sync = await call(`/api/cloudflare/banlists/${list.id}/sync`);
    expect(sync.statusCode, sync.body).toBe(200);
    return { listId: list.id, ref: sync.json<BanList>().id };
  }
  const cloudflareValues = (listId: string) =>
    ctx.sandbox.control
      .getListItems(account.account_id, listId)
      .map((item) => String(item.ip))
      .sort();
  const mirror = async (ref: number) => {
    const rows = await ctx.db.query<{ ip: string; added_via: string; added_by: string | null }>(
      'SELECT ip, added_via, added_by FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY ip',
      [ref],
    );
    const [list] = await ctx.db.query<{ items_count: number }>(
      'SELECT items_count FROM ban_lists WHERE id = $1',
      [ref],
    );
    return { values: rows.map((row) => row.ip), rows, count: list!.items_count };
  };
  /** The status poll answers 503 to all the client's attempts of one poll (3). */
  const statusPollFails = () =>
    ctx.sandbox.control.injectFault({ method: 'GET', path: /bulk_operations/, status: 503, times: 3 });

  it('an import whose status poll fails ends with the mirror equal to Cloudflare, and says what happened', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.41.0.1' }]);
    const preview = await call(`/api/cloudflare/banlists/${listId}/items/import/preview`, {
      text: '10.41.0.2\n10.41.0.3\n10.41.0.4\n',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    statusPollFails();
    const applied = await call(
      `/api/cloudflare/banlists/${listId}/items/import/${preview.json<BanListImportPreview>().id}`,
      { expires: 'never' },
    );
    await ctx.sandbox.control.settle();
    expect(cloudflareValues(listId)).toEqual(['10.41.0.1', '10.41.0.2', '10.41.0.3', '10.41.0.4']);
    const after = await mirror(ref);
    expect(after.values).toEqual(cloudflareValues(listId));
    expect(after.count).toBe(4);
    // The imported items keep who imported them.
    expect(after.rows.filter((row) => row.added_via === 'import')).toHaveLength(3);
    expect(applied.statusCode, applied.body).toBe(200);
    const result = applied.json<BanListImportResult>();
    expect(result).toMatchObject({ added: 3, list: { items: 4 } });
    expect(result.outcome).toMatch(
      /Cloudflare's answer .* lost.*3 of 3 items are at Cloudflare and in the console/,
    );
  });

  it('an import whose answer was lost is read back once its operation landed', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.41.4.1' }]);
    const preview = await call(`/api/cloudflare/banlists/${listId}/items/import/preview`, {
      text: '10.41.4.2\n10.41.4.3\n',
    });
    lost.remaining = 1;
    const applied = await call(
      `/api/cloudflare/banlists/${listId}/items/import/${preview.json<BanListImportPreview>().id}`,
      { expires: 'never' },
    );
    await ctx.sandbox.control.settle();
    expect(cloudflareValues(listId)).toEqual(['10.41.4.1', '10.41.4.2', '10.41.4.3']);
    expect((await mirror(ref)).values).toEqual(cloudflareValues(listId));
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<BanListImportResult>().outcome).toMatch(
      /Guardian read the list back: 2 of 2 items are at Cloudflare and in the console\.$/,
    );
  });

  it('a lost add that cannot be checked now says so, and the sync it queues brings the mirror to Cloudflare', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.41.5.1' }]);
    // Cloudflare cannot be reached after the write: the item cannot be looked for.
    Object.assign(lost, { remaining: 1, thenCutOff: true });
    const added = await call(`/api/cloudflare/banlists/${listId}/items`, { ip: '10.41.5.2', comment: 'z' });
    lost.cut = false;
    expect(added.statusCode).toBe(502);
    expect(added.json<{ message: string }>().message).toMatch(
      /^Cloudflare's answer to adding 10\.41\.5\.2 in "outcome_\d+" was lost .* Guardian updates the list from Cloudflare in the background \(Jobs: Update from Cloudflare\)/,
    );
    await ctx.sandbox.control.settle();
    const jobs = await ctx.app.inject({ method: 'GET', url: '/api/jobs', headers: alice.headers });
    const sync = jobs
      .json<JobsList>()
      .jobs.find((job) => job.kind === 'ban-list-sync' && job.list_id === listId);
    expect(sync).toBeDefined();
    for (let i = 0; i < 400; i++) {
      const job = await ctx.app.inject({
        method: 'GET',
        url: `/api/jobs/${sync!.id}`,
        headers: alice.headers,
      });
      if (job.json<Job>().state === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(cloudflareValues(listId)).toEqual(['10.41.5.1', '10.41.5.2']);
    expect((await mirror(ref)).values).toEqual(cloudflareValues(listId));
  });

  it('an add whose answer was lost after Cloudflare took it is recorded, with who added it', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.41.1.1' }]);
    lost.remaining = 1;
    const added = await call(`/api/cloudflare/banlists/${listId}/items`, { ip: '10.41.1.2', comment: 'x' });
    await ctx.sandbox.control.settle();
    expect(cloudflareValues(listId)).toEqual(['10.41.1.1', '10.41.1.2']);
    const after = await mirror(ref);
    expect(after.values).toEqual(cloudflareValues(listId));
    expect(after.count).toBe(2);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<BanListItem>()).toMatchObject({ ip: '10.41.1.2', added_via: 'console' });
  });

  it('an add whose status poll fails is recorded once Cloudflare has it', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.41.2.1' }]);
    statusPollFails();
    const added = await call(`/api/cloudflare/banlists/${listId}/items`, { ip: '10.41.2.2', comment: 'y' });
    await ctx.sandbox.control.settle();
    expect((await mirror(ref)).values).toEqual(cloudflareValues(listId));
    expect(added.statusCode, added.body).toBe(201);
  });

  it('a delete whose status poll fails ends with the mirror equal to Cloudflare', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.41.3.1' }, { ip: '10.41.3.2' }]);
    const [row] = await ctx.db.query<{ id: number }>(
      "SELECT id FROM ban_list_items WHERE ban_list_ref = $1 AND ip = '10.41.3.2'",
      [ref],
    );
    statusPollFails();
    const removed = await call(`/api/cloudflare/banlists/${listId}/items/${row!.id}`, undefined, 'DELETE');
    await ctx.sandbox.control.settle();
    expect(cloudflareValues(listId)).toEqual(['10.41.3.1']);
    expect((await mirror(ref)).values).toEqual(cloudflareValues(listId));
    expect(removed.statusCode, removed.body).toBeLessThan(300);
  });
});
