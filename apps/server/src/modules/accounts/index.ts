// The accounts module's entry: the one file other modules and the composition root import (lint holds it).
export {
  AccountsRepository,
  TOKEN_CHECK_EVERY_MS,
  type AccountRecord,
  type AccountWithTokenState,
} from './accounts.repository';
export { accountsRoutes } from './accounts.routes';
export { AccountsService } from './accounts.service';
export { TokenChecks } from './token-checks';
