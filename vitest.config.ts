import { defineConfig } from 'vitest/config';

// One `vitest run` runs every unit and integration suite. The server suites run on embedded PGlite,
// and a second time on PostgreSQL when DATABASE_URL is set (as CI sets it).
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
