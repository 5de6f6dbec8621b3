/** Query keys of the ban lists: the ban lists screen, and the items screen's title and counts. */
export const banListKeys = {
  all: ['ban-lists'] as const,
  /** GET /cloudflare/banlists. */
  list: () => [...banListKeys.all, 'list'] as const,
};
