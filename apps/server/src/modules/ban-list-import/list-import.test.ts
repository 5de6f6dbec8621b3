import type {
  BanList,
  BanListImportPreview,
  BanListImportResult,
  BanListItem,
  BanListItemHistory,
  BanListItemsPage,
  Job,
} from '@guardian/contract';
import type { FastifyInstance } from 'fastify';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppDeps } from '../../app';
import { createServices } from '../../services';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { csvRows, parseExpiryCell, parseImport } from './list-import';
import { parseItemValue } from '../ban-list-mirror';
import { ListImportRepository } from './list-import.repository';
import { writesFor } from './list-import.service';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('import parsing', () => {
  it('reads one value a line, normalised as the Add dialog does, with # comments and blank lines', () => {
    const parsed = parseImport(
      'ip',
      '# blocked today\n1.2.3.4\n\n2001:DB8:0:0::1 # a comment\n10.1.2.3/8\n  198.51.100.7  \n',
    );
    expect(parsed.format).toBe('text');
    expect(parsed.lines).toBe(4);
    expect(parsed.items.map((entry) => [entry.line, entry.item.value])).toEqual([
      [2, '1.2.3.4'],
      [4, '2001:db8::1'],
      [5, '10.0.0.0/8'],
      [6, '198.51.100.7'],
    ]);
    expect(parsed.invalid).toEqual([]);
  });

  it('lists every invalid line by number with the reason, for each list kind', () => {
    const ip = parseImport('ip', '1.2.3.4\nnot-an-ip\n10.0.0.0/4\n2001:db8::/100\n300.1.1.1\n');
    expect(ip.invalid).toEqual([
      { line: 2, text: 'not-an-ip', reason: '"not-an-ip" is not a valid IPv4 or IPv6 address or CIDR.' },
      { line: 3, text: '10.0.0.0/4', reason: 'IPv4 CIDR prefixes must be between /8 and /32.' },
      { line: 4, text: '2001:db8::/100', reason: 'IPv6 CIDR prefixes must be between /12 and /64.' },
      { line: 5, text: '300.1.1.1', reason: '"300.1.1.1" is not a valid IPv4 or IPv6 address or CIDR.' },
    ]);
    expect(ip.invalidCount).toBe(4);

    const hostnames = parseImport('hostname', 'Example.COM\n*.example.org\n1.2.3.4\nbad_host!\n');
    expect(hostnames.items.map((entry) => entry.item.value)).toEqual(['example.com', '*.example.org']);
    expect(hostnames.invalid.map((line) => line.line)).toEqual([3, 4]);

    const asns = parseImport('asn', 'AS13335\n15169\nAS-x\n99999999999\n');
    expect(asns.items.map((entry) => entry.item.value)).toEqual(['13335', '15169']);
    expect(asns.invalid.map((line) => line.line)).toEqual([3, 4]);

    const redirects = parseImport('redirect', 'example.com/a -> https://example.com/b\nexample.com/c\n');
    expect(redirects.items.map((entry) => entry.item.value)).toEqual([
      'example.com/a -> https://example.com/b',
    ]);
    expect(redirects.invalid.map((line) => line.line)).toEqual([2]);
  });

  it('counts repeats in the file once (by the item, not the text: 2001:db8::1 and 2001:DB8::0:1 are one)', () => {
    const parsed = parseImport('ip', '2001:db8::1\n1.1.1.1\n2001:DB8::0:1\n1.1.1.1\n');
    expect(parsed.items.map((entry) => entry.item.value)).toEqual(['2001:db8::1', '1.1.1.1']);
    expect(parsed.repeated).toBe(2);
    expect(parsed.lines).toBe(4);
  });

  it('reads CSV value,comment[,expires] with or without a header, quoted fields and per-line expiry', () => {
    const parsed = parseImport(
      'ip',
      'ip,comment,expires\n1.2.3.4,scanner,\n"5.6.7.8","says ""hi"", twice",1d\n9.9.9.9,,never\n8.8.8.8,x,2027-01-31\n',
      'auto',
      NOW,
    );
    expect(parsed.format).toBe('csv');
    expect(parsed.lines).toBe(4);
    expect(
      parsed.items.map((entry) => [entry.line, entry.item.value, entry.comment, entry.expiresAt]),
    ).toEqual([
      [2, '1.2.3.4', 'scanner', undefined],
      [3, '5.6.7.8', 'says "hi", twice', new Date('2026-11-27T12:00:00Z')],
      [4, '9.9.9.9', '', null],
      [5, '8.8.8.8', 'x', new Date('2027-01-31T00:00:00Z')],
    ]);
    const headless = parseImport('ip', '1.2.3.4,first\n1.2.3.5,second\n');
    expect(headless.items.map((entry) => entry.comment)).toEqual(['first', 'second']);
  });

  it('keeps a `# comment` after a value as its comment (issue 35), in text and in headerless CSV', () => {
    const text = parseImport(
      'ip',
      '# FireHOL-style feed\n1.2.3.4 # scanner from the feed\n5.6.7.8\n9.9.9.9\t#tabbed  \n10.0.0.1#not-a-comment\n',
    );
    expect(text.format).toBe('text');
    expect(text.items.map((entry) => [entry.item.value, entry.comment])).toEqual([
      ['1.2.3.4', 'scanner from the feed'],
      ['5.6.7.8', ''],
      ['9.9.9.9', 'tabbed'],
    ]);
    expect(text.invalid.map((line) => line.line)).toEqual([5]);

    const csv = parseImport(
      'ip',
      '1.2.3.4 # inline\n5.6.7.8,cell # kept whole\n9.9.9.9 # inline,cell\n',
      'csv',
    );
    expect(csv.items.map((entry) => [entry.item.value, entry.comment])).toEqual([
      ['1.2.3.4', 'inline'],
      ['5.6.7.8', 'cell # kept whole'],
      ['9.9.9.9', 'cell inline'],
    ]);
    const long = parseImport('ip', `1.2.3.4 # ${'x'.repeat(501)}\n`);
    expect(long.invalid[0]!.reason).toBe('The comment is longer than 500 characters.');
  });

  it("reads a CSV header's columns by name, in any order: the export's, an older export's, spreadsheet-safe cells", () => {
    const exported = parseImport(
      'ip',
      'value,comment,expires,added_by,added_at\r\n' +
        '1.2.3.4,plain,never,alice@example.com,2026-01-02T03:04:05.000Z\r\n' +
        `5.6.7.8,"'=HYPERLINK(""x"")",2027-01-31T12:00:00.000Z,'=cmd,2026-01-02T03:04:05.000Z\r\n` +
        `9.9.9.9,"''-twice, quoted",never,,2026-01-02T03:04:05.000Z\r\n` +
        "10.0.0.1,'already quoted,,,2026-01-02T03:04:05.000Z\r\n",
      'auto',
      NOW,
    );
    expect(exported.invalid).toEqual([]);
    expect(exported.items.map((entry) => [entry.item.value, entry.comment, entry.expiresAt])).toEqual([
      ['1.2.3.4', 'plain', null],
      ['5.6.7.8', '=HYPERLINK("x")', new Date('2027-01-31T12:00:00Z')],
      ['9.9.9.9', "'-twice, quoted", null],
      ['10.0.0.1', "'already quoted", undefined],
    ]);

    // An export before issue 35: its third column is when the item was added, not an expiry.
    const older = parseImport(
      'ip',
      'ip,comment,created_on\r\n1.2.3.4,scanner,2025-03-04T05:06:07.000Z\r\n2001:db8::/32,v6,2020-01-01T00:00:00.000Z\r\n',
      'auto',
      NOW,
    );
    expect(older.invalid).toEqual([]);
    expect(older.items.map((entry) => [entry.item.value, entry.comment, entry.expiresAt])).toEqual([
      ['1.2.3.4', 'scanner', undefined],
      ['2001:db8::/32', 'v6', undefined],
    ]);

    const reordered = parseImport(
      'ip',
      'Expires,Comment,Added By,IP\n1d,first,someone,1.2.3.4\n',
      'auto',
      NOW,
    );
    expect(reordered.items.map((entry) => [entry.item.value, entry.comment, entry.expiresAt])).toEqual([
      ['1.2.3.4', 'first', new Date('2026-11-27T12:00:00Z')],
    ]);
    const stray = parseImport('ip', 'ip,comment\n1.2.3.4,a,b\n', 'auto', NOW);
    expect(stray.invalid.map((line) => [line.line, line.reason])).toEqual([
      [2, 'A CSV line has a cell in a column the header does not name.'],
    ]);
  });

  it('refuses a CSV header naming a column it does not read, or one twice, saying the names', () => {
    expect(() => parseImport('ip', 'ip,comment,country\n1.2.3.4,a,NL\n')).toThrow(
      'The CSV header names a column Guardian does not read: "country". Name the columns value (or ip), comment, expires, added_by and added_at, in any order; added_by, added_at and created_on are not read.',
    );
    expect(() => parseImport('ip', 'ip,value\n1.2.3.4,1.2.3.5\n')).toThrow(
      'The CSV header names the value column twice.',
    );
  });

  it('refuses CSV lines with a bad expiry, too many columns, a comment too long or a broken quote', () => {
    const parsed = parseImport(
      'ip',
      `1.2.3.4,a,yesterday\n1.2.3.5,b,2020-01-01\n1.2.3.6,c,,extra\n1.2.3.7,${'x'.repeat(501)}\n1.2.3.8,"open\n`,
      'csv',
      NOW,
    );
    expect(parsed.items).toEqual([]);
    expect(parsed.invalid.map((line) => [line.line, line.reason.slice(0, 40)])).toEqual([
      [1, '"yesterday" is not an expiry: use never,'],
      [2, 'The expiry 2020-01-01 has already passed'],
      [3, 'A CSV line has at most three columns: va'],
      [4, 'The comment is longer than 500 character'],
      [5, 'This line is not valid CSV: Quote Not Cl'],
    ]);
  });

  it('cuts every value a reason quotes as the line is cut (issue 33: a 7.9 M-character line gave a 7.9 MB answer)', () => {
    const long = 'x'.repeat(1_000_000);
    const reasons = [
      ...parseImport('ip', `${long}\n1.2.3.${long}\n`).invalid,
      ...parseImport('hostname', `${long}.example.com\n`).invalid,
      ...parseImport('asn', `AS${long}\n`).invalid,
      ...parseImport('redirect', `example.com/a -> ftp://${long}\n`).invalid,
      ...parseImport(
        'ip',
        `1.2.3.4,a,${long}\n1.2.3.5,b,2020-01-01T00:00:00.${'0'.repeat(1_000_000)}Z\n`,
        'csv',
        NOW,
      ).invalid,
      ...parseImport('ip', `1.2.3.4,a"${long}\n1.2.3.5,"${long}\n`, 'csv', NOW).invalid,
    ].map((line) => line.reason);
    expect(reasons).toHaveLength(9);
    for (const reason of reasons) expect(reason.length).toBeLessThan(400);
    expect(reasons[0]).toBe(`"${'x'.repeat(120)}…" is not a valid IPv4 or IPv6 address or CIDR.`);
  });

  it('reads expiry cells as presets, dates and dates with times, within five years', () => {
    expect(parseExpiryCell('', NOW)).toBeUndefined();
    expect(parseExpiryCell('NEVER', NOW)).toBeNull();
    expect(parseExpiryCell('1h', NOW)).toEqual(new Date('2026-11-26T13:00:00Z'));
    expect(parseExpiryCell('30d', NOW)).toEqual(new Date('2026-12-26T12:00:00Z'));
    expect(parseExpiryCell('2027-01-01T10:00:00+02:00', NOW)).toEqual(new Date('2027-01-01T08:00:00Z'));
    expect(parseExpiryCell('2040-01-01', NOW)).toBe('The expiry 2040-01-01 is more than 5 years ahead.');
  });

  it('reads quote-free CSV exactly as csv-parse does', () => {
    const text = '1.2.3.4,a,1d\n\n# note\n5.6.7.8,b c , never\n9.9.9.9\n,,\n';
    const direct = csvRows(text, () => undefined).map((row) => row.cells.map((cell) => cell.trim()));
    const library = (
      parse(text, { comment: '#', relax_column_count: true, skip_empty_lines: true }) as string[][]
    ).map((cells) => cells.map((cell) => cell.trim()));
    expect(direct).toEqual(library);
    expect(csvRows('1.2.3.4,a\r\n5.6.7.8,b\r\n', () => undefined).map((row) => row.cells)).toEqual([
      ['1.2.3.4', 'a'],
      ['5.6.7.8', 'b'],
    ]);
  });

  it("reads plain IPv4 addresses quickly to the Add dialog's text", () => {
    const values = ['0.0.0.0', '255.255.255.255', '10.0.0.1', '1.2.3.4', '192.168.1.100'];
    for (const value of values) {
      expect(parseImport('ip', value).items[0]!.item).toEqual(parseItemValue('ip', value));
    }
    // Not plain: leading zeros are refused as the Add dialog refuses them.
    expect(parseImport('ip', '010.0.0.1').invalid[0]!.reason).toBe(
      parseItemValue('ip', '010.0.0.1') as string,
    );
  });

  // Its speed is the bench's to judge (bench/sections/import.ts: the preview of 100,000 lines, < 2 s).
  it('reads 100,000 lines, each counted as an item or an invalid line', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) =>
      i % 100 === 0 ? `bad-${i},x` : `${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}.9,item ${i}`,
    );
    const parsed = parseImport('ip', lines.join('\n'));
    expect(parsed.items).toHaveLength(99_000);
    expect(parsed.invalidCount).toBe(1_000);
  });

  it('needs one Cloudflare write per documented per-request maximum (none is documented)', () => {
    expect(writesFor(0)).toBe(0);
    expect(writesFor(90_000)).toBe(1);
    expect(writesFor(2_500, 1_000)).toBe(3);
  });
});

describe('import into a list', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let account: Awaited<ReturnType<CloudflareTestContext['addAccount']>>;
  /** A second app on the same database whose calls wait only 200 ms for their jobs. */
  let impatient: FastifyInstance;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext({ sandbox: { operationDelayMs: 5 } });
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Import Co', plan: 'enterprise' });
    await ctx.db.query("UPDATE cloudflare_accounts SET list_plan = 'enterprise' WHERE account_id = $1", [
      account.account_id,
    ]);
    impatient = await ctx.impatientApp(200);
  });
  afterAll(() => ctx.close());
  afterEach(() => ctx.sandbox.control.clearFaults());

  const call = (
    user: TestUser,
    url: string,
    payload?: object,
    app: FastifyInstance = ctx.app,
    method: 'POST' | 'GET' | 'DELETE' = 'POST',
  ) => app.inject({ method, url, headers: user.headers, payload });

  let lists = 0;
  async function syncedList(items: Record<string, unknown>[], owner = account, user = alice) {
    lists += 1;
    const list = ctx.sandbox.control.addList(owner.account_id, { name: `import_${lists}`, kind: 'ip' });
    if (items.length > 0) ctx.sandbox.control.seedListItems(owner.account_id, list.id, items);
    expect((await call(user, '/api/cloudflare/banlists/update')).statusCode).toBe(200);
    const sync = await call(user, `/api/cloudflare/banlists/${list.id}/sync`);
    expect(sync.statusCode).toBe(200);
    return { listId: list.id, ref: sync.json<BanList>().id };
  }
  const preview = async (listId: string, text: string, user = alice) => {
    const answer = await call(user, `/api/cloudflare/banlists/${listId}/items/import/preview`, { text });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<BanListImportPreview>();
  };
  const writes = () =>
    ctx.sandbox.control.callLog({ path: /\/items$/ }).filter((entry) => entry.method !== 'GET').length;
  /** Reads of list items at Cloudflare: every one, or only Cloudflare's searches, or only the rest. */
  const itemReads = (which: 'all' | 'search' | 'walk' = 'all') =>
    ctx.sandbox.control
      .callLog({ method: 'GET', path: /\/items$/ })
      .filter((entry) => which === 'all' || entry.query.includes('search=') === (which === 'search')).length;
  const cloudflareValues = (listId: string) =>
    ctx.sandbox.control
      .getListItems(account.account_id, listId)
      .map((item) => item.ip as string)
      .sort();
  const mirrorRows = (ref: number) =>
    ctx.db.query<{
      ip: string;
      comment: string;
      added_via: string;
      added_by: string;
      expires_at: Date | null;
    }>(
      'SELECT ip, comment, added_via, added_by, expires_at FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY ip',
      [ref],
    );
  const itemsPage = async (listId: string) => {
    const answer = await call(
      alice,
      `/api/cloudflare/banlists/${listId}/items?per_page=100`,
      undefined,
      ctx.app,
      'GET',
    );
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<BanListItemsPage>();
  };
  async function ended(id: string): Promise<Job> {
    for (let i = 0; i < 400; i++) {
      const job = (await call(alice, `/api/jobs/${id}`, undefined, ctx.app, 'GET')).json<Job>();
      if (['succeeded', 'failed', 'cancelled'].includes(job.state)) return job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`job ${id} did not end`);
  }

  it('previews without calling Cloudflare: new, already listed, repeated and invalid lines', async () => {
    const { listId } = await syncedList([{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }]);
    const before = writes();
    const calls = ctx.sandbox.control.callLog({}).length;
    const answer = await preview(listId, '10.0.0.1\n10.0.0.3\n10.0.0.3\nnope\n10.0.0.4\n');
    expect(answer).toMatchObject({
      format: 'text',
      lines: 5,
      to_add: 2,
      already_listed: 1,
      repeated: 1,
      invalid_count: 1,
      invalid: [{ line: 4, text: 'nope', reason: '"nope" is not a valid IPv4 or IPv6 address or CIDR.' }],
      capacity: { used: expect.any(Number), limit: 500_000, plan: 'Enterprise' },
      refused: null,
    });
    expect(writes()).toBe(before);
    expect(ctx.sandbox.control.callLog({}).length).toBe(calls);
  });

  it('applies only the new items, in one Cloudflare write, with their provenance and expiry', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.1.0.1', comment: 'old' }]);
    const shown = await preview(
      listId,
      'ip,comment,expires\n10.1.0.1,again,\n10.1.0.2,scanner,\n10.1.0.3,brute force,never\n10.1.0.0/24,net,1d\n',
    );
    expect(shown.to_add).toBe(3);
    const idOf = async (ip: string) =>
      (
        await ctx.db.query<{ id: number; item_id: string }>(
          'SELECT id, item_id FROM ban_list_items WHERE ban_list_ref = $1 AND ip = $2',
          [ref, ip],
        )
      )[0];
    const kept = await idOf('10.1.0.1');
    const before = writes();
    const reads = itemReads();
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {
      expires: '7d',
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const result = applied.json<BanListImportResult>();
    expect(result).toMatchObject({ added: 3, already_listed: 0, write_calls: 1, list: { items: 4 } });
    expect(writes() - before).toBe(1);
    // The write's completed operation is enough: the list is not read back.
    expect(itemReads() - reads).toBe(0);
    expect(cloudflareValues(listId)).toEqual(['10.1.0.0/24', '10.1.0.1', '10.1.0.2', '10.1.0.3']);
    const rows = await mirrorRows(ref);
    expect(rows.map((row) => [row.ip, row.comment, row.added_via])).toEqual([
      ['10.1.0.0/24', 'net', 'import'],
      ['10.1.0.1', 'old', 'cloudflare'],
      ['10.1.0.2', 'scanner', 'import'],
      ['10.1.0.3', 'brute force', 'import'],
    ]);
    expect(rows[2]!.added_by).toBe(alice.email);
    const day = 86_400_000;
    expect(rows[0]!.expires_at!.getTime() - Date.now()).toBeGreaterThan(day - 60_000);
    expect(rows[2]!.expires_at!.getTime() - Date.now()).toBeGreaterThan(7 * day - 60_000);
    expect(rows[3]!.expires_at).toBeNull();
    // The items already listed keep their ids (the list is not loaded anew); the new ones carry
    // provisional Cloudflare ids until one is needed.
    expect(await idOf('10.1.0.1')).toEqual(kept);
    expect((await idOf('10.1.0.2'))!.item_id).toMatch(/^pending:[0-9a-f-]{36}$/);
    expect((await itemsPage(listId)).items.find((item) => item.ip === '10.1.0.2')).toMatchObject({
      comment: 'scanner',
      added_via: 'import',
      added_by: alice.email,
      expires_at: rows[2]!.expires_at!.toISOString(),
    });

    // A preview is applied once.
    const again = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    expect(again.statusCode).toBe(404);
  });

  it('sends only what the list still lacks, looking the items up again only when the list gained some since the preview', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.7.0.1', comment: 'old' }]);
    const lookups = vi.spyOn(ListImportRepository.prototype, 'existingKeys');
    const apply = async (shown: BanListImportPreview) => {
      const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
      expect(applied.statusCode, applied.body).toBe(200);
      return applied.json<BanListImportResult>();
    };
    try {
      // Untouched since the preview: its items are sent as previewed, without a lookup.
      const first = await preview(listId, '10.7.0.2,a\n10.7.0.3,b\n');
      lookups.mockClear();
      expect(await apply(first)).toMatchObject({ added: 2, already_listed: 0, list: { items: 3 } });
      expect(lookups).not.toHaveBeenCalled();

      // One of the previewed items is added from the items screen meanwhile: it is not sent again
      // (Cloudflare would overwrite its comment), the other one is.
      const second = await preview(listId, '10.7.0.4,import\n10.7.0.5,import\n');
      const added = await call(alice, `/api/cloudflare/banlists/${listId}/items`, {
        ip: '10.7.0.4',
        comment: 'by hand',
      });
      expect(added.statusCode, added.body).toBe(201);
      lookups.mockClear();
      expect(await apply(second)).toMatchObject({ added: 1, already_listed: 1, list: { items: 5 } });
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
    const comments = Object.fromEntries(
      ctx.sandbox.control.getListItems(account.account_id, listId).map((item) => [item.ip, item.comment]),
    );
    expect(comments).toEqual({
      '10.7.0.1': 'old',
      '10.7.0.2': 'a',
      '10.7.0.3': 'b',
      '10.7.0.4': 'by hand',
      '10.7.0.5': 'import',
    });
    expect((await mirrorRows(ref)).map((row) => [row.ip, row.comment])).toEqual([
      ['10.7.0.1', 'old'],
      ['10.7.0.2', 'a'],
      ['10.7.0.3', 'b'],
      ['10.7.0.4', 'by hand'],
      ['10.7.0.5', 'import'],
    ]);
  });

  it('sends a 50,000-item import in one write and runs it as a job with progress', async () => {
    const { listId, ref } = await syncedList([]);
    const text = Array.from(
      { length: 50_000 },
      (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    ).join('\n');
    const shown = await preview(listId, text);
    expect(shown.to_add).toBe(50_000);
    const before = writes();
    const reads = itemReads();
    const started = await call(
      alice,
      `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`,
      {},
      impatient,
    );
    expect(started.statusCode, started.body).toBe(202);
    const job = started.json<Job>();
    expect(job).toMatchObject({ kind: 'ban-list-import', target: expect.stringMatching(/^import_/) });
    const done = await ended(job.id);
    expect(done.state, done.error ?? '').toBe('succeeded');
    expect(done.done).toBe(done.total);
    expect(done.total).toBe(50_000);
    expect((done.result as BanListImportResult).added).toBe(50_000);
    expect(writes() - before).toBe(1);
    expect(itemReads() - reads).toBe(0);
    expect(cloudflareValues(listId)).toHaveLength(50_000);
    const [count] = await ctx.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM ban_list_items WHERE ban_list_ref = $1 AND added_via = 'import'",
      [ref],
    );
    expect(count!.count).toBe(50_000);
    // Synced after it (the import's items in a table of their own, mirror-recording.ts): every item
    // kept with its provenance, the history's provisional ids renamed to Cloudflare's.
    const sync = await call(alice, `/api/cloudflare/banlists/${listId}/sync`, undefined, impatient);
    expect(sync.statusCode, sync.body).toBe(202);
    expect((await ended(sync.json<Job>().id)).state).toBe('succeeded');
    const [synced] = await ctx.db.query<{ count: number; imported: number; pending: number }>(
      `SELECT count(*)::int AS count, count(*) FILTER (WHERE added_via = 'import')::int AS imported,
              count(*) FILTER (WHERE item_id LIKE 'pending%')::int AS pending
       FROM ban_list_items WHERE ban_list_ref = $1`,
      [ref],
    );
    expect(synced).toEqual({ count: 50_000, imported: 50_000, pending: 0 });
  });

  it("counts the items recorded as it goes, 5,000 at a time: the job's count and rate move (issue 35)", async () => {
    const { listId, ref } = await syncedList([]);
    const text = Array.from({ length: 12_000 }, (_, i) => `10.36.${i >> 8}.${i & 255}`).join('\n');
    const shown = await preview(listId, text);
    expect(await new ListImportRepository(ctx.db).claim(shown.id!, alice.id, ref)).toBe(12_000);
    const { listImport } = createServices(ctx.config, createAppDeps(ctx.config, ctx.db));
    const reports: [number, number | null | undefined][] = [];
    const recordedAt: number[] = [];
    let flushed = 0;
    const result = (await listImport.run({
      job: {
        userId: alice.id,
        createdAt: new Date(),
        data: { listId, importId: shown.id, expires: 'never', by: alice.email },
      } as unknown as Parameters<typeof listImport.run>[0]['job'],
      signal: new AbortController().signal,
      progress: (done, total) => {
        reports.push([done, total]);
        recordedAt.push(ctx.sandbox.control.getListItems(account.account_id, listId).length);
      },
      flushProgress: async () => void flushed++,
    })) as BanListImportResult;
    expect(result.added).toBe(12_000);
    expect(reports).toEqual([
      [0, 12_000],
      [5_000, 12_000],
      [10_000, 12_000],
      [12_000, 12_000],
    ]);
    // The count is written before Cloudflare's write, which reports nothing until it ends...
    expect(flushed).toBe(1);
    expect(recordedAt[0]).toBe(0);
    // ...and then counts the items in Guardian, all of them at Cloudflare by then.
    expect(recordedAt.slice(1)).toEqual([12_000, 12_000, 12_000]);
    const [count] = await ctx.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM ban_list_items WHERE ban_list_ref = $1',
      [ref],
    );
    expect(count!.count).toBe(12_000);
  });

  it("refuses an import that would pass the account's quota before sending anything, with the numbers", async () => {
    const small = await ctx.addAccount(alice, { name: 'Small Co', plan: 'free' });
    const { listId } = await syncedList(
      Array.from({ length: 9_995 }, (_, i) => ({ ip: `10.2.${i >> 8}.${i & 255}` })),
      small,
    );
    const kept = async () =>
      (await ctx.db.query('SELECT id FROM ban_list_imports WHERE user_id = $1', [alice.id])).length;
    const keptBefore = await kept();
    const refused = await preview(listId, Array.from({ length: 10 }, (_, i) => `10.3.0.${i}`).join('\n'));
    expect(refused.refused).toBe(
      '"Small Co" has 9,995 of 10,000 list items (Free plan): 10 more would pass it (5 left). Nothing will be sent.',
    );
    // A refused preview is not kept (issue 33): there is nothing to confirm.
    expect(refused.id).toBeNull();
    expect(await kept()).toBe(keptBefore);

    // One that fitted when it was previewed is refused when it no longer does.
    const shown = await preview(listId, Array.from({ length: 5 }, (_, i) => `10.3.0.${i}`).join('\n'));
    expect(shown.refused).toBeNull();
    ctx.sandbox.control.seedListItems(small.account_id, listId, [{ ip: '10.3.1.1' }]);
    expect((await call(alice, `/api/cloudflare/banlists/${listId}/sync`)).statusCode).toBe(200);
    const before = writes();
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    expect(applied.statusCode).toBe(400);
    expect(applied.json<{ message: string }>().message).toBe(
      '"Small Co" has 9,996 of 10,000 list items (Free plan): 5 more would pass it (4 left). Nothing was sent.',
    );
    expect(writes()).toBe(before);
  });

  it('imports an export into an empty list as the same items, comments and expiries (issue 35)', async () => {
    const comments = [
      'plain',
      'with, comma and "quotes"',
      '=1+2',
      "'=already quoted",
      '@SUM(A1)',
      'two\nlines',
      '',
      'ünïcødé 🚫',
    ];
    const source = await syncedList(comments.map((comment, i) => ({ ip: `10.35.0.${i}`, comment })));
    // Provenance and expiries as the console keeps them: some added here and expiring, some by Cloudflare.
    await ctx.db.query(
      `UPDATE ban_list_items SET added_via = 'console', added_by = '=' || $2::text,
         expires_at = now() + interval '3 days' + id * interval '1 minute'
       WHERE ban_list_ref = $1 AND id % 2 = 0`,
      [source.ref, alice.email],
    );
    const exported = await call(
      alice,
      `/api/cloudflare/banlists/${source.listId}/items/export`,
      undefined,
      ctx.app,
      'GET',
    );
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('never');

    const target = await syncedList([]);
    const shown = await preview(target.listId, exported.body);
    expect(shown).toMatchObject({
      format: 'csv',
      lines: comments.length,
      to_add: comments.length,
      invalid_count: 0,
    });
    // The file's expiries (never included) win over the dialog's choice.
    const applied = await call(alice, `/api/cloudflare/banlists/${target.listId}/items/import/${shown.id}`, {
      expires: '30d',
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<BanListImportResult>().added).toBe(comments.length);

    const items = async (ref: number) =>
      (await mirrorRows(ref)).map((row) => [row.ip, row.comment, row.expires_at?.toISOString() ?? null]);
    const before = await items(source.ref);
    expect(before.filter((row) => row[2] !== null)).toHaveLength(comments.length / 2);
    expect(await items(target.ref)).toEqual(before);
    const atCloudflare = (listId: string) =>
      ctx.sandbox.control
        .getListItems(account.account_id, listId)
        .map((item) => [item.ip, item.comment ?? ''])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(atCloudflare(target.listId)).toEqual(atCloudflare(source.listId));
  });

  it('keeps at most 3 previews a person, the newest: a preview drops the oldest (issue 33)', async () => {
    const { listId } = await syncedList([]);
    const shown = [];
    for (let i = 0; i < 5; i++) shown.push(await preview(listId, `10.7.0.${i}\n10.7.1.${i}\n`));
    const kept = await ctx.db.query<{ id: string }>(
      'SELECT id FROM ban_list_imports WHERE user_id = $1 AND applied_at IS NULL ORDER BY created_at',
      [alice.id],
    );
    expect(kept.map((row) => row.id).sort()).toEqual(
      shown
        .slice(2)
        .map((answer) => answer.id!)
        .sort(),
    );
    const dropped = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown[0]!.id}`, {});
    expect(dropped.statusCode).toBe(404);
    // A preview with nothing to add is not kept.
    const nothing = await preview(listId, 'not-an-ip\n');
    expect(nothing.id).toBeNull();
    expect(await ctx.db.query('SELECT id FROM ban_list_imports WHERE user_id = $1', [alice.id])).toHaveLength(
      3,
    );
  });

  it("keeps at most the bound's bytes of a person's previews, dropping the oldest", async () => {
    const { ref } = await syncedList([]);
    const items = (n: number) =>
      Array.from({ length: n }, (_, i): [string, string, null] => [
        `10.8.${i >> 8}.${i & 255}`,
        'x'.repeat(50),
        null,
      ]);
    const bound = { previews: 3, bytes: 20_000 };
    const expiresAt = new Date(Date.now() + 60_000);
    const ids = ['a', 'b', 'c'].map((letter) => `00000000-0000-4000-8000-00000000000${letter}`);
    const store = (id: string) =>
      ctx.db.transaction((tx) =>
        new ListImportRepository(tx).store(id, bob.id, { ref, nextItemId: 1 }, items(100), expiresAt, bound),
      );
    await store(ids[0]!);
    await store(ids[1]!);
    const size = await ctx.db.query<{ bytes: number }>(
      'SELECT sum(octet_length(items))::integer AS bytes FROM ban_list_imports WHERE user_id = $1',
      [bob.id],
    );
    expect(size[0]!.bytes).toBeLessThanOrEqual(bound.bytes);
    expect(size[0]!.bytes).toBeGreaterThan(bound.bytes / 2);
    await store(ids[2]!);
    const kept = await ctx.db.query<{ id: string }>('SELECT id FROM ban_list_imports WHERE user_id = $1', [
      bob.id,
    ]);
    expect(kept.map((row) => row.id).sort()).toEqual(ids.slice(1));
  });

  it('leaves the mirror equal to Cloudflare when the write fails in the middle', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.4.0.1' }]);
    const shown = await preview(listId, '10.4.0.2\n10.4.0.3\n');
    // Cloudflare takes the write, then its operation cannot be followed at all...
    ctx.sandbox.control.injectFault({ method: 'GET', path: /bulk_operations/, status: 500 });
    const reads = itemReads();
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    const job = applied.statusCode === 202 ? await ended(applied.json<{ id: string }>().id) : undefined;
    ctx.sandbox.control.clearFaults();
    // ...so the list is read back, the mirror holds what Cloudflare holds, under Cloudflare's ids, as
    // imported, and the person is told what happened instead of "try again".
    const result = (job?.result ?? applied.json()) as BanListImportResult;
    expect(result.outcome).toBe(
      "Cloudflare's answer to the import was lost (Cloudflare is unavailable right now); Guardian read the list back: 2 of 2 items are at Cloudflare and in the console.",
    );
    expect(itemReads() - reads).toBeGreaterThan(0);
    expect(cloudflareValues(listId)).toEqual(['10.4.0.1', '10.4.0.2', '10.4.0.3']);
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(cloudflareValues(listId));
    const ids = await ctx.db.query<{ ip: string; item_id: string; added_via: string }>(
      'SELECT ip, item_id, added_via FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY ip',
      [ref],
    );
    const atCloudflare = ctx.sandbox.control.getListItems(account.account_id, listId);
    expect(ids).toEqual(
      atCloudflare
        .map((item) => ({
          ip: item.ip,
          item_id: item.id,
          added_via: item.ip === '10.4.0.1' ? 'cloudflare' : 'import',
        }))
        .sort((a, b) => String(a.ip).localeCompare(String(b.ip))),
    );
  });

  it('records an item once when another process mirrored it while the write was at Cloudflare', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.6.0.1' }]);
    const shown = await preview(listId, '10.6.0.2\n10.6.0.3\n');
    // The write is answered slowly (its items are recorded once Cloudflare took it); meanwhile another
    // process (this database, as a sync of the list there would) mirrors one of the imported values,
    // moving the list's next id.
    ctx.sandbox.control.injectFault({ method: 'POST', path: /\/items$/, latencyMs: 1_000, times: 1 });
    const before = writes();
    const applying = call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    for (let i = 0; i < 400 && writes() === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writes()).toBe(before + 1);
    await ctx.db.transaction(async (tx) => {
      const [list] = await tx.query<{ next_item_id: number }>(
        'SELECT next_item_id FROM ban_lists WHERE id = $1 FOR UPDATE',
        [ref],
      );
      await tx.query(
        `INSERT INTO ban_list_items (ban_list_ref, id, item_id, ip, comment, created_on, ip_sort)
         VALUES ($1, $2, $3, '10.6.0.3', '', now(), '10.6.0.3')`,
        [ref, list!.next_item_id, 'f'.repeat(32)],
      );
      await tx.query(
        'UPDATE ban_lists SET next_item_id = next_item_id + 1, items_count = items_count + 1 WHERE id = $1',
        [ref],
      );
    });
    const applied = await applying;
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<BanListImportResult>().added).toBe(1);
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(['10.6.0.1', '10.6.0.2', '10.6.0.3']);
    expect((await itemsPage(listId)).totalItems).toBe(3);
  });

  it("records the items while Cloudflare's bulk operation runs, not after its end is known", async () => {
    const { listId, ref } = await syncedList([{ ip: '10.7.0.1' }]);
    const shown = await preview(listId, '10.7.0.2\n10.7.0.3\n');
    // Guardian hears of the operation's end 1.5 s late: its items are in the mirror long before.
    ctx.sandbox.control.injectFault({ method: 'GET', path: /bulk_operations/, latencyMs: 1_500, times: 1 });
    const before = writes();
    let ended = false;
    const applying = call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {}).finally(
      () => (ended = true),
    );
    for (let i = 0; i < 400 && writes() === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const sentAt = Date.now();
    let seenAfterMs: number | undefined;
    while (!ended && seenAfterMs === undefined) {
      if ((await mirrorRows(ref)).length === 3) seenAfterMs = Date.now() - sentAt;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const applied = await applying;
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<BanListImportResult>()).toMatchObject({ added: 2, list: { items: 3 } });
    expect(seenAfterMs).toBeDefined();
    expect(seenAfterMs!).toBeLessThan(1_000);
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(cloudflareValues(listId));
  });

  it("removes the items recorded ahead when Cloudflare's bulk operation fails, in the same job", async () => {
    // Cloudflare's Free plan holds 10,000 items an account; Guardian is told Enterprise (500,000), so
    // it sends an import Cloudflare's operation then refuses whole.
    const free = await ctx.addAccount(alice, { name: 'Free Co', plan: 'free' });
    await ctx.db.query("UPDATE cloudflare_accounts SET list_plan = 'enterprise' WHERE account_id = $1", [
      free.account_id,
    ]);
    const seeded = Array.from({ length: 9_000 }, (_, i) => ({ ip: `10.8.${i >> 8}.${i & 255}` }));
    const { listId, ref } = await syncedList(seeded, free);
    const lines = Array.from({ length: 12_000 }, (_, i) => `10.9.${i >> 8}.${i & 255},imported ${i}`);
    const shown = await preview(listId, lines.join('\n'));
    expect(shown.to_add).toBe(12_000);
    const [history] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ban_list_item_history WHERE ban_list_ref = $1',
      [ref],
    );
    // The operation's end is heard late: by then its items are in the mirror (three batches of 5,000).
    ctx.sandbox.control.injectFault({ method: 'GET', path: /bulk_operations/, latencyMs: 1_500, times: 1 });
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const [row] = await ctx.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM ban_list_items WHERE ban_list_ref = $1',
          [ref],
        );
        most = Math.max(most, row!.n);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    const job = applied.statusCode === 202 ? await ended(applied.json<{ id: string }>().id) : undefined;
    watching = false;
    await watch;
    const error = job ? job.error : applied.json<{ message: string }>().message;
    expect(job?.state ?? applied.statusCode).toBe(job ? 'failed' : 400);
    expect(error).toContain('This list is at the maximum number of items');
    expect(most).toBeGreaterThan(9_000);
    // Nothing of it at Cloudflare, nothing of it in the mirror, its count or its history.
    const atCloudflare = ctx.sandbox.control
      .getListItems(free.account_id, listId)
      .map((item) => item.ip as string)
      .sort();
    expect(atCloudflare).toHaveLength(9_000);
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(atCloudflare);
    expect((await itemsPage(listId)).totalItems).toBe(9_000);
    const [after] = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ban_list_item_history WHERE ban_list_ref = $1',
      [ref],
    );
    expect(after!.n).toBe(history!.n);
  });

  it("keeps what it recorded while the operation ran when the operation's end, lost at first, is found completed", async () => {
    const { listId, ref } = await syncedList([{ ip: '10.11.0.1' }]);
    const shown = await preview(listId, '10.11.0.2\n10.11.0.3\n');
    const [list] = await ctx.db.query<{ next_item_id: number }>(
      'SELECT next_item_id FROM ban_lists WHERE id = $1',
      [ref],
    );
    // The operation's first status reads fail past the client's retries; asked again, it completed.
    ctx.sandbox.control.injectFault({ method: 'GET', path: /bulk_operations/, status: 500, times: 4 });
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    const job = applied.statusCode === 202 ? await ended(applied.json<{ id: string }>().id) : undefined;
    const result = (job?.result ?? applied.json()) as BanListImportResult;
    expect(result).toMatchObject({ added: 2, list: { items: 3 } });
    expect(result.outcome).toMatch(/Guardian asked again: Cloudflare completed it, 2 of 2 items/);
    // Recorded once, under the ids they were first given (a withdrawal and a second recording would
    // have numbered them past those: an id is never reused), each with one 'added' event.
    const rows = await ctx.db.query<{ id: number; ip: string }>(
      "SELECT id, ip FROM ban_list_items WHERE ban_list_ref = $1 AND ip <> '10.11.0.1' ORDER BY id",
      [ref],
    );
    expect(rows).toEqual([
      { id: list!.next_item_id, ip: '10.11.0.2' },
      { id: list!.next_item_id + 1, ip: '10.11.0.3' },
    ]);
    const events = await ctx.db.query<{ value: string }>(
      "SELECT value FROM ban_list_item_history WHERE ban_list_ref = $1 AND event = 'added' ORDER BY value",
      [ref],
    );
    expect(events.map((event) => event.value)).toEqual(['10.11.0.2', '10.11.0.3']);
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(cloudflareValues(listId));
  });

  it('withdraws what an import stopped mid-operation recorded ahead of Cloudflare before the next one', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.10.0.1' }]);
    const shown = await preview(listId, '10.10.0.2\n10.10.0.3\n');
    // A server process recorded 10.10.0.2 while its write's operation ran, and died: Cloudflare
    // never completed it (nothing was sent here), and the mirror holds it, marked unconfirmed.
    await ctx.db.transaction(async (tx) => {
      const [list] = await tx.query<{ next_item_id: number }>(
        'SELECT next_item_id FROM ban_lists WHERE id = $1 FOR UPDATE',
        [ref],
      );
      const imports = new ListImportRepository(tx);
      const item = {
        itemId: 'pending:left-behind',
        ip: '10.10.0.2',
        comment: '',
        createdOn: NOW.toISOString(),
      };
      await imports.insertImported(
        ref,
        list!.next_item_id,
        [{ ...item, ipSort: '10.10.0.2', expiresAt: null }],
        {
          userId: alice.id,
          name: alice.email,
        },
      );
      await imports.markUnconfirmed(ref, list!.next_item_id, list!.next_item_id + 1);
    });
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(['10.10.0.1', '10.10.0.2']);
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    expect(applied.statusCode, applied.body).toBe(200);
    // Withdrawn first (with its history), so both items are sent and recorded once.
    expect(applied.json<BanListImportResult>()).toMatchObject({ added: 2, list: { items: 3 } });
    expect(cloudflareValues(listId)).toEqual(['10.10.0.1', '10.10.0.2', '10.10.0.3']);
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(cloudflareValues(listId));
    const left = await ctx.db.query(
      "SELECT 1 FROM ban_list_item_history WHERE ban_list_ref = $1 AND item_id = 'pending:left-behind'",
      [ref],
    );
    expect(left).toEqual([]);
  });

  it('leaves the mirror as it was when Cloudflare does not take the write, and says so', async () => {
    const { listId, ref } = await syncedList([{ ip: '10.5.0.1' }]);
    const shown = await preview(listId, '10.5.0.2\n');
    ctx.sandbox.control.injectFault({ method: 'POST', path: /\/items$/, status: 503 });
    const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    // A 5xx may come from a write that landed: the list is read back before the person is told.
    const job = applied.statusCode === 202 ? await ended(applied.json<{ id: string }>().id) : undefined;
    const error = job ? job.error : applied.json<{ message: string }>().message;
    expect(job?.state ?? applied.statusCode).toBe(job ? 'failed' : 502);
    expect(error).toMatch(
      /^Cloudflare's answer to the import was lost \(Cloudflare is unavailable right now\); Guardian read the list back: 0 of 1 items are at Cloudflare and in the console, nothing was imported\./,
    );
    ctx.sandbox.control.clearFaults();
    expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(['10.5.0.1']);
    expect(cloudflareValues(listId)).toEqual(['10.5.0.1']);
  });

  describe("an imported item's Cloudflare id", () => {
    /** Imports `text` into the list (no item read at Cloudflare) and answers the mirror's items by value. */
    async function imported(listId: string, text: string, expires = 'never') {
      const shown = await preview(listId, text);
      const reads = itemReads();
      const applied = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {
        expires,
      });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(itemReads() - reads).toBe(0);
      return new Map((await itemsPage(listId)).items.map((item) => [item.ip, item] as const));
    }
    const deletes = () => ctx.sandbox.control.callCount({ method: 'DELETE', path: /\/items$/ });
    const cloudflareIdOf = (listId: string, ip: string) =>
      ctx.sandbox.control.getListItems(account.account_id, listId).find((item) => item.ip === ip)?.id;
    /** An item's history as the console shows it (its value's in the list), the events' kinds. */
    const historyOf = async (listId: string, id: number) => {
      const answer = await call(
        alice,
        `/api/cloudflare/banlists/${listId}/items/${id}/history`,
        undefined,
        ctx.app,
        'GET',
      );
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<BanListItemHistory>().events.map((event) => event.event);
    };

    it('is found by one search when the item is deleted, which removes it at Cloudflare', async () => {
      // 10.7.0.100 starts with 10.7.0.10: Cloudflare's search answers both, only the exact one counts.
      const { listId, ref } = await syncedList([{ ip: '10.7.0.1' }, { ip: '10.7.0.100' }]);
      const items = await imported(listId, '10.7.0.10,ten\n10.7.0.11,eleven\n', '1d');
      const ten = items.get('10.7.0.10')!;
      const cloudflareId = cloudflareIdOf(listId, '10.7.0.10');
      const [searches, walks, sent] = [itemReads('search'), itemReads('walk'), deletes()];
      const removed = await call(
        alice,
        `/api/cloudflare/banlists/${listId}/items/${ten.id}`,
        undefined,
        ctx.app,
        'DELETE',
      );
      expect(removed.statusCode, removed.body).toBe(204);
      expect(itemReads('search') - searches).toBe(1);
      expect(itemReads('walk') - walks).toBe(0);
      expect(deletes() - sent).toBe(1);
      expect(cloudflareValues(listId)).toEqual(['10.7.0.1', '10.7.0.100', '10.7.0.11']);
      expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(cloudflareValues(listId));
      expect(cloudflareId).toBeDefined();
      // Added again by hand: its history is the address's, the import's add and its removal first.
      const again = await call(alice, `/api/cloudflare/banlists/${listId}/items`, {
        ip: '10.7.0.10',
        comment: 'again',
      });
      expect(again.statusCode, again.body).toBe(201);
      expect(await historyOf(listId, again.json<BanListItem>().id)).toEqual(['added', 'removed', 'added']);
    });

    it('is not sent when Cloudflare no longer has the item: it is removed here alone', async () => {
      const { listId, ref } = await syncedList([{ ip: '10.8.0.1' }]);
      const items = await imported(listId, '10.8.0.5\n');
      // Someone removes it at Cloudflare, behind Guardian's back.
      const gone = await ctx.sandbox.app.inject({
        method: 'DELETE',
        url: `/client/v4/accounts/${account.account_id}/rules/lists/${listId}/items`,
        headers: { authorization: `Bearer ${account.tokenValue}` },
        payload: { items: [{ id: cloudflareIdOf(listId, '10.8.0.5') }] },
      });
      expect(gone.statusCode, gone.body).toBe(200);
      await ctx.sandbox.control.settle();
      expect(cloudflareValues(listId)).toEqual(['10.8.0.1']);
      const sent = deletes();
      const item = items.get('10.8.0.5')!;
      const removed = await call(
        alice,
        `/api/cloudflare/banlists/${listId}/items/${item.id}`,
        undefined,
        ctx.app,
        'DELETE',
      );
      expect(removed.statusCode, removed.body).toBe(204);
      expect(deletes() - sent).toBe(0);
      expect((await mirrorRows(ref)).map((row) => row.ip)).toEqual(['10.8.0.1']);
      const again = await call(alice, `/api/cloudflare/banlists/${listId}/items`, {
        ip: '10.8.0.5',
        comment: 'again',
      });
      expect(again.statusCode, again.body).toBe(201);
      expect(await historyOf(listId, again.json<BanListItem>().id)).toEqual(['added', 'removed', 'added']);
    });

    it('is learned for many expired items by one walk of the list, which go in one DELETE', async () => {
      const { listId, ref } = await syncedList(
        Array.from({ length: 600 }, (_, i) => ({ ip: `10.9.${i >> 8}.${i & 255}` })),
      );
      const values = Array.from({ length: 40 }, (_, i) => `10.10.0.${i}`);
      await imported(listId, values.join('\n'), '1h');
      await ctx.db.query(
        `UPDATE ban_list_items SET expires_at = now() - interval '1 minute' WHERE ban_list_ref = $1 AND added_via = 'import'`,
        [ref],
      );
      const cloudflareId = cloudflareIdOf(listId, values[7]!);
      const [searches, walks, sent] = [itemReads('search'), itemReads('walk'), deletes()];
      const { itemExpiry } = createServices(ctx.config, createAppDeps(ctx.config, ctx.db));
      expect(await itemExpiry.expireAccount(account.id)).toBe(40);
      expect(itemReads('search') - searches).toBe(0);
      // 640 items at Cloudflare, the imported ones last: the 2 pages of 500 of one walk.
      expect(itemReads('walk') - walks).toBe(2);
      expect(deletes() - sent).toBe(1);
      expect(cloudflareValues(listId)).toHaveLength(600);
      expect(cloudflareValues(listId).some((ip) => ip.startsWith('10.10.'))).toBe(false);
      const [left] = await ctx.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM ban_list_items WHERE ban_list_ref = $1',
        [ref],
      );
      expect(left!.count).toBe(600);
      expect(cloudflareId).toBeDefined();
      const again = await call(alice, `/api/cloudflare/banlists/${listId}/items`, {
        ip: values[7],
        comment: 'again',
      });
      expect(again.statusCode, again.body).toBe(201);
      expect(await historyOf(listId, again.json<BanListItem>().id)).toEqual(['added', 'expired', 'added']);
    });

    it("is learned by a sync, which keeps the import's provenance, expiry and history", async () => {
      const { listId, ref } = await syncedList([{ ip: '10.11.0.1' }]);
      const before = (await imported(listId, '10.11.0.2,two\n', '7d')).get('10.11.0.2')!;
      const synced = await call(alice, `/api/cloudflare/banlists/${listId}/sync`);
      expect(synced.statusCode, synced.body).toBe(200);
      const after = (await itemsPage(listId)).items.find((item) => item.ip === '10.11.0.2')!;
      expect(after).toMatchObject({
        comment: 'two',
        added_via: 'import',
        added_by: alice.email,
        expires_at: before.expires_at,
      });
      const cloudflareId = cloudflareIdOf(listId, '10.11.0.2');
      const [row] = await ctx.db.query<{ item_id: string }>(
        'SELECT item_id FROM ban_list_items WHERE ban_list_ref = $1 AND ip = $2',
        [ref, '10.11.0.2'],
      );
      expect(row!.item_id).toBe(cloudflareId);
      expect(await historyOf(listId, after.id)).toEqual(['added']);
    });
  });

  it("drops a list's item history with the list, and with its account", async () => {
    const owner = await ctx.addAccount(alice, { name: 'History Co' });
    const historyCount = async (ref: number) =>
      (
        await ctx.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM ban_list_item_history WHERE ban_list_ref = $1',
          [ref],
        )
      )[0]!.count;
    const [kept, deleted, other] = [
      await syncedList([], owner),
      await syncedList([], owner),
      await syncedList([]),
    ];
    for (const list of [kept, deleted, other]) {
      const shown = await preview(list.listId, '10.8.0.1\n10.8.0.2\n');
      const applied = await call(
        alice,
        `/api/cloudflare/banlists/${list.listId}/items/import/${shown.id}`,
        {},
      );
      expect(applied.statusCode, applied.body).toBe(200);
      expect(await historyCount(list.ref)).toBe(2);
    }
    const removed = await call(
      alice,
      `/api/cloudflare/banlists/${deleted.ref}`,
      undefined,
      ctx.app,
      'DELETE',
    );
    expect(removed.statusCode, removed.body).toBe(204);
    expect([await historyCount(kept.ref), await historyCount(deleted.ref)]).toEqual([2, 0]);
    // An account's lists go with it (its ban_lists rows by their key), and their history with them.
    await ctx.db.query('DELETE FROM cloudflare_accounts WHERE account_id = $1', [owner.account_id]);
    expect([await historyCount(kept.ref), await historyCount(other.ref)]).toEqual([0, 2]);
  });

  it("keeps another person's lists and previews out of reach (not found)", async () => {
    const { listId } = await syncedList([]);
    const shown = await preview(listId, '10.6.0.1\n');
    const peek = await call(bob, `/api/cloudflare/banlists/${listId}/items/import/preview`, {
      text: '1.1.1.1',
    });
    expect(peek.statusCode).toBe(404);
    const apply = await call(bob, `/api/cloudflare/banlists/${listId}/items/import/${shown.id}`, {});
    expect(apply.statusCode).toBe(404);
    // Bob's own list does not reach Alice's preview either.
    const bobs = await ctx.addAccount(bob, { name: 'Bob Co' });
    const bobList = await syncedList([], bobs, bob);
    const cross = await call(bob, `/api/cloudflare/banlists/${bobList.listId}/items/import/${shown.id}`, {});
    expect(cross.statusCode).toBe(404);
  });

  it('refuses more than 100,000 lines in words, and a body past its limit with 413', async () => {
    const { listId } = await syncedList([]);
    const many = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/preview`, {
      text: '1.1.1.1\n'.repeat(100_001),
    });
    expect(many.statusCode).toBe(400);
    expect(many.json<{ message: string }>().message).toBe(
      'The import has 100,001 lines; at most 100,000 are taken at once. Please split it.',
    );
    const huge = await call(alice, `/api/cloudflare/banlists/${listId}/items/import/preview`, {
      text: 'x'.repeat(17_000_000),
    });
    expect(huge.statusCode).toBe(413);
  });
});
