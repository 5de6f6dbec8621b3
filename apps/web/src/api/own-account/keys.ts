/** Query keys of the person's own sign-in: their open sessions. */
export const ownAccountKeys = {
  all: ['own-account'] as const,
  sessions: () => [...ownAccountKeys.all, 'sessions'] as const,
};
