import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { FirewallRule } from '@guardian/contract';
import { createQueryClient } from '../../app/providers';
import { jsonResponse } from '../../test/render-app';
import { moveFirewallRule } from '../../features/zone-rules/firewall-rules/firewall-rule-order';
import { firewallRuleKeys } from './keys';
import { useReorderFirewallRulesMutation } from './firewall-rules-reorder-mutation';
import { firewallRule } from '../../test/firewall-rule';

const ZONE = 'zone-1';
const rule = firewallRule;

function setup(answer: () => Promise<Response>) {
  const client = createQueryClient();
  const rules = [rule('a', 1), rule('b', 2), rule('c', 3)];
  client.setQueryData(firewallRuleKeys.list(ZONE), rules);
  const fetchMock = vi.fn<typeof fetch>(answer);
  vi.stubGlobal('fetch', fetchMock);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useReorderFirewallRulesMutation(ZONE), { wrapper });
  const cached = () => client.getQueryData<FirewallRule[]>(firewallRuleKeys.list(ZONE))?.map((r) => r.id);
  return { rules, result, cached, fetchMock };
}

describe('useReorderFirewallRulesMutation', () => {
  it('shows the new order at once and sends the whole list, priorities renumbered', async () => {
    let answer: (response: Response) => void = () => {};
    const { rules, result, cached, fetchMock } = setup(() => new Promise((resolve) => (answer = resolve)));
    act(() => result.current.mutate(moveFirewallRule(rules, 2, 0)));
    await waitFor(() => expect(result.current.isPending).toBe(true));
    await waitFor(() => expect(cached()).toEqual(['c', 'a', 'b']));
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body)).map((r: FirewallRule) => [r.id, r.priority])).toEqual([
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    answer(jsonResponse(200, { result: moveFirewallRule(rules, 2, 0) }));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
  });

  it('restores the old order when the save fails', async () => {
    const { rules, result, cached } = setup(async () =>
      jsonResponse(502, {
        code: 'UPSTREAM',
        message: 'Cloudflare is unavailable right now. Please try again.',
        errors: [],
      }),
    );
    act(() => result.current.mutate(moveFirewallRule(rules, 0, 2)));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(cached()).toEqual(['a', 'b', 'c']);
  });
});
