import { useQuery } from '@tanstack/react-query';
import type { FirewallRule } from '@guardian/contract';
import { api } from '../../lib/api';
import { firewallRuleKeys, firewallRulesPath } from './keys';

export function getFirewallRules(zoneId: string, signal?: AbortSignal): Promise<FirewallRule[]> {
  return api.get<FirewallRule[]>(firewallRulesPath(zoneId), { signal });
}

export function useFirewallRulesQuery(zoneId: string) {
  return useQuery({
    queryKey: firewallRuleKeys.list(zoneId),
    queryFn: ({ signal }) => getFirewallRules(zoneId, signal),
  });
}
