/** Query keys of the DNS records, per zone: every record mutation of a zone changes its list. */
export const dnsRecordKeys = {
  all: ['dns-records'] as const,
  list: (zoneId: string) => [...dnsRecordKeys.all, zoneId] as const,
};
