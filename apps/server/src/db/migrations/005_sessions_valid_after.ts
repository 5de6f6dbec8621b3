export const sql = `
  -- Session tokens issued before this second are refused: a password change ends every open session.
  -- NULL: no such change yet.
  ALTER TABLE users ADD COLUMN sessions_valid_after timestamptz;
`;
