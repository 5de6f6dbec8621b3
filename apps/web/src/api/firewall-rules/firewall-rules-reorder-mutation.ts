import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FirewallRule, FirewallRulesResult } from '@guardian/contract';
import { api } from '../../lib/api';
import { firewallRuleKeys, firewallRulesPath } from './keys';

/** Saves the whole list in its new order, priorities already renumbered from 1. */
export function reorderFirewallRules(zoneId: string, rules: FirewallRule[]): Promise<FirewallRulesResult> {
  return api.put<FirewallRulesResult>(firewallRulesPath(zoneId), rules);
}

/**
 * Shows the new order at once, restores the old one if the save fails, and reloads the list once
 * it is saved (spec section 4).
 */
export function useReorderFirewallRulesMutation(zoneId: string) {
  const queryClient = useQueryClient();
  const queryKey = firewallRuleKeys.list(zoneId);
  return useMutation({
    mutationFn: (rules: FirewallRule[]) => reorderFirewallRules(zoneId, rules),
    onMutate: async (rules) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<FirewallRule[]>(queryKey);
      queryClient.setQueryData(queryKey, rules);
      return { previous };
    },
    onError: (_error, _rules, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
