import { useZonesQuery } from './zones-query';

/**
 * The domain of the person's zone `zoneId`, from the zones list (one cached query, the mirror's), for
 * headers that otherwise show only an opaque id; undefined while it loads or for an unknown zone.
 */
export function useZoneDomain(zoneId: string): string | undefined {
  const zones = useZonesQuery();
  return zones.data?.find((zone) => zone.id === zoneId)?.domain;
}
