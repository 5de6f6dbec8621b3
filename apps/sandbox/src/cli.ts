/**
 * Runs the sandbox as its own server: `npm run sandbox -- --port 8787 [--host 127.0.0.1]
 * [--state-file sandbox-state.json] [--zone-activation-ms 30000] [--operation-delay-ms 0] [--demo]`.
 * `--demo` adds an Enterprise account and the token `sandbox-demo-token` when the state is empty.
 * The control API's secret is SANDBOX_CONTROL_SECRET when set (an argument would show in `ps`), else
 * a new one, printed.
 */
import { parseArgs } from 'node:util';
import { createSandbox } from './sandbox';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    'state-file': { type: 'string' },
    'zone-activation-ms': { type: 'string' },
    'operation-delay-ms': { type: 'string' },
    'no-rate-limit': { type: 'boolean', default: false },
    demo: { type: 'boolean', default: false },
  },
});

const numberOption = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
};

const sandbox = await createSandbox({
  stateFile: values['state-file'],
  zoneActivationDelayMs: numberOption('zone-activation-ms', values['zone-activation-ms']) ?? null,
  operationDelayMs: numberOption('operation-delay-ms', values['operation-delay-ms']),
  rateLimit: values['no-rate-limit'] ? false : undefined,
  controlSecret: process.env.SANDBOX_CONTROL_SECRET || undefined,
});

if (values.demo && sandbox.control.getAccounts().length === 0) {
  const account = sandbox.control.addAccount({ name: 'Demo Account', plan: 'enterprise' });
  sandbox.control.addToken({ value: 'sandbox-demo-token', accountIds: [account.id] });
}

const baseUrl = await sandbox.listen(numberOption('port', values.port), values.host);
console.log(`Cloudflare sandbox listening: ${baseUrl}`);
console.log(
  `Control API: ${baseUrl.replace('/client/v4', '/__sandbox')}, header x-sandbox-control-secret: ${
    process.env.SANDBOX_CONTROL_SECRET ? '(SANDBOX_CONTROL_SECRET)' : sandbox.controlSecret
  }`,
);
if (values.demo) console.log('Demo token: sandbox-demo-token');

const stop = async () => {
  await sandbox.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
