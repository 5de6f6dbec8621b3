import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from './index';
import { ACCOUNT_A, seededSandbox } from './testing/harness';

/** The hostile answers, read over real HTTP as a client would. */
let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

async function get(path: string): Promise<{ status: number; text: string; ms: number }> {
  const baseUrl = sandbox.baseUrl ?? (await sandbox.listen());
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: 'Bearer token-a' } });
  const text = await response.text();
  return { status: response.status, text, ms: performance.now() - started };
}

describe('hostile answers', () => {
  it('oversized: a valid envelope of the asked size, streamed', async () => {
    sandbox = await seededSandbox();
    sandbox.control.injectFault({ path: '/zones', answer: 'oversized', bytes: 3_000_000, times: 1 });
    const answer = await get('/zones');
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThanOrEqual(3_000_000);
    expect(answer.text.length).toBeLessThan(3_100_000);
    expect(JSON.parse(answer.text).result.length).toBeGreaterThan(2_000);
  });

  it('endless: every page claims a million pages and carries fresh ids; cursors never run out', async () => {
    sandbox = await seededSandbox();
    sandbox.control.addZone(ACCOUNT_A, 'endless.com', { status: 'active' });
    sandbox.control.injectFault({ path: '/zones', answer: 'endless' });
    const first = JSON.parse((await get('/zones?page=1&per_page=5')).text);
    const later = JSON.parse((await get('/zones?page=999&per_page=5')).text);
    expect(first.result_info.total_pages).toBe(1_000_000);
    expect(later.result_info).toMatchObject({ page: 999, total_pages: 1_000_000 });
    expect(later.result.length).toBe(first.result.length);
    expect(later.result[0].id).not.toBe(first.result[0].id);

    const list = sandbox.control.addList(ACCOUNT_A, { name: 'endless_list', kind: 'ip' });
    sandbox.control.seedListItems(ACCOUNT_A, list.id, [{ ip: '192.0.2.1' }]);
    sandbox.control.injectFault({ path: /\/items$/, answer: 'endless' });
    const items = `/accounts/${ACCOUNT_A}/rules/lists/${list.id}/items`;
    const one = JSON.parse((await get(items)).text);
    const two = JSON.parse((await get(`${items}?cursor=${one.result_info.cursors.after}`)).text);
    expect(two.result_info.cursors.after).toMatch(/^endless/);
    expect(two.result_info.cursors.after).not.toBe(one.result_info.cursors.after);
  });

  it('repeating: the first page again, pointing on to the same cursor', async () => {
    sandbox = await seededSandbox();
    const list = sandbox.control.addList(ACCOUNT_A, { name: 'repeating_list', kind: 'ip' });
    sandbox.control.seedListItems(ACCOUNT_A, list.id, [{ ip: '192.0.2.1' }]);
    sandbox.control.injectFault({ path: /\/items$/, answer: 'repeating' });
    const items = `/accounts/${ACCOUNT_A}/rules/lists/${list.id}/items`;
    const one = JSON.parse((await get(items)).text);
    const two = JSON.parse((await get(`${items}?cursor=${one.result_info.cursors.after}`)).text);
    expect(two).toEqual(one);
    expect(one.result_info.cursors.after).toBe('repeating');
  });

  it('mistyped, truncated, slow and echo', async () => {
    sandbox = await seededSandbox();
    sandbox.control.addZone(ACCOUNT_A, 'typed.com', { status: 'active' });
    sandbox.control.injectFault({ path: '/zones', answer: 'mistyped', times: 1 });
    const mistyped = JSON.parse((await get('/zones')).text);
    expect(mistyped.result[0].id).toBe(12345);
    expect(mistyped.success).toBe(true);

    sandbox.control.injectFault({ path: '/zones', answer: 'truncated', times: 1 });
    const truncated = await get('/zones');
    expect(truncated.status).toBe(200);
    expect(() => JSON.parse(truncated.text)).toThrow();

    sandbox.control.injectFault({ path: '/zones', answer: 'slow', trickleMs: 400, times: 1 });
    const slow = await get('/zones');
    expect(slow.ms).toBeGreaterThanOrEqual(300);
    expect(JSON.parse(slow.text).success).toBe(true);

    sandbox.control.injectFault({ path: '/zones', answer: 'echo', times: 1 });
    const echo = await get('/zones');
    expect(echo.status).toBe(400);
    expect(echo.text).toContain('Bearer token-a');
  });

  it('refuses an unknown answer', () => {
    return seededSandbox().then((created) => {
      sandbox = created;
      expect(() => sandbox.control.injectFault({ answer: 'weird' as never })).toThrow(
        /answer must be one of/,
      );
    });
  });
});
