/** Query keys of the firewall rules, per zone. */
export const firewallRuleKeys = {
  all: ['firewall-rules'] as const,
  list: (zoneId: string) => [...firewallRuleKeys.all, zoneId] as const,
};
