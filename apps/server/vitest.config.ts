import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The root config runs these suites as `server-pglite` and, with DATABASE_URL, `server-postgres`
// (TEST_DB tells src/test/context.ts which database to use). Both extend this file, so the root is
// pinned here: paths stay relative to apps/server.
export default defineProject({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    name: 'server',
    include: ['src/**/*.test.ts'],
    // PGlite boots a WebAssembly PostgreSQL per context: allow for it on a busy machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // In-memory databases start from a saved empty cluster instead of running initdb (db/pglite-host.ts).
    env: { GUARDIAN_TEST_PGLITE_TEMPLATE: join(tmpdir(), `guardian-test-pglite-${process.getuid?.() ?? 0}`) },
  },
});
