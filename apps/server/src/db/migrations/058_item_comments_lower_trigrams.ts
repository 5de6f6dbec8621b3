/**
 * A search reads comments as `lower(comment) LIKE lower(text)` (issue 36): what `ILIKE` does inside in
 * UTF-8 (it lowers both sides, the pattern again for every row), at two thirds of the cost a row, which
 * is most of a common term's page and count. The trigram index is kept over `lower(comment)` for it:
 * the same trigrams (pg_trgm folds case), so a rare term is still found through the index.
 */
export const sql = `
  DROP INDEX ban_list_items_comment_trgm_idx;
  CREATE INDEX ban_list_items_comment_trgm_idx ON ban_list_items USING gin (lower(comment) gin_trgm_ops);
`;
