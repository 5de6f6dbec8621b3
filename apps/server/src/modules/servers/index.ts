// The servers module's entry: the one file other modules and the composition root import (lint holds it).
export { CrowdsecBouncer } from './crowdsec/crowdsec.service';
export { crowdsecRoutes } from './crowdsec/crowdsec.routes';
export { ServerBanWrites } from './server-bans-job';
export { registerServerKeyGuard } from './server-key.guard';
export { serversRoutes } from './servers.routes';
export { ServersService } from './servers.service';

import type { ServersService } from './servers.service';
/** The overview's Active Servers tile: the person's servers heard from in the last 24 hours. */
export const activeServersOf = (servers: ServersService, userId: number): Promise<number> =>
  servers.activeServers(userId);
