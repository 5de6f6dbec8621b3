import { useQuery } from '@tanstack/react-query';
import type { FirewallRule } from '@guardian/contract';
import { api } from '../../../lib/api';
import { firewallRulesPath, zoneRulesKeys } from './keys';

export function getFirewallRules(zoneId: string, signal?: AbortSignal): Promise<FirewallRule[]> {
  return api.get<FirewallRule[]>(firewallRulesPath(zoneId), { signal });
}

export function useFirewallRulesQuery(zoneId: string) {
  return useQuery({
    queryKey: zoneRulesKeys.firewallRules(zoneId),
    queryFn: ({ signal }) => getFirewallRules(zoneId, signal),
  });
}
