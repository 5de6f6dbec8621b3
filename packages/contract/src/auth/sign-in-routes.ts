/**
 * Sign-in's two calls, method and path, without zod: `authEndpoints` declares them in full from these,
 * and the login page calls them by these, as its size budget has no room for zod and the schemas.
 */
export const signInRoutes = {
  login: { method: 'POST', path: '/api/login' },
  loginTwoFactor: { method: 'POST', path: '/api/login/two-factor' },
} as const;
