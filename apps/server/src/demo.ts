import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import Cloudflare from 'cloudflare';
import { ConfigError, loadConfig, type Config } from './config';
import { UsersRepository } from './modules/users';
import { UsersService } from './modules/users';
import { runServer } from './server';
import { PlansService } from './modules/plans';
import { DEMO_SENDER, startDemoInbox } from './demo-inbox';

/**
 * `npm run demo`: the console with an embedded database and the Cloudflare sandbox, seeded so every
 * screen has something real to show. The sandbox keeps its state in the data folder, so the demo
 * survives a restart; seeding only happens the first time.
 */

export const DEMO_USERS = [
  { email: 'admin@guardian.local', password: 'guardian-admin', level: 0 },
  { email: 'user@guardian.local', password: 'guardian-user', level: 1 },
] as const;

/** A plan to give someone on the Plans and Users pages: one Cloudflare account, a day of reports. */
const DEMO_SMALL_PLAN = {
  name: 'Starter',
  accounts: 1,
  zones: 3,
  lists: 2,
  list_items: 1_000,
  api_keys: 2,
  servers: 1,
  templates: 0,
  report_range: '24h',
} as const;

const DEMO_ACCOUNTS = [
  { name: 'Guardian Demo', token: 'cfsandbox-demo-token-1', plan: 'enterprise', inConsole: true },
  { name: 'Acme Security', token: 'cfsandbox-demo-token-2', plan: 'pro', inConsole: true },
  { name: 'Spare Account', token: 'cfsandbox-demo-token-3', plan: 'free', inConsole: false },
] as const;

const BLOCKED_IPS_COUNT = 10_000;

function demoConfig(sandboxUrl: string): Config {
  try {
    return loadConfig({ ...process.env, GUARDIAN_MODE: 'demo', CLOUDFLARE_API_BASE_URL: sandboxUrl });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/** A deterministic spread of documentation and private-range addresses with plausible comments. */
function blockedIps(count: number): { ip: string; comment: string }[] {
  const reasons = [
    'SSH brute force',
    'Credential stuffing',
    'Scraper',
    'SQL injection probe',
    'Spam relay',
    'Port scan',
  ];
  return Array.from({ length: count }, (_, i) => ({
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    comment: `${reasons[i % reasons.length]} #${i + 1}`,
  }));
}

async function seedSandbox(sandbox: Sandbox, baseUrl: string): Promise<void> {
  const { control } = sandbox;
  const accounts = DEMO_ACCOUNTS.map((demo) => {
    const account = control.addAccount({ name: demo.name, plan: demo.plan });
    control.addToken({ value: demo.token, accountIds: [account.id] });
    return account;
  });
  const [guardian, acme, spare] = accounts as [
    (typeof accounts)[0],
    (typeof accounts)[0],
    (typeof accounts)[0],
  ];

  const blocked = control.addList(guardian.id, {
    name: 'blocked_ips',
    kind: 'ip',
    description: 'Abusive sources',
  });
  control.seedListItems(guardian.id, blocked.id, blockedIps(BLOCKED_IPS_COUNT));
  const office = control.addList(guardian.id, {
    name: 'office_allowlist',
    kind: 'ip',
    description: 'Office egress',
  });
  control.seedListItems(guardian.id, office.id, [
    { ip: '198.51.100.10', comment: 'Istanbul office' },
    { ip: '198.51.100.11', comment: 'Ankara office' },
    { ip: '203.0.113.0/24', comment: 'VPN range' },
    { ip: '2001:db8::/48', comment: 'IPv6 office range' },
  ]);
  const partners = control.addList(guardian.id, { name: 'partner_hosts', kind: 'hostname' });
  control.seedListItems(guardian.id, partners.id, [
    { hostname: { url_hostname: 'api.partner.example.com' }, comment: 'Payments partner' },
  ]);
  const acmeList = control.addList(acme.id, { name: 'acme_bad_actors', kind: 'ip' });
  control.seedListItems(
    acme.id,
    acmeList.id,
    Array.from({ length: 150 }, (_, i) => ({
      ip: `192.0.2.${i + 1}`,
      comment: `Reported by SOC, case ${1000 + i}`,
    })),
  );
  control.seedListItems(spare.id, control.addList(spare.id, { name: 'spare_list', kind: 'ip' }).id, [
    { ip: '198.51.100.200', comment: 'Example entry' },
  ]);

  const main = control.addZone(guardian.id, 'guardian-demo.com', { status: 'active' });
  control.addZone(guardian.id, 'guardian-demo.org');
  for (let i = 1; i <= 52; i++) {
    control.addZone(i % 2 ? guardian.id : acme.id, `demo-site-${String(i).padStart(2, '0')}.net`, {
      status: 'active',
    });
  }
  control.addZone(acme.id, 'acme-security.com', { status: 'active' });

  const cf = new Cloudflare({ apiToken: DEMO_ACCOUNTS[0].token, baseURL: baseUrl, maxRetries: 0 });
  const zone_id = main.id;
  const records = [
    { type: 'A', name: 'guardian-demo.com', content: '203.0.113.10', ttl: 1, proxied: true },
    { type: 'AAAA', name: 'guardian-demo.com', content: '2001:db8::10', ttl: 1, proxied: true },
    { type: 'CNAME', name: 'www.guardian-demo.com', content: 'guardian-demo.com', ttl: 1, proxied: true },
    { type: 'MX', name: 'guardian-demo.com', content: 'mail.guardian-demo.com', ttl: 3600, priority: 10 },
    {
      type: 'TXT',
      name: 'guardian-demo.com',
      content: 'v=spf1 include:_spf.guardian-demo.com -all',
      ttl: 300,
    },
    { type: 'A', name: 'mail.guardian-demo.com', content: '203.0.113.25', ttl: 3600, proxied: false },
  ] as const;
  for (const record of records)
    await cf.dns.records.create({ zone_id, ...record } as Cloudflare.DNS.RecordCreateParams);

  await cf.rulesets.phases.update('http_request_firewall_custom', {
    zone_id,
    rules: [
      {
        description: 'Block abusive sources',
        expression: 'ip.src in $blocked_ips',
        action: 'block',
        enabled: true,
      },
      {
        description: 'Challenge admin area',
        expression: 'http.request.uri.path contains "/admin"',
        action: 'managed_challenge',
        enabled: true,
      },
      {
        description: 'Allow office network',
        expression: 'ip.src in $office_allowlist',
        action: 'skip',
        action_parameters: { ruleset: 'current' },
        enabled: true,
      },
      {
        description: 'JS challenge for bad bots',
        expression: '(cf.client.bot) or (http.user_agent contains "curl")',
        action: 'js_challenge',
        enabled: false,
      },
    ],
  } as Cloudflare.Rulesets.PhaseUpdateParams);

  const pageRules = [
    {
      url: 'http://guardian-demo.com/*',
      actions: [{ id: 'always_use_https' }],
      priority: 1,
      status: 'active',
    },
    {
      url: 'guardian-demo.com/old-blog/*',
      actions: [
        { id: 'forwarding_url', value: { url: 'https://guardian-demo.com/blog/$1', status_code: 301 } },
      ],
      priority: 2,
      status: 'active',
    },
    {
      url: 'guardian-demo.com/static/*',
      actions: [
        { id: 'cache_level', value: 'cache_everything' },
        { id: 'browser_cache_ttl', value: 14400 },
      ],
      priority: 3,
      status: 'disabled',
    },
  ];
  for (const { url, ...rule } of pageRules)
    await cf.pageRules.create({
      zone_id,
      targets: [{ target: 'url', constraint: { operator: 'matches', value: url } }],
      ...rule,
    } as Cloudflare.PageRules.PageRuleCreateParams);
}

/** How long the seeding waits for the syncs of the demo accounts' lists (a 10,000-item list among them). */
const SEED_SYNCS_WAIT_MS = 10 * 60_000;

/** Demo users, their accounts in the console, and the mirrors (lists, items, zones) synced. */
async function seedConsole(server: Awaited<ReturnType<typeof runServer>>, config: Config): Promise<void> {
  const { app, db } = server;
  const repository = new UsersRepository(db);
  const users = new UsersService(repository, config.passwordHashing);
  for (const demo of DEMO_USERS) {
    if (!(await repository.findByEmailWithPasswordHash(demo.email))) await users.create(demo);
  }
  // Everyone is on Standard (migration 045); a second, small plan shows what the Plans page does.
  const plans = new PlansService(db);
  if (!(await plans.list()).some((plan) => plan.name === DEMO_SMALL_PLAN.name))
    await plans.create(DEMO_SMALL_PLAN);
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: DEMO_USERS[1] });
  const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object): Promise<unknown> => {
    const response = await app.inject({ method, url, headers, payload });
    if (response.statusCode >= 400)
      throw new Error(`Demo seeding: ${method} ${url} answered ${response.statusCode} ${response.body}`);
    if (response.statusCode === 204) return null;
    if (response.statusCode !== 202) return response.json<unknown>();
    // A long one answered with its job (a slow machine): the next step reads what it writes.
    const { id } = response.json<{ id: string }>();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const job = (await call('GET', `/api/jobs/${id}`)) as { state: string; error: string | null };
      if (job.state === 'succeeded') return null;
      if (job.state !== 'queued' && job.state !== 'running')
        throw new Error(`Demo seeding: ${method} ${url} ended ${job.state}: ${job.error}`);
    }
  };

  const existing = (await call('GET', '/api/cloudflare/accounts')) as { account_name: string }[];
  for (const demo of DEMO_ACCOUNTS.filter((account) => account.inConsole)) {
    if (existing.some((account) => account.account_name === demo.name)) continue;
    // Adding an account queues a sync of each of its lists; zones are pulled once here (later the
    // person uses Update).
    await call('POST', '/api/cloudflare/accounts', { account_name: demo.name, token: demo.token });
    await call('POST', '/api/cloudflare/zones/sync');
  }
  // The demo is ready when its lists hold their items: the syncs the adds queued have ended.
  const deadline = Date.now() + SEED_SYNCS_WAIT_MS;
  for (;;) {
    const { jobs } = (await call('GET', '/api/jobs')) as {
      jobs: { state: string; target: string; error: string | null }[];
    };
    const failed = jobs.find((job) => job.state === 'failed');
    if (failed) throw new Error(`Demo seeding: the sync of ${failed.target} failed: ${failed.error}`);
    if (!jobs.some((job) => job.state === 'queued' || job.state === 'running')) break;
    if (Date.now() > deadline) throw new Error('Demo seeding: the lists did not sync within 10 minutes.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The seeding's syncs are the demo user's jobs: seen, so the bell is not lit at the first sign-in.
  await call('POST', '/api/jobs/seen');
}

/**
 * Points System Setting's outgoing e-mail at the demo's inbox when it is unset (or is the demo's own,
 * on the port of an earlier run); an administrator's own SMTP server, or the environment's, is kept.
 * Answers what outgoing e-mail goes to.
 */
async function useDemoInbox(server: Awaited<ReturnType<typeof runServer>>, port: number): Promise<string> {
  const { app } = server;
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: DEMO_USERS[0] });
  const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
  const current = await app.inject({ method: 'GET', url: '/api/admin/settings', headers });
  const { values, from_environment } = current.json<{
    values: { smtp_host: string | null; smtp_port: number; smtp_sender: string | null };
    from_environment: Record<string, string>;
  }>();
  const ours = values.smtp_host === '127.0.0.1' && values.smtp_sender === DEMO_SENDER;
  if (from_environment.smtp_host || (values.smtp_host && !ours))
    return `${values.smtp_host}:${values.smtp_port} (set in System Setting or the environment; the demo inbox is unused)`;
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/admin/settings',
    headers,
    payload: {
      smtp_host: '127.0.0.1',
      smtp_port: port,
      smtp_tls: 'none',
      smtp_user: null,
      smtp_sender: DEMO_SENDER,
    },
  });
  if (saved.statusCode !== 200)
    throw new Error(
      `Demo seeding: setting SMTP to the demo inbox answered ${saved.statusCode} ${saved.body}`,
    );
  return `the demo inbox, 127.0.0.1:${port}: each e-mail is written to this log ("demo inbox: ...")`;
}

/** Where the console listens, said plainly: a wildcard host means every network interface. */
function consoleAddress(host: string, address: string | AddressInfo | null): string {
  const port = typeof address === 'object' && address ? address.port : 0;
  const wildcard = host === '0.0.0.0' || host === '::';
  const url = `http://${wildcard ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
  if (wildcard)
    return `${url} (HOST=${host}: every network interface; anyone who reaches this machine can sign in with the passwords below)`;
  const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
  return loopback
    ? `${url} (this machine only; HOST=0.0.0.0 opens it to the network)`
    : `${url} (HOST=${host})`;
}

async function startDemo(): Promise<void> {
  const dataDir = loadConfig({ ...process.env, GUARDIAN_MODE: 'demo' }).dataDir;
  const stateFile = join(dataDir, 'cloudflare-sandbox.json');
  const firstStart = !existsSync(stateFile);
  // The control API answers only with this secret: a random one per run unless one is given.
  const sandbox = await createSandbox({
    stateFile,
    zoneActivationDelayMs: 60_000,
    controlSecret: process.env.SANDBOX_CONTROL_SECRET || undefined,
  });
  const sandboxUrl = await sandbox.listen(Number(process.env.SANDBOX_PORT ?? 8787), '127.0.0.1');
  if (firstStart) await seedSandbox(sandbox, sandboxUrl);

  const config = demoConfig(sandboxUrl);
  if (process.env.DATABASE_URL) {
    console.log(`The demo does not use DATABASE_URL: its database is the embedded one in ${config.dataDir}.`);
  }
  // Its own SMTP server: alert e-mails, digests and test e-mails are written to this log.
  const inbox = await startDemoInbox((line) => console.log(line));
  const server = await runServer(config, {
    onStop: async () => {
      await inbox.close();
      await sandbox.close();
    },
  });
  await seedConsole(server, config);
  const mail = await useDemoInbox(server, inbox.port);

  console.log(
    [
      '',
      '  Guardian demo is ready',
      `  Console:            ${consoleAddress(config.host, server.app.server.address())}`,
      `  Cloudflare sandbox: ${sandboxUrl}`,
      `  Outgoing e-mail:    ${mail}`,
      '',
      '  Sign in as',
      ...DEMO_USERS.map(
        (user) =>
          `    ${user.level === 0 ? 'administrator' : 'user         '}  ${user.email} / ${user.password}`,
      ),
      '',
      '  Sandbox Cloudflare API tokens',
      ...DEMO_ACCOUNTS.map(
        (account) =>
          `    ${account.token}  account "${account.name}"${account.inConsole ? " (already in the demo user's console)" : ' (try "Add Account" with it)'}`,
      ),
      '',
    ].join('\n'),
  );
}

startDemo().catch((err: unknown) => {
  console.error('The Guardian demo failed to start:', err);
  process.exit(1);
});
