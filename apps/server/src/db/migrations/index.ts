import { sql as users } from './001_users';
import { sql as cloudflareAccounts } from './002_cloudflare_accounts';
import { sql as banLists } from './003_ban_lists';
import { sql as zones } from './004_zones';
import { sql as sessionsValidAfter } from './005_sessions_valid_after';
import { sql as sessions } from './006_sessions';
import { sql as leases } from './007_leases';

export interface Migration {
  /** Recorded in schema_migrations; never rename one that has shipped. */
  name: string;
  sql: string;
}

/** Every migration in the order it applies. Add a file `NNN_name.ts` exporting `sql` and list it here. */
export const migrations: readonly Migration[] = [
  { name: '001_users', sql: users },
  { name: '002_cloudflare_accounts', sql: cloudflareAccounts },
  { name: '003_ban_lists', sql: banLists },
  { name: '004_zones', sql: zones },
  { name: '005_sessions_valid_after', sql: sessionsValidAfter },
  { name: '006_sessions', sql: sessions },
  { name: '007_leases', sql: leases },
];
