import { useQuery } from '@tanstack/react-query';
import { firewallRuleEndpoints } from '@guardian/contract';
import { callEndpoint } from '../../lib/api';
import { firewallRuleKeys } from './keys';

export function getFirewallRules(zoneId: string, signal?: AbortSignal) {
  return callEndpoint(firewallRuleEndpoints.list, { params: { zone_id: zoneId }, signal });
}

export function useFirewallRulesQuery(zoneId: string) {
  return useQuery({
    queryKey: firewallRuleKeys.list(zoneId),
    queryFn: ({ signal }) => getFirewallRules(zoneId, signal),
  });
}
