import { useQuery } from '@tanstack/react-query';
import { pageRuleEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { pageRuleKeys } from './keys';

export function getPageRules(zoneId: string, signal?: AbortSignal) {
  return callEndpoint(pageRuleEndpoints.list, { params: { zone_id: zoneId }, signal });
}

/** By ascending priority (spec section 2). */
export function usePageRulesQuery(zoneId: string) {
  return useQuery({
    queryKey: pageRuleKeys.list(zoneId),
    queryFn: ({ signal }) => getPageRules(zoneId, signal),
    select: (rules) => [...rules].sort((a, b) => a.priority - b.priority),
  });
}
