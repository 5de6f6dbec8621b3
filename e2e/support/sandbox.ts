import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from '@playwright/test';
import { E2E_SANDBOX_CONTROL_SECRET, E2E_SERVER_LOG, SANDBOX_TOKENS } from './stack';

/** Guardian Demo's token at the sandbox: the seeded account the specs read Cloudflare as. */
const GUARDIAN_DEMO_TOKEN = SANDBOX_TOKENS[0]!;

/** The sandbox's Cloudflare API, as the demo's banner prints it in the server log. */
function sandboxUrl(): string {
  const log = readFileSync(resolve(import.meta.dirname, '..', '..', E2E_SERVER_LOG), 'utf8');
  const url = /Cloudflare sandbox: (http:\/\/\S+)/.exec(log)?.[1];
  if (!url) throw new Error('The demo did not print its sandbox URL.');
  return url;
}

/** Reads Cloudflare (the sandbox) directly, with Guardian Demo's own token, not through the console. */
export async function atCloudflare<T = Record<string, unknown>>(path: string): Promise<T> {
  const response = await fetch(`${sandboxUrl()}${path}`, {
    headers: { authorization: `Bearer ${GUARDIAN_DEMO_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: T }).result;
}

/**
 * The sandbox's control API: a spec makes Cloudflare fail (`/faults`) and lifts the fault again, or
 * seeds what Cloudflare has behind Guardian's back (`/accounts/:id/lists`).
 */
export async function sandboxControl<T = { id: string }>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${new URL(sandboxUrl()).origin}/__sandbox${path}`, {
    method,
    headers: { 'x-sandbox-control-secret': E2E_SANDBOX_CONTROL_SECRET, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** Changes Cloudflare (the sandbox) directly with a demo account's token, not through the console. */
export async function changeAtCloudflare(token: string, method: 'DELETE', path: string): Promise<void> {
  const response = await fetch(`${sandboxUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
}
