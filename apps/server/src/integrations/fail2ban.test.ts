import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  BAN_LIST_ITEMS_MAX_PER_PAGE,
  type BanList,
  type BanListItemsPage,
  type CreatedServer,
  type Server,
  type ServerGroup,
} from '@guardian/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloudflareTestContext, type CloudflareTestContext } from '../test/cloudflare-context';
import type { TestUser } from '../test/context';

/**
 * integrations/fail2ban/guardian.conf, run by Debian's own Fail2Ban: a jail reads a log this test
 * writes, bans an address through a running Guardian as a registered server (its own key, from a
 * 0600 file), and unbans it when told to (fail2ban-client unbanip). CI installs fail2ban (.ci/run) and sets GUARDIAN_REQUIRE_FAIL2BAN=1, so
 * there it cannot be skipped.
 */
const hasFail2ban = spawnSync('fail2ban-client', ['--version']).status === 0;
if (!hasFail2ban && process.env.GUARDIAN_REQUIRE_FAIL2BAN === '1') {
  throw new Error('GUARDIAN_REQUIRE_FAIL2BAN=1 but fail2ban-client is not installed.');
}
const ACTION = resolve(__dirname, '../../../../integrations/fail2ban/guardian.conf');
const SCRIPT = resolve(__dirname, '../../../../integrations/fail2ban/guardian.py');
/**
 * Items whose comments hold the address's text, added after its ban: the unban's search finds them
 * too, newest first, so the address's own item is past the first page even at Guardian's largest page.
 */
const LOOKALIKES = BAN_LIST_ITEMS_MAX_PER_PAGE + 10;

/** Runs a command without blocking this process (the Guardian that guardian.py calls answers from it). */
function run(command: string, args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolveRun({ status, stderr }));
  });
}
const runScript = (args: string[]) => run('python3', [SCRIPT, ...args]);
const ADDRESS = '192.0.2.50';

describe.skipIf(!hasFail2ban)('Fail2Ban bans and unbans through Guardian', () => {
  let ctx: CloudflareTestContext;
  let dir: string;
  let fail2ban: ChildProcess | undefined;
  let accountId: string;
  let list: BanList;
  let url: string;
  let keyFile: string;
  let server: CreatedServer;
  let owner: TestUser;

  beforeAll(async () => {
    ctx = await createCloudflareTestContext();
    const user = await ctx.createUser();
    owner = user;
    accountId = (await ctx.addAccount(user, { name: 'Fail2Ban Co' })).account_id;
    list = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/cloudflare/banlists',
        headers: user.headers,
        payload: { account_name: 'Fail2Ban Co', list_name: 'fail2ban', kind: 'ip' },
      })
    ).json<BanList>();
    const group = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/servers/groups',
        headers: user.headers,
        payload: {
          name: 'Web hosts',
          list_ids: [list.list_id],
          allowlist: ['192.0.2.128/25'],
          comment_template: 'fail2ban {jail}: {reason}',
        },
      })
    ).json<ServerGroup>();
    server = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/servers',
        headers: user.headers,
        payload: { name: 'web-1', group_id: group.id, integration: 'fail2ban' },
      })
    ).json<CreatedServer>();
    url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });

    dir = mkdtempSync(join(tmpdir(), 'guardian-fail2ban-'));
    mkdirSync(join(dir, 'action.d'));
    mkdirSync(join(dir, 'filter.d'));
    copyFileSync(ACTION, join(dir, 'action.d', 'guardian.conf'));
    copyFileSync(SCRIPT, join(dir, 'action.d', 'guardian.py'));
    keyFile = join(dir, 'guardian.key');
    writeFileSync(keyFile, `${server.key}\n`, { mode: 0o600 });
    writeFileSync(
      join(dir, 'fail2ban.conf'),
      `[Definition]\nloglevel = INFO\nlogtarget = ${dir}/fail2ban.log\nsocket = ${dir}/fail2ban.sock\npidfile = ${dir}/fail2ban.pid\ndbfile = :memory:\n`,
    );
    writeFileSync(
      join(dir, 'filter.d', 'guardian-test.conf'),
      '[Definition]\nfailregex = ^Failed login from <HOST>$\ndatepattern = {NONE}\n',
    );
    writeFileSync(join(dir, 'auth.log'), '');
    writeFileSync(
      join(dir, 'jail.conf'),
      [
        '[guardian-test]',
        'enabled = true',
        'filter = guardian-test',
        `logpath = ${dir}/auth.log`,
        'backend = polling',
        'maxretry = 2',
        'findtime = 600',
        // Unbanned by the test (fail2ban-client unbanip), once the lookalikes are in.
        'bantime = 3600',
        `action = guardian[guardian_url="${url}", guardian_key_file="${keyFile}", guardian_script="${dir}/action.d/guardian.py"]`,
        '',
      ].join('\n'),
    );
    fail2ban = spawn('fail2ban-client', ['-c', dir, '-x', '-f', 'start'], { stdio: 'ignore' });
    // Running once its socket answers.
    await vi.waitFor(() => expect(spawnSync('fail2ban-client', ['-c', dir, 'ping']).status).toBe(0), {
      timeout: 20_000,
      interval: 250,
    });
  }, 120_000);

  afterAll(async () => {
    if (dir) spawnSync('fail2ban-client', ['-c', dir, 'stop']);
    fail2ban?.kill();
    await ctx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const banned = () =>
    ctx.sandbox.control
      .getListItems(accountId, list.list_id)
      .some((item) => 'ip' in item && item.ip === ADDRESS);

  const serverNow = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/api/servers', headers: owner.headers }))
      .json<Server[]>()
      .find((entry) => entry.id === server.id)!;

  it('reports in when Fail2Ban starts: the server turns active with its version', async () => {
    await vi.waitFor(async () => expect((await serverNow()).state).toBe('active'), {
      timeout: 20_000,
      interval: 250,
    });
    expect((await serverNow()).version).toBe('guardian-fail2ban 2');
  });

  it('adds the address to the Cloudflare list after the failures, and removes it when unbanned, past a page of lookalikes (issue 33)', async () => {
    for (let i = 0; i < 3; i += 1) appendFileSync(join(dir, 'auth.log'), `Failed login from ${ADDRESS}\n`);
    await vi.waitFor(() => expect(banned()).toBe(true), { timeout: 30_000, interval: 250 });
    const item = ctx.sandbox.control
      .getListItems(accountId, list.list_id)
      .find((entry) => 'ip' in entry && entry.ip === ADDRESS);
    expect(item?.comment).toMatch(/^fail2ban guardian-test: \d+ failures$/);
    // The jail's bantime (an hour) is the item's expiry.
    await vi.waitFor(
      async () => {
        const [row] = await ctx.db.query<{ expires_at: Date | null }>(
          `SELECT i.expires_at FROM ban_list_items i JOIN ban_lists bl ON bl.id = i.ban_list_ref
            WHERE bl.list_id = $1 AND i.ip = $2`,
          [list.list_id, ADDRESS],
        );
        const left = (row?.expires_at?.getTime() ?? 0) - Date.now();
        expect(left).toBeGreaterThan(3_500_000);
        expect(left).toBeLessThanOrEqual(3_600_000);
      },
      { timeout: 10_000, interval: 100 },
    );

    // Lookalikes added after the ban, in one write, and mirrored: the search's first page is theirs.
    ctx.sandbox.control.seedListItems(
      accountId,
      list.list_id,
      Array.from({ length: LOOKALIKES }, (_, i) => ({
        ip: `198.51.${100 + Math.floor(i / 256)}.${i % 256}`,
        comment: `seen with ${ADDRESS}`,
      })),
    );
    const sync = await ctx.app.inject({
      method: 'POST',
      url: `/api/cloudflare/banlists/${list.list_id}/sync`,
      headers: owner.headers,
    });
    expect([200, 202], sync.body).toContain(sync.statusCode);
    await vi.waitFor(
      async () => {
        const firstPage = await ctx.app.inject({
          method: 'GET',
          url: `/api/cloudflare/banlists/${list.list_id}/items?search=${ADDRESS}&per_page=${BAN_LIST_ITEMS_MAX_PER_PAGE}`,
          headers: owner.headers,
        });
        const matches = firstPage.json<BanListItemsPage>().items;
        expect(matches).toHaveLength(BAN_LIST_ITEMS_MAX_PER_PAGE);
        expect(matches.map((match) => match.ip)).not.toContain(ADDRESS);
      },
      { timeout: 20_000, interval: 250 },
    );

    const unban = await run('fail2ban-client', ['-c', dir, 'set', 'guardian-test', 'unbanip', ADDRESS]);
    expect(unban.status, unban.stderr).toBe(0);
    await vi.waitFor(() => expect(banned()).toBe(false), { timeout: 30_000, interval: 250 });
    const log = readFileSync(join(dir, 'fail2ban.log'), 'utf8');
    expect(log).not.toMatch(/ERROR/);
    // The removal is recorded once Cloudflare has applied it and the mirror follows: a moment after
    // the item is gone at Cloudflare.
    await vi.waitFor(
      async () => {
        const trail = await ctx.db.query<{ action: string; actor: string }>(
          'SELECT action, actor FROM audit_events WHERE actor LIKE \'%(server "web-1")\' ORDER BY id',
        );
        expect(trail.map((row) => row.action)).toEqual(['serverApi.ban', 'serverApi.unban']);
      },
      { timeout: 10_000, interval: 100 },
    );
  }, 70_000);

  it('keeps the key off every command line, and reads it only from a file others cannot read', async () => {
    const actionban = spawnSync(
      'fail2ban-client',
      ['-c', dir, 'get', 'guardian-test', 'action', 'guardian', 'actionban'],
      {
        encoding: 'utf8',
      },
    );
    expect(actionban.status).toBe(0);
    expect(actionban.stdout).toContain(keyFile);
    expect(actionban.stdout).not.toContain('gs_');
    chmodSync(keyFile, 0o644);
    try {
      const refused = await runScript(['ban', url, keyFile, '192.0.2.51']);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain(`chmod 600 ${keyFile}`);
    } finally {
      chmodSync(keyFile, 0o600);
    }
  });

  it("fails, saying Guardian's reason, when the group's policy refuses the ban", async () => {
    const refused = await runScript(['ban', url, keyFile, '192.0.2.200', 'sshd']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(
      '403 192.0.2.200 is within 192.0.2.128/25, on the allowlist of the group "Web hosts"',
    );
    const malformed = await runScript(['ban', url, keyFile, '192.0.2.300']);
    expect(malformed.status).not.toBe(0);
    expect(malformed.stderr).toContain('400');
    expect((await serverNow()).refused.day).toBe(2);
  });
});
