import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeError } from './pglite-protocol';
import { PreparedStatements } from './pglite-statements';

// In this process: the statements against PGlite's own `query`, on one instance.
let pglite: PGlite;
let statements: PreparedStatements;
beforeAll(async () => {
  pglite = await PGlite.create();
  statements = new PreparedStatements(pglite, 3);
  await pglite.exec(`CREATE TABLE kinds (id int PRIMARY KEY, n numeric, j jsonb, js json, ts timestamptz,
    d date, b bool, by bytea, arr int[], tarr text[], big int8 UNIQUE)`);
});
afterAll(() => pglite?.close());

const outcome = (run: () => Promise<unknown>) =>
  run().then(
    (rows) => ({ rows }),
    (err: unknown) => ({ error: serializeError(err) }),
  );

describe('PreparedStatements', () => {
  it('gives the rows and errors of PGlite query, on a first and a repeated run', async () => {
    const values = [
      '1.25',
      { a: [1, 'x'] },
      [1, 2],
      new Date(0),
      '2024-01-02',
      true,
      new Uint8Array([1, 2, 3]),
      [1, null, 3],
      ['a"b', 'c,d'],
      5,
    ];
    const insert = `INSERT INTO kinds (id, n, j, js, ts, d, b, by, arr, tarr, big)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`;
    expect(await statements.query(insert, [1, ...values], false)).toEqual(
      (await pglite.query<Record<string, unknown>>(insert, [2, ...values.slice(0, -1), 6])).rows.map(
        (row) => ({
          ...row,
          id: 1,
          big: 5,
        }),
      ),
    );
    for (const [sql, params] of [
      ['SELECT * FROM kinds WHERE id = $1', [1]],
      ['SELECT * FROM kinds WHERE id = $1', ['2']],
      ['SELECT $1::int AS x, $2::text AS y, $3::jsonb AS z, count(*) FROM kinds', [null, undefined, 'str']],
      ['INSERT INTO kinds (id, big) VALUES ($1, $2)', [3, 5]],
      ['SELECT 1/0', []],
      ['SELEC 1', []],
      ['SELECT 1; SELECT 2', []],
      ['', []],
    ] as const) {
      for (let run = 0; run < 2; run++) {
        expect(await outcome(() => statements.query(sql, [...params], false))).toEqual(
          await outcome(async () => (await pglite.query(sql, [...params])).rows),
        );
      }
    }
  });

  it('closes the statements it evicts', async () => {
    for (let i = 0; i < 10; i++)
      expect(await statements.query(`SELECT ${i} AS v`, [], false)).toEqual([{ v: i }]);
    const [row] = await statements.query('SELECT count(*) FROM pg_prepared_statements', [], false);
    // The cached three, and one evicted since the last Parse.
    expect((row as { count: number }).count).toBeLessThanOrEqual(4);
  });

  it('keeps one pair of plan settings however often its cache is dropped, and prepares them again once gone', async () => {
    const settings = async () =>
      (await statements.query(
        `SELECT count(*) FROM pg_prepared_statements
         WHERE statement IN ('SET plan_cache_mode = force_generic_plan', 'RESET plan_cache_mode')`,
        [],
        false,
      )) as { count: number }[];
    for (let i = 0; i < 5; i++) {
      expect(await statements.query('SELECT $1::int AS v', [i], false, true)).toEqual([{ v: i }]);
      // What a script run through the host does (pglite-host.ts): tables may have changed.
      statements.clear();
    }
    expect(await settings()).toEqual([{ count: 2 }]);
    // A script that drops every prepared statement: the next reused plan prepares the settings anew.
    await pglite.exec('DEALLOCATE ALL');
    expect(await statements.query('SELECT $1::int AS v', [7], false, true)).toEqual([{ v: 7 }]);
    expect(await settings()).toEqual([{ count: 2 }]);
  });

  it('follows a table whose columns change', async () => {
    const sql = 'SELECT * FROM kinds WHERE id = $1';
    await statements.query(sql, [1], false);
    await pglite.exec('ALTER TABLE kinds ADD COLUMN extra int DEFAULT 9');
    expect(await statements.query(sql, [1], false)).toEqual([expect.objectContaining({ id: 1, extra: 9 })]);
    // Through the statements themselves the cache is dropped: no stale statement inside a transaction.
    await statements.query('ALTER TABLE kinds DROP COLUMN extra', [], false);
    await pglite.transaction(async () => {
      expect(await statements.query(sql, [1], true)).toEqual([expect.not.objectContaining({ extra: 9 })]);
    });
  });

  it('works in a transaction, and an error there aborts it as before', async () => {
    await pglite.transaction(async (tx) => {
      await statements.query('INSERT INTO kinds (id, big) VALUES ($1, $2)', [77, 77], true);
      await expect(
        statements.query('INSERT INTO kinds (id, big) VALUES ($1, $2)', [78, 77], true),
      ).rejects.toMatchObject({
        code: '23505',
        constraint: 'kinds_big_key',
      });
      await expect(statements.query('SELECT 1', [], true)).rejects.toMatchObject({ code: '25P02' });
      await tx.rollback();
    });
    expect(await statements.query('SELECT count(*) FROM kinds WHERE big = $1', [77], false)).toEqual([
      { count: 0 },
    ]);
  });
});
