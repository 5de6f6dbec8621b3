import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NEW_PAGE_RULE_PRIORITY, pageRuleEndpoints, type AddPageRuleRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { pageRuleKeys } from './keys';

export type NewPageRule = Pick<AddPageRuleRequest, 'targets' | 'actions'>;

/** A new rule is created with priority 1 and status active (spec section 4). */
export function addPageRule(zoneId: string, rule: NewPageRule) {
  const body: AddPageRuleRequest = { ...rule, priority: NEW_PAGE_RULE_PRIORITY, status: 'active' };
  return callEndpoint(pageRuleEndpoints.add, { params: { zone_id: zoneId }, body });
}

/** Cloudflare moves the other rules' priorities up, so the whole list is reloaded. */
export function useAddPageRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: NewPageRule) => addPageRule(zoneId, rule),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: pageRuleKeys.list(zoneId) }),
  });
}
