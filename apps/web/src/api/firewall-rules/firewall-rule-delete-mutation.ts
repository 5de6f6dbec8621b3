import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firewallRuleEndpoints, type FirewallRule } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { firewallRuleKeys } from './keys';

export function deleteFirewallRule(zoneId: string, rule: FirewallRule) {
  return callEndpoint(firewallRuleEndpoints.remove, {
    params: { zone_id: zoneId, rule_id: rule.id },
    query: { filter_id: rule.filter.id },
  });
}

export function useDeleteFirewallRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: FirewallRule) => deleteFirewallRule(zoneId, rule),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: firewallRuleKeys.list(zoneId) }),
  });
}
