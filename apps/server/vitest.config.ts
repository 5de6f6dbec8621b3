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
  },
});
