import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One `vitest run` runs every unit and integration suite. The server suites run on embedded PGlite,
// and a second time on PostgreSQL when DATABASE_URL is set (as .ci/run sets it when PostgreSQL answers).
if (process.env.GUARDIAN_REQUIRE_POSTGRES_SUITES === '1' && !process.env.DATABASE_URL) {
  throw new Error(
    'GUARDIAN_REQUIRE_POSTGRES_SUITES=1 but DATABASE_URL is unset: the PostgreSQL suites would not run.',
  );
}
const serverOnPostgres = process.env.DATABASE_URL
  ? [
      {
        extends: './apps/server/vitest.config.ts',
        test: { name: 'server-postgres', env: { TEST_DB: 'postgres' } },
      },
    ]
  : [];

export default defineConfig({
  test: {
    // A worker per core (Vitest's default leaves one core out: a single worker on a 2-core CI machine).
    // Much of the suites' time is waiting (PostgreSQL, child processes, the sandbox, jobs polled every
    // second), which a second worker fills. Every project shares this pool: the server suites on PGlite
    // and on PostgreSQL run side by side, each test context in its own database or schema.
    maxWorkers: availableParallelism(),
    projects: [
      './packages/contract/vitest.config.ts',
      './apps/sandbox/vitest.config.ts',
      {
        extends: './apps/server/vitest.config.ts',
        test: { name: 'server-pglite', env: { TEST_DB: 'pglite' } },
      },
      ...serverOnPostgres,
      './apps/web/vitest.config.ts',
    ],
  },
});
