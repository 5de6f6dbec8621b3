import { sql as users } from './001_users';

export interface Migration {
  /** Recorded in schema_migrations; never rename one that has shipped. */
  name: string;
  sql: string;
}

/** Every migration in the order it applies. Add a file `NNN_name.ts` exporting `sql` and list it here. */
export const migrations: readonly Migration[] = [{ name: '001_users', sql: users }];
