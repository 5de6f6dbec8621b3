/**
 * The environment for a server process a test starts on the embedded database: this process's,
 * without DATABASE_URL (CI sets it for the PostgreSQL suites, and the child would then use PostgreSQL,
 * where the people and data the test made in its embedded database do not exist).
 */
export function withoutDatabaseUrl(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { DATABASE_URL: _postgres, ...rest } = env;
  return rest;
}
