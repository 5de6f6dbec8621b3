/**
 * Where the e2e run's demo stack lives; paths are relative to the repository root. E2E_PORT lets
 * several engineers run specs side by side, each against its own stack.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8090);
export const E2E_DATA_DIR = `e2e/.data/${E2E_PORT}`;
export const E2E_SERVER_LOG = `${E2E_DATA_DIR}/server.log`;

export const DEMO_ADMIN = { email: 'admin@guardian.local', password: 'guardian-admin' };
export const DEMO_USER = { email: 'user@guardian.local', password: 'guardian-user' };
export const SANDBOX_TOKENS = ['cfsandbox-demo-token-1', 'cfsandbox-demo-token-2', 'cfsandbox-demo-token-3'];

/** The demo sandbox's control secret in e2e runs: a spec can make Cloudflare fail (/__sandbox/faults). */
export const E2E_SANDBOX_CONTROL_SECRET = 'e2e-sandbox-control';
