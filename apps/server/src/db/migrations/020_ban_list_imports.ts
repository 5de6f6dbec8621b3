export const sql = `
  -- Import previews (issue 15, modules/banlists/list-import.service.ts): what a person's import would
  -- add, kept from the preview until they confirm it, so the job applies exactly what they saw (the text
  -- is not sent twice, nor read twice). A preview lasts 30 minutes and is applied once.
  CREATE TABLE ban_list_imports (
    id uuid PRIMARY KEY,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    ban_list_ref bigint NOT NULL REFERENCES ban_lists (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    -- Set when the person confirmed it (the job applying it was started): a preview is applied once.
    applied_at timestamptz,
    -- The items to add, as JSON: [[value, comment, expires_at | null], ...] in the file's order.
    items text NOT NULL,
    item_count integer NOT NULL
  );
  -- Kept out of line uncompressed: 100,000 items are about 3 MB of JSON, which pglz took most of a
  -- second to compress on PGlite, for a row read once.
  ALTER TABLE ban_list_imports ALTER COLUMN items SET STORAGE EXTERNAL;
  CREATE INDEX ban_list_imports_expires_idx ON ban_list_imports (expires_at);
`;
