import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMigrations } from './migrate';
import { createPgliteDb } from './pglite';

describe('in-memory databases under tests (GUARDIAN_TEST_PGLITE_TEMPLATE)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'guardian-template-'));
  const before = process.env.GUARDIAN_TEST_PGLITE_TEMPLATE;
  // The host process inherits the environment as it is when it starts.
  process.env.GUARDIAN_TEST_PGLITE_TEMPLATE = join(folder, 'cluster');
  afterAll(() => {
    process.env.GUARDIAN_TEST_PGLITE_TEMPLATE = before;
    rmSync(folder, { recursive: true, force: true });
  });

  it('start from the empty cluster the first one saved: fresh each time, and never rewritten', async () => {
    const first = await createPgliteDb();
    await first.exec('CREATE TABLE left_by_the_first (id int); INSERT INTO left_by_the_first VALUES (1)');
    await first.close();
    const saved = readdirSync(folder);
    expect(saved).toEqual([expect.stringMatching(/^cluster-\d+\.\d+\.\d+\.tar$/)]);
    const written = statSync(join(folder, saved[0]!)).mtimeMs;

    const second = await createPgliteDb();
    try {
      const [row] = await second.query<{ found: string | null }>(
        "SELECT to_regclass('left_by_the_first')::text AS found",
      );
      expect(row!.found).toBeNull();
      expect((await runMigrations(second)).length).toBeGreaterThan(30);
    } finally {
      await second.close();
    }
    expect(readdirSync(folder)).toEqual(saved);
    expect(statSync(join(folder, saved[0]!)).mtimeMs).toBe(written);
  }, 90_000);
});
