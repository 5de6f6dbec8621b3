import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db';
import { jobErrorInWords } from './job-errors';

const url = process.env.TEST_DB === 'postgres' ? process.env.DATABASE_URL : undefined;

describe.runIf(url)("a job's failure on PostgreSQL says what failed", () => {
  let db: Db;
  beforeAll(async () => {
    // Every statement answered within 300 ms, as GUARDIAN_DATABASE_QUERY_TIMEOUT_SECONDS bounds it.
    db = await createDb({ mode: 'test', dataDir: '', databaseUrl: url, databaseQueryTimeoutMs: 300 });
  });
  afterAll(() => db.close());

  it('a statement past its time limit, not an unreachable database (issue 41)', async () => {
    const silent = await db.query('SELECT pg_sleep(1)').catch((err: unknown) => err);
    const cancelled = await db
      .transaction(async (tx) => {
        await tx.exec('SET LOCAL statement_timeout = 50');
        await tx.query('SELECT pg_sleep(0.2)');
      })
      .catch((err: unknown) => err);
    for (const err of [silent, cancelled]) {
      expect(jobErrorInWords(err)).toBe(
        'A database statement took longer than its time limit, so Guardian stopped waiting and this work did not finish. Please try again; if it happens again, tell your administrator.',
      );
    }
  });

  it('an unreachable database as such', async () => {
    const away = await createDb({
      mode: 'test',
      dataDir: '',
      databaseUrl: 'postgres://postgres@127.0.0.1:1/test',
    });
    const err = await away.query('SELECT 1').catch((error: unknown) => error);
    await away.close();
    expect(jobErrorInWords(err)).toBe('The database could not be reached.');
  });
});
