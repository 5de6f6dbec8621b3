// The users module's entry: the one file other modules and the composition root import (lint holds it).
export { hashPassword, passwordStamp, verifyPassword } from './password';
export { PasswordLinksService } from './password-links.service';
export { USAGE, UsageError, parseUsersCommand, readNewPassword, runUsersCommand } from './users.cli';
export {
  MAX_SESSIONS_PER_USER,
  UsersRepository,
  type SessionDevice,
  type UserWithPasswordHash,
} from './users.repository';
export { keysRevoked, usersRoutes } from './users.routes';
export { UsersService, type KeysRevoked } from './users.service';
