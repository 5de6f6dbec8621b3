// The auth module's entry: the one file other modules and the composition root import (lint holds it).
export { itemActorOf, type ItemActor } from './actor';
export { bearerToken, registerAuthGuard } from './auth.guard';
export { authRoutes } from './auth.routes';
export { AuthService } from './auth.service';
export { OwnAccountService } from './own-account.service';
export { ownAccountRoutes } from './own-account.routes';
export { Sessions, openSession, sessionDeviceOf } from './sessions';
