import { alertsPageSchema, type AlertsPage } from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createAppDeps } from '../../app';
import { recordingStatements } from '../../test/plans';
import { createTestContext, type TestContext, type TestUser } from '../../test/context';
import { countingDb } from '../../test/counting-db';
import { AlertsRepository, toAlert, type AlertFilter, type AlertRow } from './alerts.repository';

/** An alert's row as the page once read it (its dates as Dates), for the reference below. */
type StoredAlert = AlertRow & { seq: number };

/**
 * The page as the server wrote it when it read the alerts as rows (before they came as one JSON row):
 * each row mapped to an Alert as the repository maps the rows it still reads (an alert acknowledged or
 * resolved), the page checked by its schema and serialised (fastify-type-provider-zod).
 */
function referencePage(rows: StoredAlert[], limit: number): string {
  const shown = rows.slice(0, limit);
  return JSON.stringify(
    alertsPageSchema.parse({
      alerts: shown.map(toAlert),
      next_cursor: rows.length > limit ? Number(shown.at(-1)!.seq) : null,
    }),
  );
}

/** A plan node of EXPLAIN (FORMAT JSON), as far as these tests read it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe('Alerts page', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const stored = (userId: number, filter: string, params: unknown[]) =>
    ctx.db.query<StoredAlert>(
      `SELECT id, kind, severity, state, title, subject_type, subject_id, subject_name, count,
              first_seen_at, last_seen_at, acknowledged_at, resolved_at, seq
         FROM alerts WHERE user_id = $1 ${filter} ORDER BY seq DESC`,
      [userId, ...params],
    );
  const page = async (who: TestUser, query: string) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/alerts${query}`,
      headers: who.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    return response.body;
  };

  it('answers the page byte for byte as the rows serialised did: awkward titles, subjects or none, dates to the millisecond, before 1970 and past 9999', async () => {
    const ada = await ctx.createUser();
    const titles = [
      'plain',
      'quotes " and \\ backslash',
      'tab\tnew line\ncarriage\r form\f back\b',
      'controls \u0001\u001f and DEL \u007f',
      'unicode é ü 中文 and 😀 and \u2028 \u2029',
      '</script><script>alert(1)</script>',
    ];
    for (const [index, title] of titles.entries()) {
      await ctx.db.query(
        `INSERT INTO alerts (user_id, kind, severity, state, dedupe_key, title, subject_type, subject_id,
                             subject_name, count, first_seen_at, last_seen_at, acknowledged_at, resolved_at)
         VALUES ($1, 'job-failed', 'warning', $2, $3, $4, $5, $6, $7, $8,
                 $9::timestamptz, $9::timestamptz + interval '1.2345678 seconds', $10, $11)`,
        [
          ada.id,
          ['open', 'acknowledged', 'resolved', 'cleared'][index % 4],
          `test:${index}`,
          title,
          index % 3 === 0 ? null : 'account',
          index % 3 === 0 ? null : `account-${index}`,
          index % 3 === 1 ? null : `Account "${index}"`,
          1 + index,
          ['2026-11-29 10:11:12.987654+00', '1999-12-31 23:59:59.999999-05', '10000-01-01 00:00:00.5+00'][
            index % 3
          ],
          index % 4 === 1 ? '1969-12-31 23:59:59.9995+00' : null,
          index % 4 >= 2 ? '2027-03-15 12:00:00.123+01' : null,
        ],
      );
    }
    const all = await stored(ada.id, '', []);
    expect(all).toHaveLength(titles.length);
    // Every page of two, then the whole list, then a filter, as the rows' own serialisation wrote them.
    let before = '';
    for (let first = 0; first < all.length; first += 2) {
      expect(await page(ada, `?limit=2${before}`)).toBe(referencePage(all.slice(first), 2));
      before = `&before=${all[first + 1]?.seq}`;
    }
    expect(await page(ada, '')).toBe(referencePage(all, 25));
    const resolved = await stored(ada.id, `AND state = 'resolved'`, []);
    expect(await page(ada, '?state=resolved&limit=1')).toBe(referencePage(resolved, 1));
    // None at all: an empty page, no cursor.
    expect(await page(ada, '?kind=capacity')).toBe('{"alerts":[],"next_cursor":null}');
  });

  it('one page request reads the alerts in one statement, answered in one row whatever the page size', async () => {
    const bo = await ctx.createUser();
    for (let index = 0; index < 30; index++) {
      await ctx.db.query(
        `INSERT INTO alerts (user_id, kind, severity, dedupe_key, title) VALUES ($1, 'api-key-created', 'info', $2, $3)`,
        [bo.id, `test:${index}`, `New API key ${index}`],
      );
    }
    const counted = countingDb(ctx.db);
    const app = await buildApp(ctx.config, createAppDeps(ctx.config, counted.db));
    try {
      await app.ready();
      for (const query of ['', '?limit=100', '?state=open&kind=api-key-created', '?severity=info&limit=5']) {
        counted.statements.length = 0;
        counted.rows.length = 0;
        const response = await app.inject({ method: 'GET', url: `/api/alerts${query}`, headers: bo.headers });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json<AlertsPage>().alerts.length).toBeGreaterThan(0);
        // Besides the session's lookup (every request under tests: no recheck interval), one statement.
        const own = counted.statements.flatMap((sql, index) => (/\balerts\b/.test(sql) ? [index] : []));
        expect(own, counted.statements.join('\n')).toHaveLength(1);
        expect(counted.rows[own[0]!], query).toBe(1);
      }
    } finally {
      await app.close();
    }
  });

  it("serves each filter's first page and the next from its own index, planned with its values or not: only the page's rows read", async () => {
    const cy = await ctx.createUser();
    // 8,000 alerts as they come in use: most resolved or cleared by themselves, 1 in 100 live; two
    // kinds common, two rare (one critical, one info).
    await ctx.db.query(
      `INSERT INTO alerts (user_id, kind, severity, state, dedupe_key, title)
       SELECT $1, kind, CASE kind WHEN 'token-invalid' THEN 'critical' WHEN 'api-key-created' THEN 'info' ELSE 'warning' END,
              CASE WHEN g % 200 = 0 THEN 'open' WHEN g % 100 = 0 THEN 'acknowledged'
                   WHEN g % 3 = 0 THEN 'resolved' ELSE 'cleared' END,
              'test:' || g, 'Alert ' || g
         FROM generate_series(1, 8000) AS g,
              LATERAL (SELECT (ARRAY['ban-refused', 'job-failed', 'ban-refused', 'api-key-created', 'job-failed',
                                     'ban-refused', 'job-failed', 'ban-refused', 'token-invalid'])[1 + g % 9] AS kind) chosen
        ORDER BY g`,
      [cy.id],
    );
    await ctx.db.exec('ANALYZE alerts');
    // The page's statement and its values, as the repository sends them.
    const recording = recordingStatements(ctx.db);
    const alerts = new AlertsRepository(recording.db);
    const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value)}'`);
    // The plan made with the values (a statement's first runs on PostgreSQL), and the generic one that
    // a reused plan is (PGlite's always, PostgreSQL's once it is as good): both read only the page.
    const plansOf = async (sql: string, params: readonly unknown[]) => {
      const [custom] = await ctx.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        [...params],
      );
      const generic = await ctx.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
        await tx.query(`PREPARE alerts_page AS ${sql}`);
        const [explained] = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE alerts_page(${params.map(literal).join(', ')})`,
        );
        await tx.query('DEALLOCATE alerts_page');
        return explained;
      });
      return [custom!, generic!].map((explained) => explained['QUERY PLAN'][0].Plan);
    };
    const filters: Omit<AlertFilter, 'limit'>[] = [
      {},
      { state: 'open' },
      { state: 'acknowledged' },
      { state: 'resolved' },
      { state: 'active' },
      { kind: 'ban-refused' },
      { kind: 'token-invalid' },
      { severity: 'critical' },
      { severity: 'info' },
    ];
    for (const filter of filters) {
      const first = await alerts.page(cy.id, { ...filter, limit: 25 });
      expect(first.alerts, JSON.stringify(filter)).toHaveLength(25);
      for (const before of [undefined, first.nextCursor!]) {
        const read = await alerts.page(cy.id, { ...filter, before, limit: 25 });
        const { sql, params } = recording.last();
        for (const plan of await plansOf(sql, params)) {
          const reads = nodesOf(plan).filter((node) => node['Relation Name'] === 'alerts');
          const shown = JSON.stringify({ filter, before, reads });
          expect(
            reads.map((node) => node['Node Type']),
            shown,
          ).toEqual(['Index Scan']);
          // The page and the one row past it that tells there is a next page, none thrown away.
          expect(reads[0]!['Actual Rows'], shown).toBe(
            read.alerts.length + (read.nextCursor === null ? 0 : 1),
          );
          expect(reads[0]!['Rows Removed by Filter'] ?? 0, shown).toBe(0);
        }
      }
    }
  });
});
