/** Query keys of "Where is this address?": one answer per search text. */
export const ipSearchKeys = {
  all: ['ip-search'] as const,
  search: (q: string) => [...ipSearchKeys.all, q] as const,
};
