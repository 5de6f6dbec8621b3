import { expect } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../index';
import { OpenApiValidator } from './openapi';

let validator: OpenApiValidator | null = null;
const openapi = () => (validator ??= new OpenApiValidator());

/** Operations exercised in this test file, with the status classes seen (for coverage checks). */
export const exercised = new Map<string, Set<string>>();

/**
 * Parsed JSON read loosely by tests (`body.result.rules[0].id`). The fields are declared (not an index
 * signature) so `noUncheckedIndexedAccess` does not make every step optional; `items()` and `text()` narrow.
 */
export interface Loose {
  readonly success: Loose;
  readonly errors: Loose;
  readonly messages: Loose;
  readonly result: Loose;
  readonly result_info: Loose;
  readonly status: Loose;
  readonly id: Loose;
  readonly name: Loose;
  readonly name_servers: Loose;
  readonly code: Loose;
  readonly message: Loose;
  readonly error_chain: Loose;
  readonly source: Loose;
  readonly pointer: Loose;
  readonly operation_id: Loose;
  readonly completed: Loose;
  readonly error: Loose;
  readonly cursors: Loose;
  readonly before: Loose;
  readonly after: Loose;
  readonly ip: Loose;
  readonly comment: Loose;
  readonly hostname: Loose;
  readonly url_hostname: Loose;
  readonly asn: Loose;
  readonly num_items: Loose;
  readonly num_referencing_filters: Loose;
  readonly description: Loose;
  readonly version: Loose;
  readonly phase: Loose;
  readonly kind: Loose;
  readonly rules: Loose;
  readonly action: Loose;
  readonly expression: Loose;
  readonly enabled: Loose;
  readonly ref: Loose;
  readonly action_parameters: Loose;
  readonly logging: Loose;
  readonly priority: Loose;
  readonly targets: Loose;
  readonly constraint: Loose;
  readonly value: Loose;
  readonly actions: Loose;
  readonly expires_on: Loose;
  readonly content: Loose;
  readonly ttl: Loose;
  readonly proxied: Loose;
  readonly type: Loose;
  readonly activated_on: Loose;
  readonly paused: Loose;
  readonly page: Loose;
  readonly per_page: Loose;
  readonly count: Loose;
  readonly total_count: Loose;
  readonly total_pages: Loose;
  readonly 0: Loose;
  readonly 1: Loose;
  readonly 2: Loose;
  readonly length: number;
}

export const items = (value: Loose): Loose[] => value as unknown as Loose[];
export const text = (value: Loose): string => value as unknown as string;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Loose;
}

/**
 * Calls the sandbox's Cloudflare API in-process and checks the answer against the OpenAPI document,
 * so every test that uses it also proves the response shape.
 */
export async function call(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: { token?: string | null; body?: unknown; validate?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? 'token-a'}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await sandbox.app.inject({
    method,
    url: `/client/v4${path}`,
    headers,
    payload: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body: unknown = response.body === '' ? null : JSON.parse(response.body);
  if (options.validate !== false) {
    const bare = path.split('?')[0] ?? path;
    const { operation, errors } = openapi().validate(method, bare, response.statusCode, body);
    expect(errors, `${operation} answered ${response.statusCode}: ${response.body.slice(0, 500)}`).toEqual(
      [],
    );
    const seen = exercised.get(operation) ?? new Set<string>();
    seen.add(response.statusCode < 300 ? '2XX' : '4XX');
    exercised.set(operation, seen);
  }
  return { status: response.statusCode, headers: response.headers, body: body as Loose };
}

export const ACCOUNT_A = 'a0000000000000000000000000000001';
export const ACCOUNT_B = 'b0000000000000000000000000000002';
export const ACCOUNT_FREE = 'f0000000000000000000000000000003';

/**
 * A sandbox with three accounts (A enterprise, B pro, FREE free) and tokens: `token-a` (user, A),
 * `token-b` (user, B), `token-ab` (user, A and B), `token-free` (user, FREE), `token-acct` (account, A).
 */
export async function seededSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ rateLimit: false, ...options });
  const { control } = sandbox;
  control.addAccount({ id: ACCOUNT_A, name: 'Account A', plan: 'enterprise' });
  control.addAccount({ id: ACCOUNT_B, name: 'Account B', plan: 'pro' });
  control.addAccount({ id: ACCOUNT_FREE, name: 'Free Account', plan: 'free' });
  control.addToken({ value: 'token-a', accountIds: [ACCOUNT_A] });
  control.addToken({ value: 'token-b', accountIds: [ACCOUNT_B] });
  control.addToken({ value: 'token-ab', accountIds: [ACCOUNT_A, ACCOUNT_B] });
  control.addToken({ value: 'token-free', accountIds: [ACCOUNT_FREE] });
  control.addToken({ value: 'token-acct', accountIds: [ACCOUNT_A], kind: 'account' });
  return sandbox;
}

export function openApiOperations(): string[] {
  return openapi().operationKeys();
}
