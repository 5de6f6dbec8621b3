/** Query keys of API keys: the person's own, and another person's for an administrator. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
  /** Another person's keys, as an administrator sees them. */
  ofUser: (userId: number) => [...apiKeyKeys.all, 'user', userId] as const,
};
