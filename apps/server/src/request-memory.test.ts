import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSandbox, type Sandbox } from '@guardian/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { createDb, runMigrations } from './db';
import { UsersRepository } from './modules/users';
import { UsersService } from './modules/users';
import { withoutDatabaseUrl } from './test/child-env';
import { freePort } from './test/free-port';

/**
 * Issue 33: two people each sending 10 import previews of 100,000 CSV lines (14 MB of JSON each) at
 * once ran the production server (node --max-old-space-size=256, the embedded database) out of heap.
 * Shown with a real process so started, its heap watched from inside by a preloaded sampler.
 */
const onPglite = process.env.TEST_DB !== 'postgres';
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = createRequire(import.meta.url).resolve('tsx');
const PASSWORD = 'correct horse battery';
const MB = 1024 * 1024;

/** 100,000 CSV lines, 78 characters each (a quoted Cyrillic comment): 7.8 M characters, 14.5 MB of JSON. */
function bigImport(second: number): string {
  const comment = `"${'ж'.repeat(64)}"`;
  return Array.from({ length: 100_000 }, (_, i) =>
    `10.${second}.${(i >> 8) & 255}.${i & 255},${comment}`.padEnd(78, ' '),
  ).join('\n');
}

describe.runIf(onPglite)('import previews in flight, against a 256 MB heap', () => {
  let sandbox: Sandbox;
  let child: ChildProcess;
  let url: string;
  let folder: string;
  const output: string[] = [];
  const people: { headers: Record<string, string>; listId: string; body: string }[] = [];

  const peakHeapMb = () => Number(readFileSync(join(folder, 'heap-peak'), 'utf8')) / MB;

  beforeAll(async () => {
    sandbox = await createSandbox();
    const baseUrl = await sandbox.listen(0, '127.0.0.1');
    folder = mkdtempSync(join(tmpdir(), 'guardian-memory-'));
    // Samples the server's heap every few milliseconds and keeps the highest seen.
    const sampler = join(folder, 'heap-sampler.mjs');
    writeFileSync(
      sampler,
      `import { getHeapStatistics } from 'node:v8';
       import { renameSync, writeFileSync } from 'node:fs';
       const file = ${JSON.stringify(join(folder, 'heap-peak'))};
       let peak = 0;
       setInterval(() => {
         const used = getHeapStatistics().used_heap_size;
         if (used <= peak) return;
         writeFileSync(file + '.next', String((peak = used)));
         renameSync(file + '.next', file);
       }, 5).unref();`,
    );
    const env = {
      GUARDIAN_MODE: 'production',
      GUARDIAN_DATA_DIR: join(folder, 'data'),
      GUARDIAN_SECRET: randomBytes(48).toString('base64url'),
      GUARDIAN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CLOUDFLARE_API_BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
    };
    const config = loadConfig(env);
    const db = await createDb(config);
    await runMigrations(db);
    const users = new UsersService(new UsersRepository(db), config.passwordHashing);
    for (const name of ['ada', 'bo'])
      await users.create({ email: `${name}@example.com`, password: PASSWORD, level: 1 });
    await db.close();

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      ['--max-old-space-size=256', '--import', TSX, '--import', pathToFileURL(sampler).href, MAIN],
      {
        // Without DATABASE_URL: CI sets it for the PostgreSQL suites, and the server would then sign in
        // against PostgreSQL, where these people do not exist (it was refused so in full runs).
        env: { ...withoutDatabaseUrl(process.env), ...env, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer) => output.push(chunk.toString('utf8').slice(0, 2_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The server exited: ${output.join('')}`);
      if ((await fetch(`${url}/api/health`).catch(() => null))?.ok) break;
      if (Date.now() > deadline) throw new Error(`The server did not start: ${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    for (const [index, name] of ['ada', 'bo'].entries()) {
      const login = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${name}@example.com`, password: PASSWORD }),
      });
      const signedIn = (await login.json()) as { token: string };
      expect(login.status, JSON.stringify(signedIn)).toBe(200);
      const headers = {
        authorization: `Bearer ${signedIn.token}`,
        'content-type': 'application/json',
      };
      const account = sandbox.control.addAccount({ name: `Memory ${name}`, plan: 'enterprise' });
      const token = `memory-${randomBytes(16).toString('hex')}`;
      sandbox.control.addToken({ value: token, accountIds: [account.id] });
      const list = sandbox.control.addList(account.id, { name: `memory_${name}`, kind: 'ip' });
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect((await post('/api/cloudflare/accounts', { account_name: account.name, token })).status).toBe(
        201,
      );
      expect((await post('/api/cloudflare/banlists/update', {})).status).toBe(200);
      people.push({ headers, listId: list.id, body: JSON.stringify({ text: bigImport(index + 1) }) });
    }
  }, 300_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await sandbox?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('answers every one of 2 x 10 previews of 14 MB at once (200, or 429 with retry-after), and stays up with its heap bounded', async () => {
    expect(Buffer.byteLength(people[0]!.body)).toBeGreaterThan(14_000_000);
    const answers = await Promise.all(
      people.flatMap(({ headers, listId, body }) =>
        Array.from({ length: 10 }, () =>
          fetch(`${url}/api/cloudflare/banlists/${listId}/items/import/preview`, {
            method: 'POST',
            headers,
            body,
          }).then(
            async (response) => ({
              status: response.status,
              retryAfter: response.headers.get('retry-after'),
              text: (await response.text()).slice(0, 200),
            }),
            (err: unknown) => ({ status: 0, retryAfter: null, text: String(err) }),
          ),
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    console.info(`answers: ${JSON.stringify(statuses)}; peak heap ${peakHeapMb().toFixed(0)} MB`);
    expect(child.exitCode, output.join('')).toBeNull();
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    for (const answer of answers) {
      expect([200, 429], answer.text).toContain(answer.status);
      if (answer.status === 429) expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Each person's first preview is read.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    // 2 previews of 14 MB at once: about 175 MB at their peak, garbage not yet collected included.
    expect(peakHeapMb()).toBeLessThan(224);
  }, 300_000);
});
