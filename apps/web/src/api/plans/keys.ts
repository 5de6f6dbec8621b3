/** Query keys of plans: the administrators' list, and the signed-in person's own plan and use. */
export const planKeys = {
  all: ['plans'] as const,
  list: () => [...planKeys.all, 'list'] as const,
  own: () => [...planKeys.all, 'own'] as const,
};
