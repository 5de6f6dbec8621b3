import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FirewallRule } from '@guardian/contract';
import { api } from '../../lib/api';
import { firewallRuleKeys, firewallRulesPath } from './keys';

export function deleteFirewallRule(zoneId: string, rule: FirewallRule): Promise<void> {
  return api.delete<void>(`${firewallRulesPath(zoneId)}/${encodeURIComponent(rule.id)}`, {
    query: { filter_id: rule.filter.id },
  });
}

export function useDeleteFirewallRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: FirewallRule) => deleteFirewallRule(zoneId, rule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firewallRuleKeys.list(zoneId) }),
  });
}
