import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NEW_PAGE_RULE_PRIORITY, type AddPageRuleRequest, type PageRule } from '@guardian/contract';
import { api } from '../../lib/api';
import { pageRuleKeys, pageRulesPath } from './keys';

export type NewPageRule = Pick<AddPageRuleRequest, 'targets' | 'actions'>;

/** A new rule is created with priority 1 and status active (spec section 4). */
export function addPageRule(zoneId: string, rule: NewPageRule): Promise<PageRule> {
  const body: AddPageRuleRequest = { ...rule, priority: NEW_PAGE_RULE_PRIORITY, status: 'active' };
  return api.post<PageRule>(pageRulesPath(zoneId), body);
}

/** Cloudflare moves the other rules' priorities up, so the whole list is reloaded. */
export function useAddPageRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: NewPageRule) => addPageRule(zoneId, rule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pageRuleKeys.list(zoneId) }),
  });
}
