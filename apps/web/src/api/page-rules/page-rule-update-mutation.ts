import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pageRuleEndpoints, type PageRule, type UpdatePageRuleRequest } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { pageRuleKeys } from './keys';

/** Sends the whole rule, its priority and status kept (or the status flipped by a toggle). */
export function updatePageRule(zoneId: string, rule: PageRule) {
  const body: UpdatePageRuleRequest = {
    id: rule.id,
    targets: rule.targets,
    actions: rule.actions,
    priority: rule.priority,
    status: rule.status,
  };
  return callEndpoint(pageRuleEndpoints.update, { params: { zone_id: zoneId, pagerule_id: rule.id }, body });
}

/** Only this rule changed, so its row is replaced with the answer instead of reloading the list. */
export function useUpdatePageRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: PageRule) => updatePageRule(zoneId, rule),
    onSuccess: (updated) =>
      queryClient.setQueryData<PageRule[]>(pageRuleKeys.list(zoneId), (rules) =>
        rules?.map((rule) => (rule.id === updated.id ? updated : rule)),
      ),
    // A failed write may have landed at Cloudflare all the same (its answer lost): read the list again.
    onError: () => queryClient.invalidateQueries({ queryKey: pageRuleKeys.list(zoneId) }),
  });
}
