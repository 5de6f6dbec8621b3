import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const postgresUrlScript = fileURLToPath(new URL('../../../.ci/postgres-url', import.meta.url));

async function postgresUrl(env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await promisify(execFile)(postgresUrlScript, { env });
  return stdout.trim();
}

function localPostgresAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 5432, timeout: 2_000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

// CI (.ci/run) takes its DATABASE_URL from this script, so CI runs the PostgreSQL suites whenever the
// machine's PostgreSQL answers, although CI's own environment has no DATABASE_URL.
describe('.ci/postgres-url', () => {
  it("names the machine's local PostgreSQL when it answers and DATABASE_URL is unset", async () => {
    const { DATABASE_URL: _unset, ...env } = process.env;
    const expected = (await localPostgresAnswers()) ? 'postgres://postgres@127.0.0.1:5432/test' : '';
    expect(await postgresUrl(env)).toBe(expected);
  });

  it('keeps a DATABASE_URL that is already set', async () => {
    expect(await postgresUrl({ ...process.env, DATABASE_URL: 'postgres://ci@db/guardian' })).toBe(
      'postgres://ci@db/guardian',
    );
  });
});

// .ci/run runs every suite on the Node.js line .node-version names, whatever line the machine has.
describe('.ci/node', () => {
  it("gives a Node.js of the line .node-version names (the machine's own, or one from the npm registry)", async () => {
    const script = fileURLToPath(new URL('../../../.ci/node', import.meta.url));
    const wanted = readFileSync(new URL('../../../.node-version', import.meta.url), 'utf8').trim();
    const { stdout: folder } = await promisify(execFile)(script, { timeout: 300_000 });
    const { stdout: version } = await promisify(execFile)(`${folder.trim()}/bin/node`, ['--version']);
    expect(version.trim().split('.')[0]).toBe(`v${wanted.split('.')[0]}`);
  }, 330_000);
});
