/** Query keys of the zones screen. */
export const zoneKeys = {
  all: ['zones'] as const,
  list: () => [...zoneKeys.all, 'list'] as const,
  /** The accounts offered by the Add Zone dialog. */
  accounts: () => [...zoneKeys.all, 'accounts'] as const,
};
