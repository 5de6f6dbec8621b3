import { afterEach, expect, it } from 'vitest';
import type { Sandbox } from './index';
import { ACCOUNT_A, call, seededSandbox, text } from './testing/harness';

// Cloudflare documents no maximum of items per list write (the OpenAPI body of POST
// /accounts/{account_id}/rules/lists/{list_id}/items is an array without maxItems; the Lists API page
// names only the account's item quota and the 12-hour write budget), so the sandbox enforces none
// either: an import of 100,000 items (Guardian's largest, apps/server/src/modules/ban-list-import/list-import.ts)
// is one write, bounded by the account's quota.
let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

it('takes 100,000 items in one POST, as one bulk operation', async () => {
  sandbox = await seededSandbox();
  const created = await call(sandbox, 'POST', `/accounts/${ACCOUNT_A}/rules/lists`, {
    token: 'token-a',
    body: { name: 'one_write', kind: 'ip' },
  });
  const listId = text(created.body.result.id);
  const body = Array.from({ length: 100_000 }, (_, i) => ({
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    comment: `item ${i}`,
  }));
  const written = await call(sandbox, 'POST', `/accounts/${ACCOUNT_A}/rules/lists/${listId}/items`, {
    token: 'token-a',
    body,
  });
  expect(written.status).toBe(200);
  const operation = text(written.body.result.operation_id);
  for (let polls = 0; polls < 100; polls++) {
    const status = await call(
      sandbox,
      'GET',
      `/accounts/${ACCOUNT_A}/rules/lists/bulk_operations/${operation}`,
      {
        token: 'token-a',
      },
    );
    if (text(status.body.result.status) === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(sandbox.control.getListItems(ACCOUNT_A, listId)).toHaveLength(100_000);
});
