/** Query keys of the zones (the server's mirror of every account's zones). */
export const zoneKeys = {
  all: ['zones'] as const,
  list: () => [...zoneKeys.all, 'list'] as const,
};
