import { snapshotEndpoints } from '@guardian/contract';
import type { FastifyPluginAsync } from 'fastify';
import { checkedRoute, route } from '../../endpoint-route';
import { itemActorOf } from '../auth';
import type { SnapshotRestorers, SnapshotsService } from './snapshots.service';

export interface SnapshotRoutesOptions {
  snapshots: SnapshotsService;
  /** The ban-list and DNS services' restores, handed in so this module imports neither. */
  restorers: SnapshotRestorers;
}

/** What destructive actions kept (/api/snapshots), and restoring it. */
export const snapshotsRoutes: FastifyPluginAsync<SnapshotRoutesOptions> = async (
  app,
  { snapshots, restorers },
) => {
  route(app, snapshotEndpoints.list, async (request) =>
    snapshots.list(request.user.id, { kinds: request.query.kind, zoneId: request.query.zone_id }),
  );

  route(app, snapshotEndpoints.policy, async () => snapshots.policy());

  // The snapshot is found among the person's own (a miss is 404), and its lists and zone through
  // their accounts again when it is put back. The restored items' history names the person as an
  // item's other events do.
  checkedRoute(
    app,
    snapshotEndpoints.restore,
    (request) => {
      const { userId, name } = itemActorOf(request);
      return snapshots.restore({ userId, name }, request.params.id, restorers);
    },
    { owns: ['id'] },
  );
};
