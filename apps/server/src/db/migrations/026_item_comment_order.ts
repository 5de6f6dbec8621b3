/**
 * The items page sorted by Comment read the whole list's partition and sorted it for each page: the
 * deepest page served (10,000 items from either end) of a 500,000-item list was a 250 ms statement on
 * PGlite, and everyone else's statements wait in line behind it on PGlite's one connection (the
 * bench's fairness row). With this btree a page is a walk of the index: ~5 ms at that depth. A sync
 * builds it on its load table as it builds the others (BanListItemsRepository.indexLoad, the same
 * definition, so attaching finds it): ~0.7 s more of a 500,000-item sync on PGlite. Without the list's
 * id in front (each list is a partition of its own): with a constant first column every comparison of
 * the build's sort reaches the comments' text, 1.8-2.0 s against 1.2-1.4 s for 500,000 rows.
 */
export const sql = `
  CREATE INDEX ban_list_items_comment_idx ON ban_list_items (comment, id);
`;
