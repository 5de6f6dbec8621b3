/** Query keys of a set-password link: whose it is and whether it still works, per token. */
export const passwordLinkKeys = {
  all: ['password-links'] as const,
  status: (token: string) => [...passwordLinkKeys.all, 'status', token] as const,
};
