import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firewallRuleEndpoints, type FirewallRule } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { firewallRuleKeys } from './keys';

/** Sends the full rule: an edit, or the same rule with `paused` flipped. */
export function updateFirewallRule(zoneId: string, rule: FirewallRule) {
  return callEndpoint(firewallRuleEndpoints.update, {
    params: { zone_id: zoneId, rule_id: rule.id },
    body: rule,
  });
}

export function useUpdateFirewallRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: FirewallRule) => updateFirewallRule(zoneId, rule),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: firewallRuleKeys.list(zoneId) }),
  });
}
