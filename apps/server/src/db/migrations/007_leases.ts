export const sql = `
  -- Work that only one server process on this database may do at a time (see db/leases.ts): its
  -- holder renews the lease while it works and deletes it when done; a crashed holder's lease lapses
  -- at expires_at.
  CREATE TABLE leases (
    name text PRIMARY KEY,
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
  );
`;
