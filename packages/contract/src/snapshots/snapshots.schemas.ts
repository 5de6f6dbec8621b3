import { z } from 'zod';
import { LOOKUP_ID_MAX } from '../shared/ids';

/**
 * What Guardian kept before a destructive action, so the person can undo it for a while:
 * - `clean-all`: the items of every list Clean All emptied;
 * - `ban-list`: a deleted list (name, kind) and its items;
 * - `dns-record`: a deleted DNS record.
 */
export const SNAPSHOT_KINDS = ['clean-all', 'ban-list', 'dns-record'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** How many snapshots a person keeps; the oldest goes when another is taken. */
export const MAX_SNAPSHOTS_PER_USER = 50;

export const snapshotSchema = z.object({
  id: z.string(),
  kind: z.enum(SNAPSHOT_KINDS),
  /** One line for people: 'Clean All: 3 lists, 1,204 items', 'List "bad_ips" (12 items)', 'A www.example.com'. */
  summary: z.string(),
  /** How many list items (or records) it holds. */
  items: z.number().int().nonnegative(),
  /** Cloudflare's id of the deleted list (`ban-list`), else null. */
  list_id: z.string().nullable(),
  /** The zone and Cloudflare's id of the deleted record (`dns-record`), else null. */
  zone_id: z.string().nullable(),
  record_id: z.string().nullable(),
  created_at: z.string(),
  /** After this it can no longer be restored, and it is forgotten. */
  expires_at: z.string(),
  /** When it was restored; a snapshot is restored at most once. */
  restored_at: z.string().nullable(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** GET /api/snapshots/policy: how long what a destructive action kept can be restored (its confirm says so). */
export const snapshotPolicySchema = z.object({
  /** How long after the action its snapshot can be restored (GUARDIAN_SNAPSHOT_RETENTION_HOURS). */
  retention_hours: z.number().int().positive(),
  /** How many snapshots a person keeps (MAX_SNAPSHOTS_PER_USER): past that the oldest goes sooner. */
  kept_per_person: z.number().int().positive(),
});
export type SnapshotPolicy = z.infer<typeof snapshotPolicySchema>;

export const snapshotParamsSchema = z.object({
  id: z.string().min(1, 'The snapshot id is required.').max(LOOKUP_ID_MAX, 'The snapshot id is too long.'),
});

export const snapshotsQuerySchema = z.object({
  /** Only the records deleted from this zone. */
  zone_id: z.string().max(LOOKUP_ID_MAX, 'The zone id is too long.').optional(),
  /** Only these kinds (comma-separated), e.g. `clean-all,ban-list` for the ban lists page. */
  kind: z
    .string()
    .max(64, 'Too many kinds.')
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return undefined;
      const kinds = text.split(',');
      for (const kind of kinds) {
        if (!(SNAPSHOT_KINDS as readonly string[]).includes(kind)) {
          ctx.addIssue({ code: 'custom', message: `Unknown snapshot kind "${kind.slice(0, 20)}".` });
          return z.NEVER;
        }
      }
      return kinds as SnapshotKind[];
    }),
});
export type SnapshotsQuery = z.input<typeof snapshotsQuerySchema>;
