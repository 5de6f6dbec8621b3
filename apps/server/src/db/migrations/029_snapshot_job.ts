/**
 * The job a snapshot was kept by (Clean All): a job run again after its process died finds the
 * snapshot its first run kept and adds to it, so one click leaves one snapshot (issue 33). No foreign
 * key: a snapshot outlives its job's row.
 */
export const sql = `
  ALTER TABLE snapshots ADD COLUMN job_id uuid;
  CREATE UNIQUE INDEX snapshots_job_idx ON snapshots (job_id) WHERE job_id IS NOT NULL;
`;
