import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  BanList,
  CreatedServer,
  CrowdsecPullResult,
  CrowdsecSource,
  ServerGroup,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { TestUser } from '../test/context';

/**
 * CrowdSec as a bouncer, with Debian's own crowdsec package: the test runs its own Local API on a
 * free loopback port (its own config and data folder, no hub, no Central API, no agent), adds a
 * bouncer and decisions with cscli, and Guardian mirrors the ban decisions into the sandbox's list
 * and removes them once deleted. CI installs crowdsec (.ci/run) and sets GUARDIAN_REQUIRE_CROWDSEC=1,
 * so there it cannot be skipped.
 */
const hasCrowdsec =
  spawnSync('crowdsec', ['-version']).status === 0 && spawnSync('cscli', ['version']).status === 0;
if (!hasCrowdsec && process.env.GUARDIAN_REQUIRE_CROWDSEC === '1') {
  throw new Error('GUARDIAN_REQUIRE_CROWDSEC=1 but crowdsec or cscli is not installed.');
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/** A Local API with its own config, profiles and SQLite database under `dir`. */
function writeLapiConfig(dir: string, port: number): string {
  const config = join(dir, 'config.yaml');
  writeFileSync(join(dir, 'simulation.yaml'), 'simulation: off\n');
  writeFileSync(
    join(dir, 'profiles.yaml'),
    [
      'name: default_ip_remediation',
      'filters:',
      ' - Alert.Remediation == true && Alert.GetScope() == "Ip"',
      'decisions:',
      ' - type: ban',
      '   duration: 4h',
      'on_success: break',
      '',
    ].join('\n'),
  );
  writeFileSync(
    config,
    [
      'common:',
      '  daemonize: false',
      '  log_media: stdout',
      '  log_level: warning',
      `  working_dir: ${dir}`,
      'config_paths:',
      `  config_dir: ${dir}/`,
      `  data_dir: ${dir}/`,
      `  simulation_path: ${dir}/simulation.yaml`,
      `  hub_dir: ${dir}/hub/`,
      `  index_path: ${dir}/hub/.index.json`,
      `  notification_dir: ${dir}/notifications/`,
      '  plugin_dir: /usr/lib/crowdsec/plugins/',
      'db_config:',
      '  type: sqlite',
      `  db_path: ${dir}/crowdsec.db`,
      '  use_wal: false',
      '  log_level: warning',
      'api:',
      '  client:',
      `    credentials_path: ${dir}/local_api_credentials.yaml`,
      '  server:',
      '    log_level: warning',
      `    listen_uri: 127.0.0.1:${port}`,
      `    profiles_path: ${dir}/profiles.yaml`,
      'prometheus:',
      '  enabled: false',
      '',
    ].join('\n'),
  );
  return config;
}

describe.skipIf(!hasCrowdsec)("CrowdSec's Local API: Guardian mirrors its ban decisions as a bouncer", () => {
  let ctx: CloudflareTestContext;
  let dir: string;
  let config: string;
  let lapi: ChildProcess | undefined;
  let lapiUrl: string;
  let bouncerKey: string;
  let accountId: string;
  let list: BanList;
  let server: CreatedServer;
  let owner: TestUser;

  const cscli = (...args: string[]) => {
    const result = spawnSync('cscli', ['-c', config, ...args], { encoding: 'utf8' });
    expect(result.status, `cscli ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };

  const itemOf = (value: string) =>
    ctx.sandbox.control
      .getListItems(accountId, list.list_id)
      .find((item) => 'ip' in item && item.ip === value);

  const pull = async () => {
    const answer = await ctx.app.inject({
      method: 'POST',
      url: `/api/servers/${server.id}/crowdsec/pull`,
      headers: owner.headers,
    });
    return answer;
  };

  const sourceNow = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/api/servers/crowdsec', headers: owner.headers }))
      .json<CrowdsecSource[]>()
      .find((entry) => entry.server_id === server.id)!;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'guardian-crowdsec-'));
    const port = await freePort();
    lapiUrl = `http://127.0.0.1:${port}`;
    config = writeLapiConfig(dir, port);
    // A machine for cscli's decisions (written to the database directly), and Guardian's bouncer.
    cscli(
      'machines',
      'add',
      'guardian-test',
      '--auto',
      '-f',
      join(dir, 'local_api_credentials.yaml'),
      '--url',
      lapiUrl,
    );
    bouncerKey = cscli('bouncers', 'add', 'guardian', '-o', 'raw').trim();
    lapi = spawn('crowdsec', ['-c', config, '-no-cs'], { stdio: 'ignore' });
    await vi.waitFor(
      async () => {
        const answer = await fetch(`${lapiUrl}/v1/decisions/stream?startup=true`, {
          headers: { 'X-Api-Key': bouncerKey },
        }).catch(() => undefined);
        expect(answer?.status).toBe(200);
      },
      { timeout: 20_000, interval: 200 },
    );

    ctx = await createCloudflareTestContext();
    owner = await ctx.createUser();
    accountId = (await ctx.addAccount(owner, { name: 'CrowdSec Co' })).account_id;
    list = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/cloudflare/banlists',
        headers: owner.headers,
        payload: { account_name: 'CrowdSec Co', list_name: 'crowdsec', kind: 'ip' },
      })
    ).json<BanList>();
    const group = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/servers/groups',
        headers: owner.headers,
        payload: {
          name: 'CrowdSec engines',
          list_ids: [list.list_id],
          allowlist: ['192.0.2.128/25'],
          comment_template: 'crowdsec {jail}',
        },
      })
    ).json<ServerGroup>();
    server = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/servers',
        headers: owner.headers,
        payload: { name: 'cs-1', group_id: group.id, integration: 'crowdsec' },
      })
    ).json<CreatedServer>();
  }, 120_000);

  afterAll(async () => {
    lapi?.kill();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('tells a refused bouncer key, and keeps the key out of every answer', async () => {
    const connected = await ctx.app.inject({
      method: 'PUT',
      url: `/api/servers/${server.id}/crowdsec`,
      headers: owner.headers,
      payload: { lapi_url: lapiUrl, bouncer_key: 'not-the-bouncer-key-at-all' },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const refused = await pull();
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json<{ message: string }>().message).toContain('refused the bouncer key (403)');
    expect((await sourceNow()).last_error).toContain('refused the bouncer key');

    const again = await ctx.app.inject({
      method: 'PUT',
      url: `/api/servers/${server.id}/crowdsec`,
      headers: owner.headers,
      payload: { lapi_url: lapiUrl, bouncer_key: bouncerKey },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).not.toContain(bouncerKey);
    expect(again.json<CrowdsecSource>().key_last_four).toBe(bouncerKey.slice(-4));
    const [stored] = await ctx.db.query<{ key_encrypted: string }>(
      'SELECT key_encrypted FROM crowdsec_sources WHERE server_id = $1',
      [server.id],
    );
    expect(stored!.key_encrypted).not.toContain(bouncerKey);
  });

  it('mirrors ban decisions (an address, a range) with their duration and scenario, and removes deleted ones', async () => {
    cscli('decisions', 'add', '--ip', '192.0.2.7', '--duration', '2h', '--reason', 'ssh-bf seen');
    cscli('decisions', 'add', '--range', '198.51.100.0/24', '--duration', '30m', '--reason', 'scan range');
    // Not mirrored: a captcha, and an address on the group's allowlist.
    cscli('decisions', 'add', '--ip', '192.0.2.8', '--duration', '1h', '--type', 'captcha');
    cscli('decisions', 'add', '--ip', '192.0.2.200', '--duration', '1h', '--reason', 'office');

    const first = await pull();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<CrowdsecPullResult>()).toMatchObject({
      received: 3,
      mirrored: 2,
      refused: 1,
      skipped: 1,
    });
    await vi.waitFor(() => expect(itemOf('192.0.2.7')).toBeDefined(), { timeout: 30_000, interval: 200 });
    await vi.waitFor(() => expect(itemOf('198.51.100.0/24')).toBeDefined(), {
      timeout: 30_000,
      interval: 200,
    });
    expect(itemOf('192.0.2.7')!.comment).toBe('crowdsec ssh-bf seen');
    expect(itemOf('198.51.100.0/24')!.comment).toBe('crowdsec scan range');
    expect(itemOf('192.0.2.8')).toBeUndefined();
    expect(itemOf('192.0.2.200')).toBeUndefined();
    // The decision's time left is the item's expiry.
    await vi.waitFor(
      async () => {
        const [row] = await ctx.db.query<{ expires_at: Date | null }>(
          `SELECT i.expires_at FROM ban_list_items i JOIN ban_lists bl ON bl.id = i.ban_list_ref
            WHERE bl.list_id = $1 AND i.ip = '192.0.2.7'`,
          [list.list_id],
        );
        const left = (row?.expires_at?.getTime() ?? 0) - Date.now();
        expect(left).toBeGreaterThan(7_000_000);
        expect(left).toBeLessThanOrEqual(7_200_000);
      },
      { timeout: 10_000, interval: 100 },
    );
    const source = await sourceNow();
    expect(source).toMatchObject({ mirrored: 2, refused: 1, pending: 0, last_error: null });
    expect(source.last_success_at).not.toBeNull();

    // The next pull reads only what changed: nothing, then the deletion.
    expect((await pull()).json<CrowdsecPullResult>()).toMatchObject({ received: 0, mirrored: 0 });
    cscli('decisions', 'delete', '--ip', '192.0.2.7');
    const second = await pull();
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<CrowdsecPullResult>()).toMatchObject({ unbanned: 1 });
    await vi.waitFor(() => expect(itemOf('192.0.2.7')).toBeUndefined(), { timeout: 30_000, interval: 200 });
    expect(itemOf('198.51.100.0/24')).toBeDefined();
    expect((await sourceNow()).mirrored).toBe(1);

    // What the pulls changed is in the audit trail, under the server.
    const trail = await ctx.db.query<{ action: string; summary: string }>(
      `SELECT action, summary FROM audit_events WHERE action = 'crowdsec.mirror' ORDER BY id`,
    );
    expect(trail.map((row) => row.summary)).toEqual([
      `${owner.email} (server "cs-1") mirrored CrowdSec's decisions: 2 banned, 0 unbanned`,
      `${owner.email} (server "cs-1") mirrored CrowdSec's decisions: 0 banned, 1 unbanned`,
    ]);
  }, 90_000);

  it('reconnected, reads the whole set again and unbans what ended meanwhile', async () => {
    cscli('decisions', 'delete', '--range', '198.51.100.0/24');
    // A new key makes the next pull a startup pull: the deletion is found by its absence.
    const reconnected = await ctx.app.inject({
      method: 'PUT',
      url: `/api/servers/${server.id}/crowdsec`,
      headers: owner.headers,
      payload: { lapi_url: `${lapiUrl}/`, bouncer_key: bouncerKey },
    });
    expect(reconnected.statusCode, reconnected.body).toBe(200);
    const pulled = await pull();
    expect(pulled.statusCode, pulled.body).toBe(200);
    expect(pulled.json<CrowdsecPullResult>()).toMatchObject({ unbanned: 1 });
    await vi.waitFor(() => expect(itemOf('198.51.100.0/24')).toBeUndefined(), {
      timeout: 30_000,
      interval: 200,
    });
  }, 60_000);
});
