import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { E2E_SERVER_LOG, SANDBOX_TOKENS } from './stack';

/**
 * After the whole run: the server's log of the full e2e run must not contain any Cloudflare token the
 * run used (tokens are secrets: encrypted at rest, never logged, never answered).
 */
export default async function teardown(): Promise<void> {
  const output = readFileSync(resolve(import.meta.dirname, '..', '..', E2E_SERVER_LOG), 'utf8');
  // The demo's banner prints the sandbox tokens on purpose; the log is every JSON line (pino).
  const logLines = output.split('\n').filter((line) => line.startsWith('{'));
  if (logLines.length < 10)
    throw new Error('The e2e server log is nearly empty: the log check would prove nothing.');
  const leaked = SANDBOX_TOKENS.filter((token) => logLines.some((line) => line.includes(token)));
  if (leaked.length > 0) throw new Error(`Cloudflare tokens appear in the server log: ${leaked.join(', ')}`);
}
