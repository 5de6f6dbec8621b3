import type { Queryable } from '../../db';
import type { AccountRecord } from '../accounts/accounts.repository';

export interface ZoneRecord {
  id: number;
  accountRef: number;
  /** Cloudflare's zone id: the id the API and the browser use. */
  zoneId: string;
  domain: string;
  status: string;
  nameServers: string[];
}

export interface OwnedZone {
  zone: ZoneRecord;
  account: AccountRecord;
}

interface OwnedZoneRow {
  id: number;
  account_ref: number;
  zone_id: string;
  domain: string;
  status: string;
  name_servers: string[];
  user_id: number;
  account_name: string;
  account_id: string;
  token_encrypted: string;
  token_last4: string;
}

/** The only SQL on zones. A zone is only ever found through the user's own accounts. */
export class ZonesRepository {
  constructor(private readonly db: Queryable) {}

  /** The zone with this Cloudflare id under one of the user's accounts, with that account. */
  async findOwned(userId: number, zoneId: string): Promise<OwnedZone | undefined> {
    const [row] = await this.db.query<OwnedZoneRow>(
      `SELECT z.id, z.account_ref, z.zone_id, z.domain, z.status, z.name_servers,
              a.user_id, a.account_name, a.account_id, a.token_encrypted, a.token_last4
         FROM zones z JOIN cloudflare_accounts a ON a.id = z.account_ref
        WHERE a.user_id = $1 AND z.zone_id = $2
        LIMIT 1`,
      [userId, zoneId],
    );
    if (!row) return undefined;
    return {
      zone: {
        id: row.id,
        accountRef: row.account_ref,
        zoneId: row.zone_id,
        domain: row.domain,
        status: row.status,
        nameServers: row.name_servers,
      },
      account: {
        id: row.account_ref,
        userId: row.user_id,
        accountName: row.account_name,
        accountId: row.account_id,
        tokenEncrypted: row.token_encrypted,
        tokenLast4: row.token_last4,
      },
    };
  }
}
