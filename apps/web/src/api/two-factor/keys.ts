/** Query keys of two-factor sign-in: the person's own state, and the administrators' requirement. */
export const twoFactorKeys = {
  all: ['two-factor'] as const,
  status: () => [...twoFactorKeys.all, 'status'] as const,
  policy: () => [...twoFactorKeys.all, 'policy'] as const,
};
