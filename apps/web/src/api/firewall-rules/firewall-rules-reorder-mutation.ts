import { useMutation, useQueryClient } from '@tanstack/react-query';
import { firewallRuleEndpoints, type FirewallRule } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { firewallRuleKeys } from './keys';

/** Saves the whole list in its new order, priorities already renumbered from 1. */
export function reorderFirewallRules(zoneId: string, rules: FirewallRule[]) {
  return callEndpoint(firewallRuleEndpoints.reorder, { params: { zone_id: zoneId }, body: rules });
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
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
