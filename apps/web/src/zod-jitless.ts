import { config } from 'zod';

/**
 * Zod compiles fast object parsers with `new Function` when it may, and probes for that by calling
 * `Function('')` once. The server's Content-Security-Policy forbids eval (script-src 'self'), so the
 * probe is a CSP violation in the browser's console and reports. Jitless mode skips the probe and the
 * compilation; parsing stays the same. Imported first by main.tsx, before any schema runs.
 */
config({ jitless: true });
