/** Query keys of the Cloudflare accounts: the accounts screen and every dialog that offers an account. */
export const accountKeys = {
  all: ['accounts'] as const,
  list: () => [...accountKeys.all, 'list'] as const,
};
