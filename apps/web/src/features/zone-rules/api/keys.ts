/** Query keys of the rules screen: each zone's firewall rules and page rules are cached apart. */
export const zoneRulesKeys = {
  firewallRules: (zoneId: string) => ['zones', zoneId, 'firewall-rules'] as const,
  pageRules: (zoneId: string) => ['zones', zoneId, 'page-rules'] as const,
};

export const firewallRulesPath = (zoneId: string) =>
  `/cloudflare/zones/${encodeURIComponent(zoneId)}/firewall-rules`;
export const pageRulesPath = (zoneId: string) => `/cloudflare/zones/${encodeURIComponent(zoneId)}/pagerules`;
