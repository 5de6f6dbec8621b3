import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../../test/cloudflare-context';
import type { TestUser } from '../../test/context';
import { spreadsheetSafe, spreadsheetText } from '../../spreadsheet-safe';
import { EXPORT_FIRST_BATCH, exportText } from './ban-list-export';
import { BanListItemsRepository, EXPORT_PIECE_IDS, type BanListItemRecord } from '../ban-list-mirror';

type Account = Awaited<ReturnType<CloudflareTestContext['addAccount']>>;

/**
 * The reference the export's SQL (BanListItemsRepository.exportBatch) is held to: one CSV cell,
 * formula-safe, quoted when it holds a quote, a comma or a line break (RFC 4180).
 */
function csvCell(value: string): string {
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** An item's CSV line as the export writes it: value, comment, expires, added_by, added_at. */
const csvLine = (item: BanListItemRecord) =>
  `${csvCell(item.ip)},${csvCell(item.comment)},${item.expiresAt?.toISOString() ?? 'never'},${csvCell(item.addedBy)},${item.createdOn.toISOString()}\r\n`;

/** Values, comments and dates (null: the synced one) that a CSV writer gets wrong. */
const AWKWARD: [string | null, string, string | null][] = [
  [null, '', null],
  [null, 'plain', '2024-02-29 23:59:59.999999+00'],
  [null, 'with, comma', '1969-12-31 23:59:59.9995+00'],
  [null, 'say "hi"', '1900-01-01 00:00:00+00'],
  [null, '"', '9999-12-31 23:59:59.999+00'],
  [null, '""', '12345-06-07 01:02:03.456789+00'],
  [null, ',', '2020-01-01 00:00:00.0005+00'],
  [null, 'line\nbreak', '2001-09-09 01:46:40+00'],
  [null, 'carriage\rreturn', '2024-06-30 12:00:00+05:30'],
  [null, 'crlf\r\nend\r\n', null],
  [null, '=1+2', null],
  [null, '=HYPERLINK("http://evil", "x")', null],
  [null, '+1', null],
  [null, '-2', null],
  [null, '@SUM(A1)', null],
  [null, '\tTab first', null],
  [null, '\rCR first', null],
  [null, '\nLF first', null],
  [null, ' =space first', null],
  [null, "'already quoted", null],
  [null, "'=quoted formula", null],
  [null, "''+twice quoted", null],
  [null, 'ünïcødé – 日本語 🚫 "q", ok', null],
  [null, '🚫=not first', null],
  [null, '\u00a0=nbsp first', null],
  [null, "back\\slash \\t \\n E'\\r'", null],
  [null, `${'x'.repeat(480)}","=`, null],
  ['=1+1', 'value a formula', null],
  ['-1.2.3.4', '-', null],
  ['@host', '@', null],
  ['a,b', '+', null],
  ['q"uote', '=', null],
  ['line\nvalue', '\t', null],
];

describe('ban list export (GET .../items/export)', () => {
  let ctx: CloudflareTestContext;
  let alice: TestUser;
  let bob: TestUser;
  let account: Account;
  let small: string;
  let big: string;
  let hosts: string;
  let awkward: string;
  /** Past the first batch and into the next. */
  const BIG = EXPORT_FIRST_BATCH * 2 + 17;

  async function syncedList(name: string, kind: 'ip' | 'hostname', items: Record<string, unknown>[]) {
    const list = ctx.sandbox.control.addList(account.account_id, { name, kind });
    ctx.sandbox.control.seedListItems(account.account_id, list.id, items);
    const headers = alice.headers;
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/cloudflare/banlists/update', headers })).statusCode,
    ).toBe(200);
    const sync = await ctx.app.inject({
      method: 'POST',
      url: `/api/cloudflare/banlists/${list.id}/sync`,
      headers,
    });
    expect(sync.statusCode).toBe(200);
    return list.id;
  }

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    alice = await ctx.createUser();
    bob = await ctx.createUser();
    account = await ctx.addAccount(alice, { name: 'Export Co' });
    small = await syncedList('small', 'ip', [
      { ip: '10.0.0.1', comment: 'plain' },
      { ip: '10.0.0.2', comment: 'with, comma' },
      { ip: '10.0.0.3', comment: 'say "hi"' },
      { ip: '10.0.0.4', comment: '=HYPERLINK("http://evil")' },
      { ip: '10.0.0.5', comment: '+1+1' },
      { ip: '10.0.0.6', comment: '-2' },
      { ip: '10.0.0.7', comment: '@SUM(A1)' },
      { ip: '2001:db8::/32', comment: 'scanner v6' },
    ]);
    big = await syncedList(
      'big',
      'ip',
      Array.from({ length: BIG }, (_, i) => ({
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        comment: i % 10 === 0 ? `scanner ${i}` : `item ${i}`,
      })),
    );
    hosts = await syncedList('hosts', 'hostname', [
      { hostname: { url_hostname: 'a.example.com' }, comment: 'x' },
      { hostname: { url_hostname: 'b.example.com' }, comment: 'y' },
    ]);
    awkward = await syncedList(
      'awkward',
      'ip',
      AWKWARD.map((_, i) => ({ ip: `192.0.2.${i}`, comment: `item ${i}` })),
    );
    // What Cloudflare would not send as is, written into the mirror: the export writes what it holds.
    const ref = await refOf(awkward);
    for (const [i, [ip, comment, createdOn]] of AWKWARD.entries()) {
      await ctx.db.query(
        `UPDATE ban_list_items SET ip = coalesce($3, ip), comment = $4, created_on = coalesce($5::timestamptz, created_on)
         WHERE ban_list_ref = $1 AND id = (SELECT id FROM ban_list_items WHERE ban_list_ref = $1 ORDER BY id OFFSET $2 LIMIT 1)`,
        [ref, i, ip, comment, createdOn],
      );
    }
    // Expiries and who added the items (every third expires; some adders look like formulas).
    await ctx.db.query(
      `UPDATE ban_list_items SET
         expires_at = CASE WHEN id % 3 = 0 THEN '2030-01-02 03:04:05.678+00'::timestamptz + id * interval '1 second' END,
         added_by = CASE id % 4 WHEN 0 THEN '' WHEN 1 THEN 'alice@example.com' WHEN 2 THEN '=cmd|x' ELSE 'a, "b" (API key "k")' END,
         added_via = CASE WHEN id % 4 = 0 THEN 'cloudflare' ELSE 'console' END
       WHERE ban_list_ref = $1`,
      [ref],
    );
  });
  afterAll(() => ctx.close());

  async function refOf(listId: string): Promise<number> {
    const [row] = await ctx.db.query<{ id: number }>('SELECT id FROM ban_lists WHERE list_id = $1', [listId]);
    return row!.id;
  }

  /** The list's items as the export read them before the database wrote its lines (row objects, by id). */
  async function itemsOf(listId: string): Promise<BanListItemRecord[]> {
    return new BanListItemsRepository(ctx.db).page(await refOf(listId), {
      filter: { kind: 'all' },
      sort: 'id',
      order: 'asc',
      limit: 1_000_000,
      start: { fromId: 0 },
    });
  }

  /** The export as the JavaScript reference writes it: the header, then csvCell's cells and toISOString. */
  const referenceCsv = (items: BanListItemRecord[]) =>
    `value,comment,expires,added_by,added_at\r\n${items.map(csvLine).join('')}`;

  async function textOf(chunks: AsyncIterable<string>): Promise<string[]> {
    const all: string[] = [];
    for await (const chunk of chunks) all.push(chunk);
    return all;
  }

  const exportOf = (listId: string, query: Record<string, string> = {}, user = alice) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/cloudflare/banlists/${listId}/items/export?${new URLSearchParams(query)}`,
      headers: user.headers,
    });

  /** RFC 4180 rows of a CSV text (quoted fields may hold commas, quotes and line breaks). */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    const field = /"((?:[^"]|"")*)"|([^",\r\n]*)/y;
    let at = 0;
    while (at < text.length) {
      const row: string[] = [];
      for (;;) {
        field.lastIndex = at;
        const match = field.exec(text)!;
        row.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : match[2]!);
        at = field.lastIndex;
        if (text[at] !== ',') break;
        at += 1;
      }
      rows.push(row);
      if (text.startsWith('\r\n', at)) at += 2;
      else break;
    }
    return rows;
  }

  it('exports the whole list as CSV: header, quoting, formula cells made text', async () => {
    const response = await exportOf(small);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="small.csv"');
    expect(response.body.startsWith('value,comment,expires,added_by,added_at\r\n')).toBe(true);
    expect(response.body).toContain('10.0.0.2,"with, comma",');
    expect(response.body).toContain('10.0.0.3,"say ""hi""",');
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual(['value', 'comment', 'expires', 'added_by', 'added_at']);
    const byIp = new Map(rows.slice(1).map((row) => [row[0], row]));
    expect(rows).toHaveLength(9);
    expect(byIp.get('10.0.0.1')![1]).toBe('plain');
    expect(byIp.get('10.0.0.4')![1]).toBe(`'=HYPERLINK("http://evil")`);
    expect(byIp.get('10.0.0.5')![1]).toBe("'+1+1");
    expect(byIp.get('10.0.0.6')![1]).toBe("'-2");
    expect(byIp.get('10.0.0.7')![1]).toBe("'@SUM(A1)");
    expect(byIp.get('2001:db8::/32')![1]).toBe('scanner v6');
    for (const row of rows.slice(1)) {
      expect(row.slice(2, 4)).toEqual(['never', '']);
      expect(new Date(row[4]!).toISOString()).toBe(row[4]);
    }
  });

  it('writes every line as the JavaScript reference does: csvCell cells, toISOString dates', async () => {
    const items = await itemsOf(awkward);
    expect(items).toHaveLength(AWKWARD.length);
    expect(items.map((item) => item.comment)).toEqual(AWKWARD.map(([, comment]) => comment));
    const response = await exportOf(awkward);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(referenceCsv(items));
    expect(response.body).toContain(',"\'=HYPERLINK(""http://evil"", ""x"")",');
    expect(response.body).toContain(',+012345-06-07T01:02:03.456Z\r\n');

    const txt = await exportOf(awkward, { format: 'txt' });
    expect(txt.body).toBe(items.map((item) => `${item.ip}\n`).join(''));
  });

  it('writes the same text whatever the batches: one item each, a few, or as many as fit in a few characters', async () => {
    const items = await itemsOf(awkward);
    const repository = new BanListItemsRepository(ctx.db);
    const ref = await refOf(awkward);
    const reference = referenceCsv(items).slice('value,comment,expires,added_by,added_at\r\n'.length);
    for (const options of [
      { items: 1 },
      { items: 2 },
      { items: 7 },
      { items: AWKWARD.length },
      { items: 3, chars: 1_000 },
    ]) {
      const chunks = await textOf(await exportText(repository, ref, { kind: 'all' }, 'csv', options));
      expect(chunks.join(''), JSON.stringify(options)).toBe(reference);
      if (options.items) expect(chunks).toHaveLength(Math.ceil(AWKWARD.length / options.items));
    }
    // After the first batch, long lines make small batches: the text aimed at, not the items allowed.
    const bounded = await textOf(
      await exportText(repository, ref, { kind: 'all' }, 'csv', { items: 5, chars: 150 }),
    );
    expect(bounded.length).toBeGreaterThan(Math.ceil(AWKWARD.length / 5));
    expect(bounded.join('')).toBe(reference);
  });

  it('hands a batch on in pieces small enough for the young generation to free', async () => {
    const repository = new BanListItemsRepository(ctx.db);
    const items = await itemsOf(big);
    const chunks = await textOf(await exportText(repository, await refOf(big), { kind: 'all' }, 'csv'));
    const reference = referenceCsv(items).slice('value,comment,expires,added_by,added_at\r\n'.length);
    expect(chunks.join('')).toBe(reference);
    // Pieces of EXPORT_PIECE_IDS items at most (the list's ids follow one another), a few KB each.
    const lines = chunks.map((chunk) => chunk.split('\r\n').length - 1);
    expect(Math.max(...lines)).toBe(EXPORT_PIECE_IDS);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(BIG / EXPORT_PIECE_IDS));
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(100_000);
  });

  it('exports TXT: one value a line', async () => {
    const response = await exportOf(small, { format: 'txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="small.txt"');
    expect(response.body.split('\n').filter(Boolean).sort()).toEqual(
      [
        '10.0.0.1',
        '10.0.0.2',
        '10.0.0.3',
        '10.0.0.4',
        '10.0.0.5',
        '10.0.0.6',
        '10.0.0.7',
        '2001:db8::/32',
      ].sort(),
    );
    const hostnames = await exportOf(hosts, { format: 'txt' });
    expect(hostnames.body).toBe('a.example.com\nb.example.com\n');
  });

  it('exports a list longer than a batch whole, in order, each item once', async () => {
    const response = await exportOf(big, { format: 'txt' });
    expect(response.statusCode).toBe(200);
    const lines = response.body.split('\n').filter(Boolean);
    expect(lines).toHaveLength(BIG);
    expect(new Set(lines).size).toBe(BIG);
    // The list's order (No ascending), which a sync numbers in Cloudflare's order.
    const mirrored = await ctx.db.query<{ ip: string }>(
      `SELECT ip FROM ban_list_items WHERE ban_list_ref = (SELECT id FROM ban_lists WHERE list_id = $1) ORDER BY id`,
      [big],
    );
    expect(lines).toEqual(mirrored.map((row) => row.ip));
  });

  it('exports a list longer than a batch as CSV exactly as the JavaScript reference writes it', async () => {
    const response = await exportOf(big);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(referenceCsv(await itemsOf(big)));
  });

  it("exports only the search's matches, as the items screen's search finds them", async () => {
    const comments = await exportOf(big, { search: 'scanner' });
    const scanners = (await itemsOf(big)).filter((item) => item.comment.startsWith('scanner '));
    expect(comments.body).toBe(referenceCsv(scanners));
    const rows = parseCsv(comments.body).slice(1);
    expect(rows).toHaveLength(Math.ceil(BIG / 10));
    expect(rows.every((row) => row[1]!.startsWith('scanner '))).toBe(true);

    const prefix = await exportOf(big, { search: '10.0.1.', format: 'txt' });
    const values = prefix.body.split('\n').filter(Boolean);
    expect(values).toHaveLength(256);
    expect(values.every((value) => value.startsWith('10.0.1.'))).toBe(true);

    const none = await exportOf(small, { search: 'nothing matches this' });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('value,comment,expires,added_by,added_at\r\n');
  });

  it("is another person's list: not found, and an unknown list too", async () => {
    const other = await exportOf(small, {}, bob);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Ban list not found.' });
    expect(other.body).not.toContain('10.0.0.1');
    expect((await exportOf('0123456789abcdef0123456789abcdef')).statusCode).toBe(404);
  });

  it('refuses an unknown format or a search past its bound with a 400', async () => {
    const format = await exportOf(small, { format: 'xlsx' });
    expect(format.statusCode).toBe(400);
    expect(format.json<{ message: string }>().message).toContain('format must be one of csv, txt.');
    const search = await exportOf(small, { search: 'x'.repeat(201) });
    expect(search.statusCode).toBe(400);
  });
});

describe('csvCell', () => {
  it('quotes what needs it and makes formula starts text', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(csvCell('\tTAB')).toBe("'\tTAB");
    expect(csvCell('2001:db8::1')).toBe('2001:db8::1');
    expect(csvCell("'=1+2")).toBe("''=1+2");
    expect(csvCell("'quoted")).toBe("'quoted");
  });

  it('is read back as it was by spreadsheetText (an export imported again)', () => {
    for (const [, comment] of AWKWARD) expect(spreadsheetText(spreadsheetSafe(comment))).toBe(comment);
  });
});
