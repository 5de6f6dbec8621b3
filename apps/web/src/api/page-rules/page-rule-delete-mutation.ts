import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pageRuleEndpoints, type PageRule } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { pageRuleKeys } from './keys';

export function deletePageRule(zoneId: string, rule: PageRule) {
  return callEndpoint(pageRuleEndpoints.remove, { params: { zone_id: zoneId, pagerule_id: rule.id } });
}

/** Cloudflare renumbers the remaining priorities, so the list is reloaded. */
export function useDeletePageRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: PageRule) => deletePageRule(zoneId, rule),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: pageRuleKeys.list(zoneId) }),
  });
}
