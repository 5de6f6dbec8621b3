/** Query keys of the page rules, per zone. */
export const pageRuleKeys = {
  all: ['page-rules'] as const,
  list: (zoneId: string) => [...pageRuleKeys.all, zoneId] as const,
};
