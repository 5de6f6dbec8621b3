/** Query keys of the DNS records screen. */
export const dnsKeys = {
  all: ['dns'] as const,
  /** The records of one zone: every record mutation of that zone changes them. */
  records: (zoneId: string) => [...dnsKeys.all, zoneId, 'records'] as const,
};
