import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { PageRule } from '@guardian/contract';
import { createQueryClient } from '../app/providers';
import { jsonResponse } from '../test/render-app';
import { useUpdateDnsRecordMutation } from './dns-records/dns-record-update-mutation';
import { dnsRecordKeys } from './dns-records/keys';
import { useUpdatePageRuleMutation } from './page-rules/page-rule-update-mutation';
import { pageRuleKeys } from './page-rules/keys';

const ZONE = 'zone-1';
/** The server's answer when Cloudflare's answer was lost and could not be checked (issue 41). */
const unchecked = () =>
  jsonResponse(502, {
    code: 'UPSTREAM',
    message:
      "Cloudflare's answer was lost, and Guardian could not check whether the record was updated. Reload the page to see what Cloudflare has before trying again.",
    errors: [],
  });

/** Runs a mutation that fails so, with the screen's list cached under `key`. */
async function failedWrite<V>(
  key: QueryKey,
  useMutation: () => { mutate: (v: V) => void; isError: boolean },
  variables: V,
) {
  const client = createQueryClient();
  client.setQueryData(key, []);
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => unchecked()),
  );
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(useMutation, { wrapper });
  act(() => result.current.mutate(variables));
  await waitFor(() => expect(result.current.isError).toBe(true));
  return client.getQueryState(key);
}

// A write whose outcome is unknown may have landed at Cloudflare: the list on screen is read again.
describe('a failed write reads its list again', () => {
  it('a DNS record update', async () => {
    const state = await failedWrite(dnsRecordKeys.list(ZONE), () => useUpdateDnsRecordMutation(ZONE), {
      recordId: 'r1',
      record: { type: 'A', name: 'www', content: '192.0.2.1', ttl: 1, proxied: false },
    });
    expect(state?.isInvalidated).toBe(true);
  });

  it('a page rule update', async () => {
    const rule = { id: 'p1', targets: [], actions: [], priority: 1, status: 'active' } as unknown as PageRule;
    const state = await failedWrite(pageRuleKeys.list(ZONE), () => useUpdatePageRuleMutation(ZONE), rule);
    expect(state?.isInvalidated).toBe(true);
  });
});
