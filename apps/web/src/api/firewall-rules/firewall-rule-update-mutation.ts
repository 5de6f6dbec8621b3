import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FirewallRule } from '@guardian/contract';
import { api } from '../../lib/api';
import { firewallRuleKeys, firewallRulesPath } from './keys';

/** Sends the full rule: an edit, or the same rule with `paused` flipped. */
export function updateFirewallRule(zoneId: string, rule: FirewallRule): Promise<FirewallRule> {
  return api.put<FirewallRule>(`${firewallRulesPath(zoneId)}/${encodeURIComponent(rule.id)}`, rule);
}

export function useUpdateFirewallRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: FirewallRule) => updateFirewallRule(zoneId, rule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firewallRuleKeys.list(zoneId) }),
  });
}
