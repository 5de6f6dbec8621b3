import type Cloudflare from 'cloudflare';
import type { AppDeps } from '../../deps';
import { AppError } from '../../app-error';
import { accountClient } from '../../cloudflare';
import type { OwnedZone, ZonesRepository } from './zones.repository';

/**
 * The zone of a request that names one (DNS, firewall rules, page rules, zone settings), with the SDK
 * client of the account that holds it. Built once per app; the services that act on a zone share it.
 */
export class OwnedZones {
  constructor(
    private readonly zones: ZonesRepository,
    private readonly deps: AppDeps,
  ) {}

  /** Another user's zone id, or an unknown one, is NOT_FOUND. */
  async require(userId: number, zoneId: string): Promise<OwnedZone & { cf: Cloudflare }> {
    const owned = await this.zones.findOwned(userId, zoneId);
    if (!owned) throw new AppError('NOT_FOUND', 'Zone not found.');
    return { ...owned, cf: accountClient(this.deps, owned.account) };
  }
}
