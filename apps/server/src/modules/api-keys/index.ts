// The api-keys module's entry: the one file other modules and the composition root import (lint holds it).
export { checkKeyRoute, registerKeyLimits } from './api-key-scope';
export { apiKeysRoutes } from './api-keys.routes';
export { ApiKeysService, revokeAllKeys } from './api-keys.service';
