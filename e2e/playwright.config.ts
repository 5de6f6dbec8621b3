import { defineConfig, devices } from '@playwright/test';
import { E2E_DATA_DIR, E2E_PORT, E2E_SANDBOX_CONTROL_SECRET, E2E_SERVER_LOG } from './support/stack';

const CHROMIUM = { ...devices['Desktop Chrome'], channel: undefined };
const CLEAN_ALL = '**/clean-all.spec.ts';

// The specs drive the real demo stack (built server + web app + Cloudflare sandbox, embedded
// database in a fresh data folder) in Debian's Chromium. One worker: the specs share that stack.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Bounds for a shared 2-core machine under load (npm run test:busy): a flow signs in, types into real
  // forms and waits for the server, so one bound for every test; the longest call test.slow() (3x).
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  globalTeardown: './support/teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // Clean All empties every list, so it runs last: a project of its own that waits for the others.
  projects: [
    { name: 'chromium', testIgnore: CLEAN_ALL, use: CHROMIUM },
    { name: 'clean-all', testMatch: CLEAN_ALL, dependencies: ['chromium'], use: CHROMIUM },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && mkdir -p ${E2E_DATA_DIR} && node --max-old-space-size=256 --max-semi-space-size=8 apps/server/dist/demo.js > ${E2E_SERVER_LOG} 2>&1`,
    cwd: '..',
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(E2E_PORT),
      GUARDIAN_DATA_DIR: E2E_DATA_DIR,
      SANDBOX_PORT: '0',
      LOG_LEVEL: 'info',
      // Expired ban list items go within 2 seconds (item-expiry.spec.ts), not within the minute.
      GUARDIAN_EXPIRY_SWEEP_SECONDS: '2',
      // Lets a spec make the sandbox fail as Cloudflare can (zones-dns.spec.ts).
      SANDBOX_CONTROL_SECRET: E2E_SANDBOX_CONTROL_SECRET,
    },
  },
});
