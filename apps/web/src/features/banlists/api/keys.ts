/** Query keys of the ban lists screen. */
export const banListKeys = {
  all: ['banlists'] as const,
  /** GET /cloudflare/banlists; the items screen reads the same key for its title. */
  list: () => [...banListKeys.all, 'list'] as const,
  /** The accounts offered by the Add dialog. */
  accounts: () => [...banListKeys.all, 'accounts'] as const,
  /** The items screen's cached pages: every list's, or one list's (its keys start with these). */
  allItems: () => ['banlist-items'] as const,
  items: (listId: string) => [...banListKeys.allItems(), listId] as const,
};
