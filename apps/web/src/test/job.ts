import type { Job } from '@guardian/contract';

/** A background operation as GET /api/jobs/:id answers it: running, unless `overrides` say otherwise. */
export const jobOf = (overrides: Partial<Job> = {}): Job => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  kind: 'ban-list-sync',
  started_by: 'user@example.com',
  account_name: 'Guardian Demo',
  target: 'blocked_ips',
  list_id: 'list-blocked_ips',
  state: 'running',
  done: 0,
  total: null,
  attempts: 1,
  error: null,
  result: null,
  cancel_requested: false,
  created_at: '2026-11-26T10:00:00.000Z',
  started_at: '2026-11-26T10:00:00.000Z',
  finished_at: null,
  ...overrides,
});
