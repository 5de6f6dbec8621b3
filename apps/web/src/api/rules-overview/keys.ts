/** Query keys of the rules overview: a batch of zones read live from Cloudflare, per search. */
export const rulesOverviewKeys = {
  all: ['rules-overview'] as const,
  batch: (zoneIds: readonly string[], search: string) => [...rulesOverviewKeys.all, zoneIds, search] as const,
};
