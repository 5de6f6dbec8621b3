import type { SnapshotKind } from '@guardian/contract';

/** What a page lists of its own snapshots: the ban lists page its lists', the DNS page its zone's. */
export interface SnapshotFilter {
  kinds?: readonly SnapshotKind[];
  zoneId?: string;
}

/** Query keys of the snapshots (what Clean All and deletes kept); every restore changes them all. */
export const snapshotKeys = {
  all: ['snapshots'] as const,
  /** The server's settings, apart from the lists (a restore does not change them). */
  policy: ['snapshot-policy'] as const,
  list: (filter: SnapshotFilter) =>
    [...snapshotKeys.all, filter.kinds?.join(',') ?? '', filter.zoneId ?? ''] as const,
};
