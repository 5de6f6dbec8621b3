import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firewallRuleEndpoints, type FirewallRuleAction } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { firewallRuleKeys } from './keys';

export interface NewFirewallRule {
  description: string;
  action: FirewallRuleAction;
  expression: string;
}

/** The spec's payload: a list holding the one new rule, not paused. */
export function addFirewallRule(zoneId: string, rule: NewFirewallRule) {
  return callEndpoint(firewallRuleEndpoints.add, {
    params: { zone_id: zoneId },
    body: [
      {
        description: rule.description,
        action: rule.action,
        paused: false,
        filter: { expression: rule.expression, paused: false },
      },
    ],
  });
}

/** The answer is the zone's whole updated list: it replaces the cached one without a reload. */
export function useAddFirewallRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: NewFirewallRule) => addFirewallRule(zoneId, rule),
    onSuccess: ({ result }) => queryClient.setQueryData(firewallRuleKeys.list(zoneId), result),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onError: () => queryClient.invalidateQueries({ queryKey: firewallRuleKeys.list(zoneId) }),
  });
}
