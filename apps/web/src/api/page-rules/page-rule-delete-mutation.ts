import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PageRule } from '@guardian/contract';
import { api } from '../../lib/api';
import { pageRuleKeys, pageRulesPath } from './keys';

export function deletePageRule(zoneId: string, rule: PageRule): Promise<void> {
  return api.delete<void>(`${pageRulesPath(zoneId)}/${encodeURIComponent(rule.id)}`);
}

/** Cloudflare renumbers the remaining priorities, so the list is reloaded. */
export function useDeletePageRuleMutation(zoneId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: PageRule) => deletePageRule(zoneId, rule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pageRuleKeys.list(zoneId) }),
  });
}
