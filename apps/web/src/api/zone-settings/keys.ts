/** Query keys of a zone's settings, read live from Cloudflare. */
export const zoneSettingKeys = {
  all: ['zone-settings'] as const,
  detail: (zoneId: string) => [...zoneSettingKeys.all, zoneId] as const,
};
