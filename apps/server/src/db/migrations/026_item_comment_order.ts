/**
 * The items page sorted by Comment read the whole list's partition and sorted it for each page: the
 * deepest page served (10,000 items from either end) of a 500,000-item list was a 250 ms statement on
 * PGlite, and everyone else's statements wait in line behind it on PGlite's one connection (the
 * bench's fairness row). With this btree a page is a walk of the index: ~5 ms at that depth. A sync
 * builds it on its load table as it builds the others (BanListItemsRepository.indexLoad, the same
 * definition, so attaching finds it): ~0.7 s more of a 500,000-item sync on PGlite.
 */
export const sql = `
  CREATE INDEX ban_list_items_comment_idx ON ban_list_items (ban_list_ref, comment, id);
`;
