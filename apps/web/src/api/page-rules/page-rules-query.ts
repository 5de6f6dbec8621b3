import { useQuery } from '@tanstack/react-query';
import type { PageRule } from '@guardian/contract';
import { api } from '../../lib/api';
import { pageRuleKeys, pageRulesPath } from './keys';

export function getPageRules(zoneId: string, signal?: AbortSignal): Promise<PageRule[]> {
  return api.get<PageRule[]>(pageRulesPath(zoneId), { signal });
}

/** By ascending priority (spec section 2). */
export function usePageRulesQuery(zoneId: string) {
  return useQuery({
    queryKey: pageRuleKeys.list(zoneId),
    queryFn: ({ signal }) => getPageRules(zoneId, signal),
    select: (rules) => [...rules].sort((a, b) => a.priority - b.priority),
  });
}
