import type Cloudflare from 'cloudflare';
import type { AppDeps } from '../../deps';
import { AppError } from '../../app-error';
import { accountClient } from '../../cloudflare';
import { ZonesRepository, type OwnedZone } from './zones.repository';

/**
 * The zone of a request that names one (DNS, firewall rules, page rules), with the SDK client of the
 * account that holds it. Another user's zone id, or an unknown one, is NOT_FOUND.
 */
export async function requireOwnedZone(
  deps: AppDeps,
  userId: number,
  zoneId: string,
): Promise<OwnedZone & { cf: Cloudflare }> {
  const owned = await new ZonesRepository(deps.db).findOwned(userId, zoneId);
  if (!owned) throw new AppError('NOT_FOUND', 'Zone not found.');
  return { ...owned, cf: accountClient(deps, owned.account) };
}
